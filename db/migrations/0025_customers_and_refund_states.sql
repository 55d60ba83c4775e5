CREATE TABLE "customers" (
	"merchant_id" bigint NOT NULL,
	"customer_id" text NOT NULL,
	"payments_count" bigint DEFAULT 0 NOT NULL,
	"completed_volume" numeric(20, 2) DEFAULT '0' NOT NULL,
	"refunded" numeric(20, 2) DEFAULT '0' NOT NULL,
	"first_payment_at" timestamp (3) with time zone NOT NULL,
	"last_payment_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "customers_merchant_id_customer_id_pk" PRIMARY KEY("merchant_id","customer_id")
);
--> statement-breakpoint
DROP INDEX "payments_merchant_customer_idx";--> statement-breakpoint
ALTER TABLE "payment_daily_totals" DROP CONSTRAINT "payment_daily_totals_merchant_id_day_status_pk";--> statement-breakpoint
-- drizzle-kit wrote the key before the columns it names; the columns come first.
ALTER TABLE "payment_daily_totals" ADD COLUMN "customer_id" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "payment_daily_totals" ADD COLUMN "refund_state" text DEFAULT 'none' NOT NULL;--> statement-breakpoint
ALTER TABLE "payment_daily_totals" ADD CONSTRAINT "payment_daily_totals_merchant_id_customer_id_day_status_refund_state_pk" PRIMARY KEY("merchant_id","customer_id","day","status","refund_state");--> statement-breakpoint
ALTER TABLE "customers" ADD CONSTRAINT "customers_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "customers_merchant_last_payment_idx" ON "customers" USING btree ("merchant_id","last_payment_at" DESC NULLS FIRST,"customer_id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "payments_merchant_customer_created_idx" ON "payments" USING btree ("merchant_id","customer_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);