-- A sandbox's test clock (DESIGN.md, "Test clock"), which every time-driven write reads.
-- The current text of each function: applied after the migrations whenever this file changes (db/function-files.ts).

-- The merchant's time: a sandbox on a test clock stands at its clock_at (moved only by an advance); every other
-- environment runs on real time, the transaction's now(). One primary-key read of merchants, a reference table
-- on Citus, so a worker answers it locally.
-- Where it may be called on Citus: in these functions and in DML (the coordinator evaluates it first). Not in a
-- SELECT that Citus pushes down to a shard: the shard would query merchants from inside a distributed query,
-- which Citus refuses ("cannot execute a distributed query from a query on a shard"); read it beforehand.
CREATE OR REPLACE FUNCTION merchant_now(p_merchant_id bigint) RETURNS timestamptz
LANGUAGE sql STABLE AS $$
  SELECT coalesce((SELECT clock_at FROM merchants WHERE id = p_merchant_id), now())
$$;
