-- Custom (drizzle-kit generate --custom): the counts 0028's table holds for the refunds already there, per UTC
-- day of creation and status, for the merchant ('') and for each customer id. A statement over every refund:
-- at 500,000 refunds it takes about a second (BENCHMARKS.md).
INSERT INTO "refund_daily_counts" ("merchant_id", "customer_id", "day", "status", "count")
SELECT "merchant_id", scope.customer_id, ("created_at" AT TIME ZONE 'UTC')::date, "status", count(*)
FROM "refunds"
CROSS JOIN LATERAL (VALUES (''), (nullif("customer_id", ''))) AS scope (customer_id)
WHERE scope.customer_id IS NOT NULL
GROUP BY 1, 2, 3, 4
ON CONFLICT ("merchant_id", "customer_id", "day", "status") DO UPDATE SET "count" = excluded."count";
