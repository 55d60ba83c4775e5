ALTER TABLE "balance_transaction_daily_totals" ADD COLUMN "amount" numeric DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "balance_transaction_daily_totals" ADD COLUMN "fee" numeric DEFAULT '0' NOT NULL;--> statement-breakpoint
-- The amount and fee of the transactions posted before these columns existed are added afterwards, in
-- batches (db/backfills.ts, "ledger.4.balance_transaction_daily_sums"), up to the highest id now; later ones
-- add their own.
INSERT INTO "backfills" ("name", "through") VALUES
  ('ledger.4.balance_transaction_daily_sums', (SELECT coalesce(max("id"), 0)::text FROM "balance_transactions"));
