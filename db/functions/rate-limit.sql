-- A rate limit's count.
-- The current text of each function: applied after the migrations whenever this file changes (db/function-files.ts).

-- Counts one request against p_key, p_per_period requests per p_period_seconds: each accepted request moves the
-- key's "theoretical arrival time" (tat) one interval (period / limit) ahead, and a request is accepted while
-- tat + interval stays within one period of now. That allows a burst of the limit, then one request per
-- interval, never the 2x burst a fixed window allows at its boundary. Returns whether it was accepted, and tat -
-- now in seconds. Expressions over the row's columns are immutable (tat is UTC without a zone, 0052): Citus
-- plans the UPDATE as one statement on its table.
CREATE OR REPLACE FUNCTION count_request(p_key text, p_per_period integer, p_period_seconds float8)
RETURNS TABLE (allowed boolean, ahead_seconds float8)
LANGUAGE plpgsql VOLATILE AS $$
#variable_conflict use_column
DECLARE
  v_interval_seconds float8 := p_period_seconds / p_per_period;
  v_interval interval := make_interval(secs => p_period_seconds / p_per_period);
  v_period interval := make_interval(secs => p_period_seconds);
  v_now timestamp := clock_timestamp() AT TIME ZONE 'UTC';
  v_tat timestamp;
  v_allowed boolean;
BEGIN
  -- One statement on the common path: the key's row, judged by the clock read just before it.
  UPDATE rate_limit_buckets b
  SET allowed = greatest(b.tat, v_now) + v_interval <= v_now + v_period,
      tat = CASE WHEN greatest(b.tat, v_now) + v_interval <= v_now + v_period
                 THEN greatest(b.tat, v_now) + v_interval ELSE b.tat END,
      emission_interval_seconds = v_interval_seconds
  WHERE b.key = p_key
  RETURNING b.allowed, b.tat INTO v_allowed, v_tat;
  IF NOT FOUND THEN
    INSERT INTO rate_limit_buckets (key, tat, allowed, emission_interval_seconds)
    VALUES (p_key, v_now + v_interval, true, v_interval_seconds)
    ON CONFLICT (key) DO NOTHING;
    IF FOUND THEN
      RETURN QUERY SELECT true, v_interval_seconds;
      RETURN;
    END IF;
    -- Another request made the row first: count against it.
    RETURN QUERY SELECT * FROM count_request(p_key, p_per_period, p_period_seconds);
    RETURN;
  END IF;
  IF NOT v_allowed THEN
    -- Refused by the clock read before the row lock: a request that waited for concurrent ones is judged
    -- again by the time it holds it (the row is its alone until it commits).
    v_now := clock_timestamp() AT TIME ZONE 'UTC';
    IF greatest(v_tat, v_now) + v_interval <= v_now + v_period THEN
      v_tat := greatest(v_tat, v_now) + v_interval;
      v_allowed := true;
      UPDATE rate_limit_buckets SET tat = v_tat, allowed = true WHERE key = p_key;
    END IF;
  END IF;
  RETURN QUERY SELECT v_allowed, extract(epoch FROM (v_tat - v_now))::float8;
END
$$;
