-- The partitions of the history tables (api_request_logs, webhook_attempts, security_events).
-- The current text of each function: applied after the migrations whenever this file changes (db/function-files.ts).

-- Creates the missing partitions of `parent` from the one holding from_time through the one holding to_time,
-- UTC days or weeks (Mondays), named parent_pYYYYMMDD. Shared with the background service, so names and bounds
-- are defined once. The advisory lock serialises creators across processes: CREATE TABLE IF NOT EXISTS alone
-- can still fail on the catalog's unique index when two sessions create the same partition at once.
-- Arithmetic is on UTC timestamps without zone, so a session time zone with summer time cannot shift a bound.
-- Migrations 0022 and 0054 call it (with 0022's text: migrations run before this folder is applied).
CREATE OR REPLACE FUNCTION create_history_partitions(parent text, width text, from_time timestamptz,
  to_time timestamptz)
RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  step interval := ('1 ' || width)::interval;
  start timestamp;
  partition_name text;
  created integer := 0;
BEGIN
  IF width NOT IN ('day', 'week') THEN
    RAISE EXCEPTION 'partition width must be day or week, not %', width;
  END IF;
  PERFORM pg_advisory_xact_lock(72201518);
  FOR start IN
    SELECT generate_series(date_trunc(width, from_time AT TIME ZONE 'UTC'), to_time AT TIME ZONE 'UTC', step)
  LOOP
    partition_name := parent || '_p' || to_char(start, 'YYYYMMDD');
    IF to_regclass(quote_ident(partition_name)) IS NULL THEN
      EXECUTE format('CREATE TABLE IF NOT EXISTS %I PARTITION OF %I FOR VALUES FROM (%L) TO (%L)',
        partition_name, parent, to_char(start, 'YYYY-MM-DD HH24:MI:SS') || '+00',
        to_char(start + step, 'YYYY-MM-DD HH24:MI:SS') || '+00');
      created := created + 1;
    END IF;
  END LOOP;
  RETURN created;
END $$;
