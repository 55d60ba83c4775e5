CREATE TABLE "payment_daily_totals" (
	"merchant_id" bigint NOT NULL,
	"day" date NOT NULL,
	"status" text NOT NULL,
	"count" bigint DEFAULT 0 NOT NULL,
	"volume" numeric(20, 2) DEFAULT '0' NOT NULL,
	CONSTRAINT "payment_daily_totals_merchant_id_day_status_pk" PRIMARY KEY("merchant_id","day","status")
);
--> statement-breakpoint
ALTER TABLE "payment_daily_totals" ADD CONSTRAINT "payment_daily_totals_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Backfill from the payments already there; from now on creates and settlements keep it.
INSERT INTO "payment_daily_totals" ("merchant_id", "day", "status", "count", "volume")
SELECT "merchant_id", ("created_at" AT TIME ZONE 'UTC')::date, "status", count(*), sum("amount")
FROM "payments"
GROUP BY 1, 2, 3;
