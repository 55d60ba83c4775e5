-- Rate-limit counters are written on every API request; as a logged table each of those writes waited for a
-- WAL flush. Unlogged, they skip the WAL: a crash empties the table, which only forgives the current window.
ALTER TABLE "rate_limit_buckets" SET UNLOGGED;
