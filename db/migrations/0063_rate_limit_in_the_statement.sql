-- The rate limit's count is one INSERT … ON CONFLICT in the statement that needs it (lib/platform/rate-limit.ts,
-- countRequest), no longer a PL/pgSQL call: the call made the token check a sixth slower on PostgreSQL and half
-- as fast on Citus's coordinator (docs/benchmarks-log.md, issue 71). Its file in db/functions/ is gone too.
DROP FUNCTION IF EXISTS count_request(text, integer, float8);
