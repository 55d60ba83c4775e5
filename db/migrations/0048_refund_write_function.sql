-- A refund's creation as one call (DESIGN.md, "Citus: sharded by merchant", "One call per write"), as
-- migration 0047 made a payment's creation and settle: every statement names the merchant, and on Citus the
-- coordinator hands the call whole to the merchant's worker (db/citus.ts). A custom migration: a function.

-- A refund as the API shows it (toRefundResource's keys, in its order), for the events the functions write.
CREATE OR REPLACE FUNCTION refund_json(r refunds) RETURNS json
LANGUAGE sql IMMUTABLE AS $$
  SELECT json_build_object('id', r.id, 'payment_id', r.payment_id, 'amount', r.amount::text,
    'currency', r.currency, 'status', r.status, 'reason', r.reason, 'external_id', r.external_id,
    'failure_reason', r.failure_reason,
    'created_at', to_char(r.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    'settled_at', to_char(r.settled_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
$$;
--> statement-breakpoint
-- POST /api/payments/{id}/refunds, the dashboard and the CLI: the whole refund, top to bottom. The key's claim
-- first, as create_payment's (a replay returns {id, replayed: true}; another request, SQLSTATE PA409); then the
-- payment's row lock, under which what is refundable is read and reserved, so concurrent refunds queue on it
-- and never pass its amount. A refusal (not completed, disputed, nothing or not that much refundable, more
-- decimals than the currency) raises SQLSTATE PA422, undoing the key's claim with everything else; the caller
-- says why. The amount left out is all that is refundable; one with fewer decimals is written out to the
-- currency's. Then the refund, its day's counts (the merchant's, then its customer's), its money out of the
-- available balance (a balance transaction, two entries, the balances in account order, the day's totals),
-- and `refund.created` with its deliveries. Returns {id, replayed, refund}.
CREATE OR REPLACE FUNCTION create_refund(p_merchant_id bigint, p_payment_id bigint, p_event_id text,
  p_amount numeric, p_reason text, p_external_id text, p_auto_settle_ms integer, p_notify boolean,
  p_idempotency_key text, p_request_hash text, p_key_cutoff timestamptz) RETURNS json
LANGUAGE plpgsql AS $$
DECLARE
  v_key_id bigint;
  v_replay record;
  v_payment record;
  v_amount numeric;
  v_refund refunds;
  v_move record;
  v_account text;
  v_settle_at timestamptz;
  v_moved numeric;
BEGIN
  IF p_idempotency_key IS NOT NULL THEN
    INSERT INTO idempotency_keys AS k (merchant_id, key, request_hash)
    VALUES (p_merchant_id, p_idempotency_key, p_request_hash)
    ON CONFLICT (merchant_id, key) DO UPDATE
      SET request_hash = excluded.request_hash, payment_id = NULL, refund_id = NULL, payout_id = NULL,
          resource_id = NULL, created_at = excluded.created_at
      WHERE k.created_at < p_key_cutoff
    RETURNING id INTO v_key_id;
    IF v_key_id IS NULL THEN
      SELECT request_hash, refund_id INTO v_replay FROM idempotency_keys
      WHERE merchant_id = p_merchant_id AND key = p_idempotency_key;
      IF v_replay.request_hash IS DISTINCT FROM p_request_hash OR v_replay.refund_id IS NULL THEN
        RAISE EXCEPTION 'This Idempotency-Key was already used with a different request body.'
          USING ERRCODE = 'PA409';
      END IF;
      RETURN json_build_object('id', v_replay.refund_id, 'replayed', true);
    END IF;
  END IF;

  -- Read in the row this locks (a dispute moves it under the same lock): none while disputed.
  SELECT id, customer_id, currency, amount, amount - amount_refunded - amount_refund_pending AS refundable
  INTO v_payment FROM payments
  WHERE merchant_id = p_merchant_id AND id = p_payment_id AND status = 'completed'
    AND (dispute_status IS NULL OR dispute_status IN ('won', 'warning_closed'))
  FOR UPDATE;
  v_amount := round(coalesce(p_amount, v_payment.refundable), scale(v_payment.amount));
  IF v_payment.id IS NULL OR scale(coalesce(p_amount, 0)) > scale(v_payment.amount) OR v_amount <= 0
     OR v_amount > v_payment.refundable THEN
    RAISE EXCEPTION 'The refund was refused.' USING ERRCODE = 'PA422';
  END IF;
  UPDATE payments SET amount_refund_pending = amount_refund_pending + v_amount, updated_at = now()
  WHERE merchant_id = p_merchant_id AND id = p_payment_id;

  v_settle_at := CASE WHEN p_auto_settle_ms > 0 THEN now() + p_auto_settle_ms * interval '1 millisecond' END;
  INSERT INTO refunds (merchant_id, payment_id, customer_id, amount, currency, reason, external_id, settle_at)
  VALUES (p_merchant_id, p_payment_id, v_payment.customer_id, v_amount, v_payment.currency, p_reason,
          p_external_id, v_settle_at)
  RETURNING * INTO v_refund;

  -- Its day's count, the merchant's and its customer's (the refunds list's totals), after the payment's lock.
  INSERT INTO refund_daily_counts AS t (merchant_id, customer_id, day, status, count)
  VALUES (p_merchant_id, '', (v_refund.created_at AT TIME ZONE 'UTC')::date, v_refund.status, 1)
  ON CONFLICT (merchant_id, customer_id, day, status) DO UPDATE SET count = t.count + 1;
  IF v_refund.customer_id <> '' THEN
    INSERT INTO refund_daily_counts AS t (merchant_id, customer_id, day, status, count)
    VALUES (p_merchant_id, v_refund.customer_id, (v_refund.created_at AT TIME ZONE 'UTC')::date, v_refund.status, 1)
    ON CONFLICT (merchant_id, customer_id, day, status) DO UPDATE SET count = t.count + 1;
  END IF;

  -- The money: out of the available balance, back to the processor (clearing).
  INSERT INTO balance_transactions (merchant_id, type, source_id, currency, amount, fee, net, status, available_on)
  VALUES (p_merchant_id, 'refund', v_refund.id, v_refund.currency, -v_amount, 0, -v_amount, 'available', now())
  RETURNING id, created_at INTO v_move;
  INSERT INTO ledger_entries (merchant_id, transaction_id, posting, account, currency, amount)
  VALUES (p_merchant_id, v_move.id, 'post', 'available', v_refund.currency, -v_amount),
         (p_merchant_id, v_move.id, 'post', 'clearing', v_refund.currency, v_amount);
  FOREACH v_account IN ARRAY ARRAY['available', 'clearing'] LOOP
    -- Worked out here, not in the INSERT (Citus deparses a CASE on a variable there wrongly).
    v_moved := CASE WHEN v_account = 'available' THEN -v_amount ELSE v_amount END;
    INSERT INTO ledger_balances AS b (merchant_id, account, currency, slot, amount)
    VALUES (p_merchant_id, v_account, v_refund.currency, floor(random() * 8)::smallint, v_moved)
    ON CONFLICT (merchant_id, account, currency, slot) DO UPDATE SET amount = b.amount + excluded.amount;
  END LOOP;
  INSERT INTO balance_transaction_daily_totals AS d (merchant_id, day, type, currency, slot, count, amount, fee, net)
  VALUES (p_merchant_id, (v_move.created_at AT TIME ZONE 'UTC')::date, 'refund', v_refund.currency,
          floor(random() * 8)::smallint, 1, -v_amount, 0, -v_amount)
  ON CONFLICT (merchant_id, day, type, currency, slot) DO UPDATE
    SET count = d.count + 1, amount = d.amount + excluded.amount, fee = d.fee + excluded.fee,
        net = d.net + excluded.net;

  IF record_event(p_merchant_id, p_event_id, 'refund.created', p_payment_id, refund_json(v_refund))
     AND p_notify THEN
    PERFORM pg_notify('webhook_deliveries', '');
  END IF;
  IF v_key_id IS NOT NULL THEN
    UPDATE idempotency_keys SET refund_id = v_refund.id WHERE merchant_id = p_merchant_id AND id = v_key_id;
  END IF;
  RETURN json_build_object('id', v_refund.id, 'replayed', false, 'refund', refund_json(v_refund));
END
$$;
