-- Custom (drizzle-kit generate --custom): the rows 0025's tables and columns hold for the payments already
-- there. A payment's refund state is what its succeeded refunds took: none, part or all of its amount.
-- The daily totals again, by refund state, for the merchant ('') and for each customer id.
DELETE FROM "payment_daily_totals";--> statement-breakpoint
INSERT INTO "payment_daily_totals" ("merchant_id", "customer_id", "day", "status", "refund_state", "count", "volume")
SELECT "merchant_id", scope.customer_id, ("created_at" AT TIME ZONE 'UTC')::date, "status",
       CASE WHEN "amount_refunded" = 0 THEN 'none' WHEN "amount_refunded" < "amount" THEN 'partial' ELSE 'full' END,
       count(*), sum("amount")
FROM "payments"
CROSS JOIN LATERAL (VALUES (''), (nullif("customer_id", ''))) AS scope (customer_id)
WHERE scope.customer_id IS NOT NULL
GROUP BY 1, 2, 3, 4, 5;--> statement-breakpoint
-- One row per customer id a merchant has used.
INSERT INTO "customers" ("merchant_id", "customer_id", "payments_count", "completed_volume", "refunded", "first_payment_at", "last_payment_at")
SELECT "merchant_id", "customer_id", count(*), coalesce(sum("amount") FILTER (WHERE "status" = 'completed'), 0),
       sum("amount_refunded"), min("created_at"), max("created_at")
FROM "payments" WHERE "customer_id" <> '' GROUP BY 1, 2;
