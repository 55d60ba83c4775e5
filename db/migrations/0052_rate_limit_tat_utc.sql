-- A bucket's tat in UTC without a zone: `timestamp + interval` is immutable where `timestamptz + interval` is
-- not, and Citus takes an UPDATE's expressions over a column only when immutable (count_request, 0053).
ALTER TABLE "rate_limit_buckets" ALTER COLUMN "tat" SET DATA TYPE timestamp (3) USING "tat" AT TIME ZONE 'UTC';
