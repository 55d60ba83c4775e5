-- A refund's creation and settle, its JSON, and a payment's refund state.
-- The current text of each function: applied after the migrations whenever this file changes (db/function-files.ts).

-- A refund as the API shows it (toRefundResource's keys, in its order), for the events the functions write.
CREATE OR REPLACE FUNCTION refund_json(r refunds) RETURNS json
LANGUAGE sql IMMUTABLE AS $$
  SELECT json_build_object('id', r.id, 'payment_id', r.payment_id, 'amount', r.amount::text,
    'currency', r.currency, 'status', r.status, 'reason', r.reason, 'external_id', r.external_id,
    'failure_reason', r.failure_reason,
    'created_at', to_char(r.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    'settled_at', to_char(r.settled_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
$$;

-- A payment's refund state (REFUND_STATES) once `refunded` of its `amount` has been given back.
CREATE OR REPLACE FUNCTION refund_state(refunded numeric, amount numeric) RETURNS text
LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN refunded = 0 THEN 'none' WHEN refunded < amount THEN 'partial' ELSE 'full' END
$$;

-- POST /api/payments/{id}/refunds, the dashboard and the CLI: the whole refund, top to bottom. The key's claim
-- first, as create_payment's (a replay returns {id, replayed: true}; another request, SQLSTATE PA409); then the
-- payment's row lock, under which what is refundable is read and reserved, so concurrent refunds queue on it
-- and never pass its amount. A refusal (not completed, disputed, nothing or not that much refundable, more
-- decimals than the currency) raises SQLSTATE PA422, undoing the key's claim with everything else; the caller
-- says why. The amount left out is all that is refundable; one with fewer decimals is written out to the
-- currency's. Then the refund, its day's counts (the merchant's, then its customer's), its money out of the
-- available balance (post_move), and `refund.created` with its deliveries. A processor's payment's refund
-- (DESIGN.md, "Processors") is made the same way and then sent to its processor by the caller: never settled by
-- the simulator. Returns {id, replayed, refund, processor, processor_payment_id}.
CREATE OR REPLACE FUNCTION create_refund(p_merchant_id bigint, p_payment_id bigint, p_event_id text,
  p_amount numeric, p_reason text, p_external_id text, p_auto_settle_ms integer, p_notify boolean,
  p_idempotency_key text, p_request_hash text, p_key_cutoff timestamptz) RETURNS json
LANGUAGE plpgsql AS $$
DECLARE
  v_now timestamptz := merchant_now(p_merchant_id);
  v_claim record := claim_idempotency_key(p_merchant_id, p_idempotency_key, p_request_hash, p_key_cutoff, 'refund_id');
  v_payment record;
  v_amount numeric;
  v_refund refunds;
  v_settle_at timestamptz;
BEGIN
  IF v_claim.replay_id IS NOT NULL THEN RETURN json_build_object('id', v_claim.replay_id, 'replayed', true); END IF;

  -- Read in the row this locks (a dispute moves it under the same lock): none while disputed.
  SELECT id, customer_id, currency, amount, amount - amount_refunded - amount_refund_pending AS refundable,
         processor, processor_payment_id
  INTO v_payment FROM payments
  WHERE merchant_id = p_merchant_id AND id = p_payment_id AND status = 'completed'
    AND (dispute_status IS NULL OR dispute_status IN ('won', 'warning_closed'))
  FOR UPDATE;
  v_amount := round(coalesce(p_amount, v_payment.refundable), scale(v_payment.amount));
  IF v_payment.id IS NULL OR scale(coalesce(p_amount, 0)) > scale(v_payment.amount) OR v_amount <= 0
     OR v_amount > v_payment.refundable THEN
    RAISE EXCEPTION 'The refund was refused.' USING ERRCODE = 'PA422';
  END IF;
  UPDATE payments SET amount_refund_pending = amount_refund_pending + v_amount, updated_at = v_now
  WHERE merchant_id = p_merchant_id AND id = p_payment_id;

  v_settle_at := CASE WHEN p_auto_settle_ms > 0 AND v_payment.processor = 'simulator'
                      THEN v_now + p_auto_settle_ms * interval '1 millisecond' END;
  INSERT INTO refunds (merchant_id, payment_id, customer_id, amount, currency, reason, external_id, settle_at,
                       processor, created_at, updated_at)
  VALUES (p_merchant_id, p_payment_id, v_payment.customer_id, v_amount, v_payment.currency, p_reason,
          p_external_id, v_settle_at, v_payment.processor, v_now, v_now)
  RETURNING * INTO v_refund;

  -- Its day's count, the merchant's and its customer's (the refunds list's totals), after the payment's lock: one
  -- statement.
  IF v_refund.customer_id <> '' THEN
    INSERT INTO refund_daily_counts AS t (merchant_id, customer_id, day, status, count)
    VALUES (p_merchant_id, '', (v_refund.created_at AT TIME ZONE 'UTC')::date, v_refund.status, 1),
           (p_merchant_id, v_refund.customer_id, (v_refund.created_at AT TIME ZONE 'UTC')::date, v_refund.status, 1)
    ON CONFLICT (merchant_id, customer_id, day, status) DO UPDATE SET count = t.count + 1;
  ELSE
    INSERT INTO refund_daily_counts AS t (merchant_id, customer_id, day, status, count)
    VALUES (p_merchant_id, '', (v_refund.created_at AT TIME ZONE 'UTC')::date, v_refund.status, 1)
    ON CONFLICT (merchant_id, customer_id, day, status) DO UPDATE SET count = t.count + 1;
  END IF;

  -- The money: out of the available balance, back to the processor (clearing).
  PERFORM post_move(p_merchant_id, 'refund', v_refund.id, v_refund.currency, -v_amount, 0, NULL,
                    ARRAY['available', 'clearing'], ARRAY[-v_amount, v_amount]);

  IF record_event(p_merchant_id, p_event_id, 'refund.created', p_payment_id, refund_json(v_refund))
     AND p_notify THEN
    PERFORM pg_notify('webhook_deliveries', '');
  END IF;
  IF v_claim.key_id IS NOT NULL THEN
    UPDATE idempotency_keys SET refund_id = v_refund.id WHERE merchant_id = p_merchant_id AND id = v_claim.key_id;
  END IF;
  RETURN json_build_object('id', v_refund.id, 'replayed', false, 'refund', refund_json(v_refund),
                           'processor', v_payment.processor, 'processor_payment_id', v_payment.processor_payment_id);
END
$$;

-- A refund's settle (the simulator, the dashboard, the test helper, the operator), top to bottom: the one
-- transition `UPDATE … WHERE status = 'pending'` (concurrent settles give one); the payment's sums (a failed
-- refund gives its amount back to what is refundable); the payment's day's totals moved to its new refund
-- state (the merchant's row, then its customer's); a failed refund's money back on the available balance;
-- `refund.succeeded` or `refund.failed` with deliveries; then a succeeded refund's customer's refunded sum
-- and the day's refunded total; and the refunds list's day's counts, from pending to the outcome. The rows
-- are taken in the order every writer takes them. A processor's refund moves only on what its processor
-- answered (p_by_processor), a simulated one never by it. Returns the refund as the API shows it, or null
-- when it was no longer pending, is not the merchant's, or is not the caller's to move.
CREATE OR REPLACE FUNCTION settle_refund(p_merchant_id bigint, p_refund_id bigint, p_event_id text,
  p_outcome text, p_failure_reason text, p_notify boolean, p_by_processor boolean DEFAULT false) RETURNS json
LANGUAGE plpgsql AS $$
DECLARE
  v_now timestamptz := merchant_now(p_merchant_id);
  v_refund refunds;
  v_payment record;
  v_refunded_now numeric;
  v_before text;
  v_after text;
  v_scope text;
  v_scopes text[];
  v_state text;
  v_status text;
  v_count integer;
BEGIN
  UPDATE refunds SET status = p_outcome, failure_reason = p_failure_reason, settled_at = v_now, updated_at = v_now
  WHERE merchant_id = p_merchant_id AND id = p_refund_id AND status = 'pending'
    AND (processor = 'simulator') = NOT p_by_processor
  RETURNING * INTO v_refund;
  IF NOT FOUND THEN
    RETURN NULL;
  END IF;
  v_refunded_now := CASE WHEN v_refund.status = 'succeeded' THEN v_refund.amount ELSE 0 END;
  UPDATE payments SET amount_refund_pending = amount_refund_pending - v_refund.amount,
         amount_refunded = amount_refunded + v_refunded_now, updated_at = v_now
  WHERE merchant_id = p_merchant_id AND id = v_refund.payment_id
  RETURNING customer_id, created_at, status, amount, currency, amount_refunded INTO v_payment;
  v_scopes := CASE WHEN v_payment.customer_id <> '' THEN ARRAY['', v_payment.customer_id] ELSE ARRAY[''] END;

  v_before := refund_state(v_payment.amount_refunded - v_refunded_now, v_payment.amount);
  v_after := refund_state(v_payment.amount_refunded, v_payment.amount);
  IF v_before <> v_after THEN
    FOREACH v_scope IN ARRAY v_scopes LOOP
      -- Each scope's two rows in key order (refund_state), as every writer takes them.
      FOR v_state IN SELECT unnest(ARRAY[v_before, v_after]) ORDER BY 1 LOOP
        -- Worked out here, not in the INSERT (Citus deparses a CASE on a variable there wrongly).
        v_count := CASE WHEN v_state = v_after THEN 1 ELSE -1 END;
        INSERT INTO payment_daily_totals AS t (merchant_id, customer_id, day, status, refund_state, currency,
                                               count, volume)
        VALUES (p_merchant_id, v_scope, (v_payment.created_at AT TIME ZONE 'UTC')::date, v_payment.status, v_state,
                v_payment.currency, v_count, v_count * v_payment.amount)
        ON CONFLICT (merchant_id, customer_id, day, status, refund_state, currency)
          DO UPDATE SET count = t.count + excluded.count, volume = t.volume + excluded.volume;
      END LOOP;
    END LOOP;
  END IF;

  IF v_refund.status = 'failed' THEN
    PERFORM post_move(p_merchant_id, 'refund_failure', v_refund.id, v_refund.currency, v_refund.amount, 0, NULL,
                      ARRAY['available', 'clearing'], ARRAY[v_refund.amount, -v_refund.amount]);
  END IF;
  IF record_event(p_merchant_id, p_event_id, 'refund.' || v_refund.status, v_refund.payment_id,
                  refund_json(v_refund)) AND p_notify THEN
    PERFORM pg_notify('webhook_deliveries', '');
  END IF;

  IF v_refund.status = 'succeeded' THEN
    IF v_payment.customer_id <> '' THEN
      INSERT INTO customer_volumes AS c (merchant_id, customer_id, currency, refunded)
      VALUES (p_merchant_id, v_payment.customer_id, v_payment.currency, v_refund.amount)
      ON CONFLICT (merchant_id, customer_id, currency) DO UPDATE SET refunded = c.refunded + excluded.refunded;
    END IF;
    INSERT INTO refund_daily_totals AS t (merchant_id, day, currency, count, amount)
    VALUES (p_merchant_id, (v_now AT TIME ZONE 'UTC')::date, v_refund.currency, 1, v_refund.amount)
    ON CONFLICT (merchant_id, day, currency) DO UPDATE SET count = t.count + 1, amount = t.amount + excluded.amount;
  END IF;

  -- The refunds list's counts, from pending to the outcome: each scope's two rows in key order (status).
  FOREACH v_scope IN ARRAY CASE WHEN v_refund.customer_id <> '' THEN ARRAY['', v_refund.customer_id]
                                ELSE ARRAY[''] END LOOP
    FOR v_status IN SELECT unnest(ARRAY['pending', v_refund.status]) ORDER BY 1 LOOP
      v_count := CASE WHEN v_status = 'pending' THEN -1 ELSE 1 END;
      INSERT INTO refund_daily_counts AS t (merchant_id, customer_id, day, status, count)
      VALUES (p_merchant_id, v_scope, (v_refund.created_at AT TIME ZONE 'UTC')::date, v_status, v_count)
      ON CONFLICT (merchant_id, customer_id, day, status) DO UPDATE SET count = t.count + excluded.count;
    END LOOP;
  END LOOP;
  RETURN refund_json(v_refund);
END
$$;
