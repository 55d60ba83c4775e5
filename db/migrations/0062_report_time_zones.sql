CREATE TABLE "balance_transaction_quarter_hour_totals" (
	"merchant_id" bigint NOT NULL,
	"quarter_hour" timestamp (3) with time zone NOT NULL,
	"type" text NOT NULL,
	"currency" text NOT NULL,
	"slot" smallint NOT NULL,
	"count" bigint DEFAULT 0 NOT NULL,
	"amount" numeric DEFAULT '0' NOT NULL,
	"fee" numeric DEFAULT '0' NOT NULL,
	"net" numeric DEFAULT '0' NOT NULL,
	"available" numeric DEFAULT '0' NOT NULL,
	CONSTRAINT "balance_transaction_quarter_hour_totals_merchant_id_quarter_hour_type_currency_slot_pk" PRIMARY KEY("merchant_id","quarter_hour","type","currency","slot")
);
--> statement-breakpoint
CREATE TABLE "payout_type_totals" (
	"merchant_id" bigint NOT NULL,
	"payout_id" bigint NOT NULL,
	"type" text NOT NULL,
	"count" bigint DEFAULT 0 NOT NULL,
	"amount" numeric DEFAULT '0' NOT NULL,
	"fee" numeric DEFAULT '0' NOT NULL,
	"net" numeric DEFAULT '0' NOT NULL,
	CONSTRAINT "payout_type_totals_merchant_id_payout_id_type_pk" PRIMARY KEY("merchant_id","payout_id","type")
);
--> statement-breakpoint
ALTER TABLE "merchants" ADD COLUMN "report_timezone" text DEFAULT 'UTC' NOT NULL;--> statement-breakpoint
ALTER TABLE "balance_transaction_daily_totals" ADD COLUMN "available" numeric DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "balance_transaction_quarter_hour_totals" ADD CONSTRAINT "balance_transaction_quarter_hour_totals_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_type_totals" ADD CONSTRAINT "payout_type_totals_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- The transactions posted so far, counted into what this migration adds (later ones count themselves, through
-- count_balance_transaction and the settler's CTEs): each one's net on the day and quarter hour of its
-- available_on, and its quarter hour's totals. One statement each: the ledger's size decides how long it takes.
INSERT INTO "balance_transaction_daily_totals" AS d ("merchant_id", "day", "type", "currency", "slot", "available")
SELECT "merchant_id", ("available_on" AT TIME ZONE 'UTC')::date, "type", "currency", 0, sum("net")
FROM "balance_transactions" GROUP BY 1, 2, 3, 4
ON CONFLICT ("merchant_id", "day", "type", "currency", "slot") DO UPDATE SET "available" = d."available" + excluded."available";
--> statement-breakpoint
INSERT INTO "balance_transaction_quarter_hour_totals" AS q ("merchant_id", "quarter_hour", "type", "currency", "slot",
                                                            "count", "amount", "fee", "net", "available")
SELECT "merchant_id", "bucket", "type", "currency", 0, sum("count"), sum("amount"), sum("fee"), sum("net"), sum("available")
FROM (
  SELECT "merchant_id", date_bin('15 minutes', "created_at", timestamptz '2000-01-01 00:00:00+00') AS "bucket", "type",
         "currency", 1 AS "count", "amount", "fee", "net", 0::numeric AS "available"
  FROM "balance_transactions"
  UNION ALL
  SELECT "merchant_id", date_bin('15 minutes', "available_on", timestamptz '2000-01-01 00:00:00+00'), "type",
         "currency", 0, 0, 0, 0, "net"
  FROM "balance_transactions"
) AS "part"
GROUP BY 1, 2, 3, 4;
--> statement-breakpoint
-- What each payout made so far carried, by type, less its own debit (a payout of part carried none).
INSERT INTO "payout_type_totals" ("merchant_id", "payout_id", "type", "count", "amount", "fee", "net")
SELECT "merchant_id", "payout_id", "type", count(*), sum("amount"), sum("fee"), sum("net")
FROM "balance_transactions"
WHERE "payout_id" IS NOT NULL AND NOT ("type" = 'payout' AND "source_id" = "payout_id")
GROUP BY 1, 2, 3;
--> statement-breakpoint
-- A payout of part made so far carried none: one line, its money itemized by the next payout of all.
INSERT INTO "payout_type_totals" ("merchant_id", "payout_id", "type", "count", "amount", "fee", "net")
SELECT "merchant_id", "id", 'itemized_later', 0, "amount", 0, "amount" FROM "payouts" WHERE NOT "reconciled";
