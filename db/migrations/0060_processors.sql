CREATE TABLE "processor_connections" (
	"merchant_id" bigint NOT NULL,
	"processor" text NOT NULL,
	"key_ciphertext" text NOT NULL,
	"key_last4" text NOT NULL,
	"mode" text NOT NULL,
	"webhook_endpoint_id" text,
	"webhook_secret_ciphertext" text,
	"connected_by" bigint,
	"connected_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "processor_connections_merchant_id_pk" PRIMARY KEY("merchant_id")
);
--> statement-breakpoint
ALTER TABLE "merchants" ADD COLUMN "processor" text;--> statement-breakpoint
ALTER TABLE "checkouts" ADD COLUMN "hosted_url_ciphertext" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "processor" text DEFAULT 'simulator' NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "processor_payment_id" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "processor_checked_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "processor_connections" ADD CONSTRAINT "processor_connections_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "payments_merchant_processor_payment_idx" ON "payments" USING btree ("merchant_id","processor_payment_id") WHERE processor_payment_id is not null;--> statement-breakpoint
CREATE INDEX "payments_processor_pending_idx" ON "payments" USING btree ("created_at") WHERE status = 'pending' and processor <> 'simulator';--> statement-breakpoint
-- create_payment takes the processor's payment (db/functions/payments.sql): its former signature goes.
DROP FUNCTION IF EXISTS create_payment(bigint, text, text, text, numeric, text, text, text, integer, text, bigint, text, text, text, boolean, text, text, timestamptz);
--> statement-breakpoint
-- settle_payment takes a processor's fee and who moves it: its former signature goes.
DROP FUNCTION IF EXISTS settle_payment(bigint, bigint, text, text, text, text, json, bigint, boolean);
