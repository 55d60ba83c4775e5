-- Currencies (DESIGN.md, "Currencies"). This transaction changes the catalog and small tables only:
-- * ADD COLUMN with a constant default fills no row (PostgreSQL 11+);
-- * numeric(p,2) to numeric without a scale is binary coercible: no rewrite, no index rebuild;
-- * refund_daily_totals' primary key gains `currency` (its index is rebuilt: a row per merchant and day).
--   payment_daily_totals' key gains it too, but after this transaction commits (db/rollup-keys.ts): it has a
--   row per customer and day, 10,000,000 at scale, and building that index here held every write for 31 s.
-- Merchants that had chosen a display currency other than USD make it their default. Their stored payments,
-- refunds, links and rollups take it afterwards, in batches of short transactions (db/backfills.ts): this
-- transaction holds its ALTER TABLE locks until it commits, so a backfill inside it made every merchant's
-- writes wait for it (527 s at 10,000,000 payments, BENCHMARKS.md).
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
CREATE TABLE IF NOT EXISTS "backfills" (
	"name" text PRIMARY KEY NOT NULL,
	"position" text DEFAULT '' NOT NULL,
	"through" text DEFAULT '' NOT NULL,
	"done_at" timestamp (3) with time zone
);--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "currency_backfills" (
	"merchant_id" bigint PRIMARY KEY NOT NULL REFERENCES "public"."merchants"("id") ON DELETE cascade,
	"currency" text NOT NULL
);--> statement-breakpoint
INSERT INTO "currency_backfills" ("merchant_id", "currency")
SELECT "id", "default_currency" FROM "merchants" WHERE "default_currency" <> 'USD';--> statement-breakpoint
-- The id tables are walked by id up to their highest now: later rows were written with a currency.
INSERT INTO "backfills" ("name", "through")
SELECT step, through FROM (VALUES
  ('currency.1.payments', (SELECT coalesce(max("id"), 0)::text FROM "payments")),
  ('currency.2.refunds', (SELECT coalesce(max("id"), 0)::text FROM "refunds")),
  ('currency.3.payment_links', (SELECT coalesce(max("id"), 0)::text FROM "payment_links")),
  ('currency.4.payment_daily_totals', ''),
  ('currency.5.refund_daily_totals', '')
) AS steps (step, through)
WHERE EXISTS (SELECT 1 FROM "currency_backfills");--> statement-breakpoint
-- The customers' sums move to one row per currency: before currencies, all of a customer's were in one.
INSERT INTO "customer_volumes" ("merchant_id", "customer_id", "currency", "completed", "refunded")
SELECT c."merchant_id", c."customer_id", m."default_currency", c."completed_volume", c."refunded"
FROM "customers" c JOIN "merchants" m ON m."id" = c."merchant_id"
WHERE c."completed_volume" <> 0 OR c."refunded" <> 0;
