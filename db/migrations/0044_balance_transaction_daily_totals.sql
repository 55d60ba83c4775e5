CREATE TABLE "balance_transaction_daily_totals" (
	"merchant_id" bigint NOT NULL,
	"day" date NOT NULL,
	"type" text NOT NULL,
	"currency" text NOT NULL,
	"slot" smallint NOT NULL,
	"count" bigint DEFAULT 0 NOT NULL,
	"net" numeric DEFAULT '0' NOT NULL,
	CONSTRAINT "balance_transaction_daily_totals_merchant_id_day_type_currency_slot_pk" PRIMARY KEY("merchant_id","day","type","currency","slot")
);
--> statement-breakpoint
ALTER TABLE "balance_transaction_daily_totals" ADD CONSTRAINT "balance_transaction_daily_totals_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- The transactions posted before this table existed are counted afterwards, in batches (db/backfills.ts,
-- "ledger.3.balance_transaction_daily_totals"), up to the highest id now; later ones count themselves.
INSERT INTO "backfills" ("name", "through") VALUES
  ('ledger.3.balance_transaction_daily_totals', (SELECT coalesce(max("id"), 0)::text FROM "balance_transactions"));
