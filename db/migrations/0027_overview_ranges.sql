CREATE TABLE "refund_daily_totals" (
	"merchant_id" bigint NOT NULL,
	"day" date NOT NULL,
	"count" bigint DEFAULT 0 NOT NULL,
	"amount" numeric(20, 2) DEFAULT '0' NOT NULL,
	CONSTRAINT "refund_daily_totals_merchant_id_day_pk" PRIMARY KEY("merchant_id","day")
);
--> statement-breakpoint
ALTER TABLE "api_tokens" ADD COLUMN "first_limited_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "customer_id" text;--> statement-breakpoint
ALTER TABLE "refund_daily_totals" ADD CONSTRAINT "refund_daily_totals_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- A refund's customer is its payment's.
UPDATE "refunds" r SET "customer_id" = p."customer_id"
FROM "payments" p WHERE p."id" = r."payment_id" AND p."customer_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "refunds_merchant_customer_created_idx" ON "refunds" USING btree ("merchant_id","customer_id","created_at" DESC NULLS LAST) WHERE customer_id is not null;--> statement-breakpoint
-- The days refunds succeeded on so far (a refund's settled_at is when it succeeded).
INSERT INTO "refund_daily_totals" ("merchant_id", "day", "count", "amount")
SELECT "merchant_id", ("settled_at" AT TIME ZONE 'UTC')::date, count(*), sum("amount")
FROM "refunds" WHERE "status" = 'succeeded' GROUP BY 1, 2;
