-- The merchant's payment counter moves from merchants (a global table: on Citus a reference table, copied
-- to every node, which a payment's creation must not write) to a table of its own, sharded with the payments.
CREATE TABLE "payment_sequences" (
	"merchant_id" bigint PRIMARY KEY NOT NULL,
	"payments_count" bigint DEFAULT 0 NOT NULL,
	"last_created_at" timestamp (3) with time zone DEFAULT '-infinity' NOT NULL
);
--> statement-breakpoint
ALTER TABLE "payment_sequences" ADD CONSTRAINT "payment_sequences_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
INSERT INTO "payment_sequences" ("merchant_id", "payments_count", "last_created_at")
SELECT m."id", m."payments_count",
       coalesce((SELECT max(p."created_at") FROM "payments" p WHERE p."merchant_id" = m."id"), '-infinity')
FROM "merchants" m WHERE m."payments_count" > 0;--> statement-breakpoint
ALTER TABLE "merchants" DROP COLUMN "payments_count";