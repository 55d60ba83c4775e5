-- The clock each count read (lib/platform/rate-limit.ts, countRequest), so the count's RETURNING gives how far
-- the bucket's tat is ahead of it: the count is then one INSERT … RETURNING, which Citus sends to the
-- coordinator's table whole, where the CTE that read the clock after it was run in steps (docs/scaling.md,
-- "Per node"). Empty in existing rows until their next count, which sets it.
ALTER TABLE "rate_limit_buckets" ADD COLUMN "counted_at" timestamp;