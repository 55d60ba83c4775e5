-- Currencies (DESIGN.md, "Currencies"). Every step but the backfills changes the catalog only:
-- * ADD COLUMN with a constant default fills no row (PostgreSQL 11+);
-- * numeric(p,2) to numeric without a scale is binary coercible: no rewrite, no index rebuild;
-- * the rollups' primary keys gain `currency` (their indexes are rebuilt: a rollup has a row per merchant, day
--   and status, not per payment).
-- The backfills touch only the rows of merchants that had chosen a display currency other than USD: that
-- currency becomes their default, and their payments, refunds, links and rollups take it. Row locks, no
-- table lock: other merchants' writes never wait (measured at 10,000,000 payments: BENCHMARKS.md).
ALTER TABLE "merchants" ADD COLUMN "default_currency" text DEFAULT 'USD' NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "currency" text DEFAULT 'USD' NOT NULL;--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "currency" text DEFAULT 'USD' NOT NULL;--> statement-breakpoint
ALTER TABLE "payment_links" ADD COLUMN "currency" text DEFAULT 'USD' NOT NULL;--> statement-breakpoint
ALTER TABLE "payment_daily_totals" ADD COLUMN "currency" text DEFAULT 'USD' NOT NULL;--> statement-breakpoint
ALTER TABLE "refund_daily_totals" ADD COLUMN "currency" text DEFAULT 'USD' NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ALTER COLUMN "amount" SET DATA TYPE numeric;--> statement-breakpoint
ALTER TABLE "payments" ALTER COLUMN "amount_refunded" SET DATA TYPE numeric;--> statement-breakpoint
ALTER TABLE "payments" ALTER COLUMN "amount_refund_pending" SET DATA TYPE numeric;--> statement-breakpoint
ALTER TABLE "refunds" ALTER COLUMN "amount" SET DATA TYPE numeric;--> statement-breakpoint
ALTER TABLE "payment_links" ALTER COLUMN "amount" SET DATA TYPE numeric;--> statement-breakpoint
ALTER TABLE "payment_daily_totals" ALTER COLUMN "volume" SET DATA TYPE numeric;--> statement-breakpoint
ALTER TABLE "refund_daily_totals" ALTER COLUMN "amount" SET DATA TYPE numeric;--> statement-breakpoint
ALTER TABLE "payment_daily_totals" DROP CONSTRAINT "payment_daily_totals_merchant_id_customer_id_day_status_refund_state_pk";--> statement-breakpoint
ALTER TABLE "payment_daily_totals" ADD CONSTRAINT "payment_daily_totals_merchant_id_customer_id_day_status_refund_state_currency_pk" PRIMARY KEY("merchant_id","customer_id","day","status","refund_state","currency");--> statement-breakpoint
ALTER TABLE "refund_daily_totals" DROP CONSTRAINT "refund_daily_totals_merchant_id_day_pk";--> statement-breakpoint
ALTER TABLE "refund_daily_totals" ADD CONSTRAINT "refund_daily_totals_merchant_id_day_currency_pk" PRIMARY KEY("merchant_id","day","currency");--> statement-breakpoint
CREATE TABLE "customer_volumes" (
	"merchant_id" bigint NOT NULL,
	"customer_id" text NOT NULL,
	"currency" text NOT NULL,
	"completed" numeric DEFAULT '0' NOT NULL,
	"refunded" numeric DEFAULT '0' NOT NULL,
	CONSTRAINT "customer_volumes_merchant_id_customer_id_currency_pk" PRIMARY KEY("merchant_id","customer_id","currency")
);--> statement-breakpoint
ALTER TABLE "customer_volumes" ADD CONSTRAINT "customer_volumes_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
UPDATE "merchants" SET "default_currency" = upper("display_currency")
WHERE "display_currency" IS NOT NULL AND upper("display_currency") <> 'USD';--> statement-breakpoint
UPDATE "payments" p SET "currency" = m."default_currency" FROM "merchants" m
WHERE p."merchant_id" = m."id" AND m."default_currency" <> 'USD';--> statement-breakpoint
UPDATE "refunds" r SET "currency" = m."default_currency" FROM "merchants" m
WHERE r."merchant_id" = m."id" AND m."default_currency" <> 'USD';--> statement-breakpoint
UPDATE "payment_links" l SET "currency" = m."default_currency" FROM "merchants" m
WHERE l."merchant_id" = m."id" AND m."default_currency" <> 'USD';--> statement-breakpoint
UPDATE "payment_daily_totals" t SET "currency" = m."default_currency" FROM "merchants" m
WHERE t."merchant_id" = m."id" AND m."default_currency" <> 'USD';--> statement-breakpoint
UPDATE "refund_daily_totals" t SET "currency" = m."default_currency" FROM "merchants" m
WHERE t."merchant_id" = m."id" AND m."default_currency" <> 'USD';--> statement-breakpoint
-- The customers' sums move to one row per currency: before currencies, all of a customer's were in one.
INSERT INTO "customer_volumes" ("merchant_id", "customer_id", "currency", "completed", "refunded")
SELECT c."merchant_id", c."customer_id", m."default_currency", c."completed_volume", c."refunded"
FROM "customers" c JOIN "merchants" m ON m."id" = c."merchant_id"
WHERE c."completed_volume" <> 0 OR c."refunded" <> 0;
