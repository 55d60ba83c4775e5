-- The outbox: an event and its deliveries, written by every write function.
-- The current text of each function: applied after the migrations whenever this file changes (db/function-files.ts).

-- The outbox, for the functions: the event, its count in its hour (event_hourly_counts, on the same absolute
-- hour as lib/payments/outbox.ts's eventHour), and a pending delivery to each of the merchant's enabled
-- endpoints subscribed to its type. Whether any delivery was queued (the caller wakes the webhook workers).
CREATE OR REPLACE FUNCTION record_event(p_merchant_id bigint, p_event_id text, p_type text, p_payment_id bigint,
  p_data json) RETURNS boolean
LANGUAGE plpgsql AS $$
DECLARE
  v_at timestamptz;
  v_endpoint_id bigint;
  v_queued boolean := false;
BEGIN
  INSERT INTO events (id, merchant_id, payment_id, type, data)
  VALUES (p_event_id, p_merchant_id, p_payment_id, p_type, p_data)
  RETURNING created_at INTO v_at;
  INSERT INTO event_hourly_counts AS counts (merchant_id, type, hour, count)
  VALUES (p_merchant_id, p_type, date_bin('1 hour', v_at, timestamptz '2000-01-01 00:00:00+00'), 1)
  ON CONFLICT (merchant_id, type, hour) DO UPDATE SET count = counts.count + 1;
  -- A row at a time, not INSERT … SELECT: Citus cannot prune an INSERT … SELECT whose merchant is a
  -- parameter (every plpgsql variable is one), and would run it on every shard of every worker.
  FOR v_endpoint_id IN
    SELECT endpoint.id FROM webhook_endpoints endpoint
    WHERE endpoint.merchant_id = p_merchant_id AND endpoint.enabled AND p_type = ANY (endpoint.event_types)
    ORDER BY endpoint.id
  LOOP
    INSERT INTO webhook_deliveries (merchant_id, event_id, endpoint_id) VALUES (p_merchant_id, p_event_id, v_endpoint_id);
    v_queued := true;
  END LOOP;
  RETURN v_queued;
END
$$;
