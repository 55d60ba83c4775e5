-- The security history (DESIGN.md, "Security history"): append-only in the database itself, for every role.
-- The current text of each function: applied after the migrations whenever this file changes (db/function-files.ts).

-- Refuses any UPDATE or DELETE of a security_events row, whoever asks: the app connects as the table's owner
-- (a superuser, often), so a privilege cannot keep a stolen connection or a bug from editing the history.
-- Retention drops whole weekly partitions, which no row trigger sees.
CREATE OR REPLACE FUNCTION refuse_security_event_change()
RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'security_events is append-only: % refused', TG_OP
    USING ERRCODE = 'insufficient_privilege',
          HINT = 'Retention drops whole partitions (SECURITY_HISTORY_RETENTION_DAYS).';
END
$$;

-- On the partitioned table, so every partition, present and future, has it. Not on Citus, which refuses a
-- trigger on a distributed table unless citus.enable_unsafe_triggers is on (docs/scaling.md says so).
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'citus') THEN
    CREATE OR REPLACE TRIGGER security_events_append_only
      BEFORE UPDATE OR DELETE ON security_events
      FOR EACH ROW EXECUTE FUNCTION refuse_security_event_change();
  END IF;
END
$$;
