-- A refund's settle and a payout's creation and moves as one call each (DESIGN.md, "Citus: sharded by
-- merchant", "One call per write"), as migrations 0047 and 0048 made a payment's creation and settle and a
-- refund's creation. Two pieces they share become functions of their own: the claim of an Idempotency-Key,
-- and a balance transaction with its entries. create_payment and create_refund are made again with them.
-- A custom migration: functions.

-- The claim of an Idempotency-Key (DESIGN.md, "Idempotency"), first in a keyed write's transaction: a key
-- unused within its lifetime (its row older than p_key_cutoff) is claimed, and `key_id` names its row; a
-- concurrent duplicate waits on the key's unique index until the first commits. A key used before by the same
-- request gives `replay_id`, the object it made (`p_target`: the key's column that names it); by another request,
-- or one that made nothing, it is refused: SQLSTATE PA409.
CREATE OR REPLACE FUNCTION claim_idempotency_key(p_merchant_id bigint, p_key text, p_request_hash text,
  p_key_cutoff timestamptz, p_target text, OUT key_id bigint, OUT replay_id bigint)
LANGUAGE plpgsql AS $$
DECLARE
  v_used idempotency_keys;
BEGIN
  INSERT INTO idempotency_keys AS k (merchant_id, key, request_hash)
  VALUES (p_merchant_id, p_key, p_request_hash)
  ON CONFLICT (merchant_id, key) DO UPDATE
    SET request_hash = excluded.request_hash, payment_id = NULL, refund_id = NULL, payout_id = NULL,
        resource_id = NULL, created_at = excluded.created_at
    WHERE k.created_at < p_key_cutoff
  RETURNING id INTO key_id;
  IF key_id IS NOT NULL THEN
    RETURN;
  END IF;
  SELECT * INTO v_used FROM idempotency_keys WHERE merchant_id = p_merchant_id AND key = p_key;
  replay_id := CASE p_target WHEN 'payment_id' THEN v_used.payment_id WHEN 'refund_id' THEN v_used.refund_id
                             WHEN 'payout_id' THEN v_used.payout_id ELSE v_used.resource_id END;
  IF v_used.request_hash IS DISTINCT FROM p_request_hash OR replay_id IS NULL THEN
    RAISE EXCEPTION 'This Idempotency-Key was already used with a different request body.'
      USING ERRCODE = 'PA409';
  END IF;
END
$$;
--> statement-breakpoint
-- Entries of `p_posting` on a balance transaction, one per account, each added to its account's balance in one
-- of 8 slots, in account order (as every posting takes them: concurrent postings cannot deadlock). The amounts
-- sum to 0.
CREATE OR REPLACE FUNCTION enter_lines(p_merchant_id bigint, p_transaction_id bigint, p_posting text,
  p_currency text, p_accounts text[], p_amounts numeric[]) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  v_line record;
BEGIN
  FOR v_line IN SELECT account, amount FROM unnest(p_accounts, p_amounts) AS line (account, amount) ORDER BY 1 LOOP
    INSERT INTO ledger_entries (merchant_id, transaction_id, posting, account, currency, amount)
    VALUES (p_merchant_id, p_transaction_id, p_posting, v_line.account, p_currency, v_line.amount);
    INSERT INTO ledger_balances AS b (merchant_id, account, currency, slot, amount)
    VALUES (p_merchant_id, v_line.account, p_currency, floor(random() * 8)::smallint, v_line.amount)
    ON CONFLICT (merchant_id, account, currency, slot) DO UPDATE SET amount = b.amount + excluded.amount;
  END LOOP;
END
$$;
--> statement-breakpoint
-- Money on the available balance at once (a refund and its failure, a payout and its return, a dispute and its
-- reinstatement): a balance transaction of `p_type` for p_amount less p_fee, its entries (enter_lines: the
-- accounts and their amounts, summing to 0, the net on `available`), and its day's totals. `p_payout_id` marks it
-- carried by that payout. Returns its id.
CREATE OR REPLACE FUNCTION post_move(p_merchant_id bigint, p_type text, p_source_id bigint, p_currency text,
  p_amount numeric, p_fee numeric, p_payout_id bigint, p_accounts text[], p_amounts numeric[]) RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
  v_move record;
BEGIN
  INSERT INTO balance_transactions (merchant_id, type, source_id, currency, amount, fee, net, status, available_on,
                                    payout_id)
  VALUES (p_merchant_id, p_type, p_source_id, p_currency, p_amount, p_fee, p_amount - p_fee, 'available', now(),
          p_payout_id)
  RETURNING id, created_at INTO v_move;
  PERFORM enter_lines(p_merchant_id, v_move.id, 'post', p_currency, p_accounts, p_amounts);
  INSERT INTO balance_transaction_daily_totals AS d (merchant_id, day, type, currency, slot, count, amount, fee, net)
  VALUES (p_merchant_id, (v_move.created_at AT TIME ZONE 'UTC')::date, p_type, p_currency,
          floor(random() * 8)::smallint, 1, p_amount, p_fee, p_amount - p_fee)
  ON CONFLICT (merchant_id, day, type, currency, slot) DO UPDATE
    SET count = d.count + 1, amount = d.amount + excluded.amount, fee = d.fee + excluded.fee,
        net = d.net + excluded.net;
  RETURN v_move.id;
END
$$;
--> statement-breakpoint
-- create_payment of migration 0047, its key claimed by claim_idempotency_key; otherwise the same.
CREATE OR REPLACE FUNCTION create_payment(p_merchant_id bigint, p_event_id text, p_external_id text,
  p_customer_id text, p_amount numeric, p_currency text, p_metadata text, p_source text,
  p_auto_settle_ms integer, p_return_url text, p_payment_link_id bigint, p_checkout_hash text,
  p_checkout_ciphertext text, p_checkout_url text, p_notify boolean, p_idempotency_key text,
  p_request_hash text, p_key_cutoff timestamptz) RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
  v_key_id bigint;
  v_replay_id bigint;
  v_seq bigint;
  v_at timestamptz;
  v_payment payments;
BEGIN
  IF p_idempotency_key IS NOT NULL THEN
    SELECT key_id, replay_id INTO v_key_id, v_replay_id
    FROM claim_idempotency_key(p_merchant_id, p_idempotency_key, p_request_hash, p_key_cutoff, 'payment_id');
    IF v_replay_id IS NOT NULL THEN
      RETURN jsonb_build_object('id', v_replay_id, 'replayed', true);
    END IF;
  END IF;

  INSERT INTO payment_sequences AS s (merchant_id, payments_count, last_created_at)
  VALUES (p_merchant_id, 1, clock_timestamp())
  ON CONFLICT (merchant_id) DO UPDATE
    SET payments_count = s.payments_count + 1, last_created_at = greatest(excluded.last_created_at, s.last_created_at)
  RETURNING payments_count, last_created_at INTO v_seq, v_at;

  INSERT INTO payments (merchant_id, merchant_seq, external_id, customer_id, amount, currency, metadata, source,
                        settle_at, created_at, updated_at)
  VALUES (p_merchant_id, v_seq, p_external_id, p_customer_id, p_amount, p_currency, p_metadata, p_source,
          CASE WHEN p_auto_settle_ms > 0 THEN v_at + p_auto_settle_ms * interval '1 millisecond' END, v_at, v_at)
  RETURNING * INTO v_payment;

  IF p_customer_id <> '' THEN
    INSERT INTO customers AS c (merchant_id, customer_id, payments_count, first_payment_at, last_payment_at)
    VALUES (p_merchant_id, p_customer_id, 1, v_payment.created_at, v_payment.created_at)
    ON CONFLICT (merchant_id, customer_id) DO UPDATE
      SET payments_count = c.payments_count + 1, last_payment_at = excluded.last_payment_at;
  END IF;

  INSERT INTO checkouts (payment_id, merchant_id, token_hash, token_ciphertext, return_url, payment_link_id,
                         created_at)
  VALUES (v_payment.id, p_merchant_id, p_checkout_hash, p_checkout_ciphertext, p_return_url, p_payment_link_id,
          v_payment.created_at);

  -- Its count in its day's pending totals: the merchant's, then its customer's (key order: no deadlock).
  INSERT INTO payment_daily_totals AS t (merchant_id, customer_id, day, status, currency, count, volume)
  VALUES (p_merchant_id, '', (v_payment.created_at AT TIME ZONE 'UTC')::date, 'pending', p_currency, 1, p_amount)
  ON CONFLICT (merchant_id, customer_id, day, status, refund_state, currency)
    DO UPDATE SET count = t.count + 1, volume = t.volume + excluded.volume;
  IF p_customer_id <> '' THEN
    INSERT INTO payment_daily_totals AS t (merchant_id, customer_id, day, status, currency, count, volume)
    VALUES (p_merchant_id, p_customer_id, (v_payment.created_at AT TIME ZONE 'UTC')::date, 'pending', p_currency, 1,
            p_amount)
    ON CONFLICT (merchant_id, customer_id, day, status, refund_state, currency)
      DO UPDATE SET count = t.count + 1, volume = t.volume + excluded.volume;
  END IF;

  IF record_event(p_merchant_id, p_event_id, 'payment.pending', v_payment.id,
                  payment_json(v_payment, p_checkout_url)) AND p_notify THEN
    PERFORM pg_notify('webhook_deliveries', '');
  END IF;

  IF v_key_id IS NOT NULL THEN
    UPDATE idempotency_keys SET payment_id = v_payment.id WHERE merchant_id = p_merchant_id AND id = v_key_id;
  END IF;
  RETURN jsonb_build_object('id', v_payment.id, 'replayed', false);
END
$$;
--> statement-breakpoint
-- create_refund of migration 0048, its key claimed by claim_idempotency_key and its money moved by
-- post_move; otherwise the same.
CREATE OR REPLACE FUNCTION create_refund(p_merchant_id bigint, p_payment_id bigint, p_event_id text,
  p_amount numeric, p_reason text, p_external_id text, p_auto_settle_ms integer, p_notify boolean,
  p_idempotency_key text, p_request_hash text, p_key_cutoff timestamptz) RETURNS json
LANGUAGE plpgsql AS $$
DECLARE
  v_key_id bigint;
  v_replay_id bigint;
  v_payment record;
  v_amount numeric;
  v_refund refunds;
  v_settle_at timestamptz;
BEGIN
  IF p_idempotency_key IS NOT NULL THEN
    SELECT key_id, replay_id INTO v_key_id, v_replay_id
    FROM claim_idempotency_key(p_merchant_id, p_idempotency_key, p_request_hash, p_key_cutoff, 'refund_id');
    IF v_replay_id IS NOT NULL THEN
      RETURN json_build_object('id', v_replay_id, 'replayed', true);
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
  PERFORM post_move(p_merchant_id, 'refund', v_refund.id, v_refund.currency, -v_amount, 0, NULL,
                    ARRAY['available', 'clearing'], ARRAY[-v_amount, v_amount]);

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
--> statement-breakpoint
-- A payment's refund state (REFUND_STATES) once `refunded` of its `amount` has been given back.
CREATE OR REPLACE FUNCTION refund_state(refunded numeric, amount numeric) RETURNS text
LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN refunded = 0 THEN 'none' WHEN refunded < amount THEN 'partial' ELSE 'full' END
$$;
--> statement-breakpoint
-- A refund's settle (the simulator, the dashboard, the test helper, the operator), top to bottom: the one
-- transition `UPDATE … WHERE status = 'pending'` (concurrent settles give one); the payment's sums (a failed
-- refund gives its amount back to what is refundable); the payment's day's totals moved to its new refund
-- state (the merchant's row, then its customer's); a failed refund's money back on the available balance;
-- `refund.succeeded` or `refund.failed` with deliveries; then a succeeded refund's customer's refunded sum
-- and the day's refunded total; and the refunds list's day's counts, from pending to the outcome. The rows
-- are taken in the order every writer takes them. Returns the refund as the API shows it, or null when it
-- was no longer pending or is not the merchant's.
CREATE OR REPLACE FUNCTION settle_refund(p_merchant_id bigint, p_refund_id bigint, p_event_id text,
  p_outcome text, p_failure_reason text, p_notify boolean) RETURNS json
LANGUAGE plpgsql AS $$
DECLARE
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
  UPDATE refunds SET status = p_outcome, failure_reason = p_failure_reason, settled_at = now(), updated_at = now()
  WHERE merchant_id = p_merchant_id AND id = p_refund_id AND status = 'pending'
  RETURNING * INTO v_refund;
  IF NOT FOUND THEN
    RETURN NULL;
  END IF;
  v_refunded_now := CASE WHEN v_refund.status = 'succeeded' THEN v_refund.amount ELSE 0 END;
  UPDATE payments SET amount_refund_pending = amount_refund_pending - v_refund.amount,
         amount_refunded = amount_refunded + v_refunded_now, updated_at = now()
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
    VALUES (p_merchant_id, (now() AT TIME ZONE 'UTC')::date, v_refund.currency, 1, v_refund.amount)
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
--> statement-breakpoint
-- A payout as the API shows it (toPayout's keys, in its order), for its events and the functions' answers.
CREATE OR REPLACE FUNCTION payout_json(p payouts) RETURNS json
LANGUAGE sql IMMUTABLE AS $$
  SELECT json_build_object('id', p.id, 'amount', round(p.amount, minor_units(p.currency))::text,
    'currency', p.currency, 'status', p.status, 'arrival_date', to_char(p.arrival_date, 'YYYY-MM-DD'),
    'destination_last4', p.destination_last4, 'failure_reason', p.failure_reason,
    'created_at', to_char(p.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
$$;
--> statement-breakpoint
-- POST /api/payouts and the scheduler: the whole payout, top to bottom. The key's claim first (a replay returns
-- {payout, replayed: true}, the payout as it is now). Then the payout account's row lock: payouts of one
-- merchant are made one at a time, so the check against the available balance holds. A refusal raises SQLSTATE
-- PA422 with the field as its message and the reason as its detail (no_account, errored: the account's failure
-- reason; exceeds, nothing: the balance it was held to), the key's claim undone with everything else. A payout
-- of all that is available (p_amount null; p_max_amount at most, DESIGN.md "Largest payout") carries the
-- available transactions no payout has carried and is their sum; one of part carries none. Then its money from
-- available to in transit (a payout of all carries its own debit too), and `payout.created` with deliveries.
-- p_destination_last4 and p_destination_closed are the caller's reading of the account's IBAN (encrypted: the
-- database cannot read it).
CREATE OR REPLACE FUNCTION create_payout(p_merchant_id bigint, p_event_id text, p_currency text, p_amount numeric,
  p_max_amount numeric, p_destination_last4 text, p_destination_closed boolean, p_auto_settle_ms integer,
  p_notify boolean, p_idempotency_key text, p_request_hash text, p_key_cutoff timestamptz) RETURNS json
LANGUAGE plpgsql AS $$
DECLARE
  v_key_id bigint;
  v_replay_id bigint;
  v_account record;
  v_available numeric;
  v_places integer := minor_units(p_currency);
  v_whole boolean;
  v_move_at timestamptz;
  v_payout payouts;
  v_carried numeric;
BEGIN
  IF p_idempotency_key IS NOT NULL THEN
    SELECT key_id, replay_id INTO v_key_id, v_replay_id
    FROM claim_idempotency_key(p_merchant_id, p_idempotency_key, p_request_hash, p_key_cutoff, 'payout_id');
    IF v_replay_id IS NOT NULL THEN
      SELECT * INTO v_payout FROM payouts WHERE merchant_id = p_merchant_id AND id = v_replay_id;
      RETURN json_build_object('replayed', true, 'payout', payout_json(v_payout));
    END IF;
  END IF;

  SELECT status, failure_reason INTO v_account FROM payout_accounts WHERE merchant_id = p_merchant_id FOR UPDATE;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'payout_account' USING ERRCODE = 'PA422', DETAIL = 'no_account';
  ELSIF v_account.status = 'errored' THEN
    RAISE EXCEPTION 'payout_account' USING ERRCODE = 'PA422', DETAIL = 'errored',
      HINT = coalesce(v_account.failure_reason, '');
  END IF;
  SELECT coalesce(sum(amount), 0) INTO v_available FROM ledger_balances
  WHERE merchant_id = p_merchant_id AND account = 'available' AND currency = p_currency;
  IF p_amount > v_available THEN
    RAISE EXCEPTION 'amount' USING ERRCODE = 'PA422', DETAIL = 'exceeds', HINT = v_available::text;
  ELSIF p_amount IS NULL AND v_available <= 0 THEN
    RAISE EXCEPTION 'amount' USING ERRCODE = 'PA422', DETAIL = 'nothing', HINT = v_available::text;
  END IF;
  -- All of it, or exactly what is available, is a whole payout; all of it above the largest amount is not.
  v_whole := round(coalesce(p_amount, least(v_available, p_max_amount)), v_places) = round(v_available, v_places);

  v_move_at := CASE WHEN p_auto_settle_ms > 0 THEN now() + p_auto_settle_ms * interval '1 millisecond' END;
  INSERT INTO payouts (merchant_id, currency, amount, arrival_date, destination_last4, destination_closed,
                       reconciled, move_at)
  VALUES (p_merchant_id, p_currency, coalesce(p_amount, least(v_available, p_max_amount)),
          (now() AT TIME ZONE 'UTC')::date + 1, p_destination_last4, p_destination_closed, v_whole, v_move_at)
  RETURNING * INTO v_payout;

  IF v_whole THEN
    -- What it pays out: every available transaction no payout has carried; together they are the balance.
    -- A release committed since the balance was read is carried too, so the amount is their sum.
    UPDATE balance_transactions SET payout_id = v_payout.id
    WHERE merchant_id = p_merchant_id AND currency = p_currency AND status = 'available' AND payout_id IS NULL;
    SELECT coalesce(sum(net), 0) INTO v_carried FROM balance_transactions
    WHERE merchant_id = p_merchant_id AND payout_id = v_payout.id;
    -- What it would carry is the balance now (a refund may have taken it below 0 since it was read).
    IF v_carried <= 0 THEN
      RAISE EXCEPTION 'amount' USING ERRCODE = 'PA422', DETAIL = 'nothing', HINT = v_carried::text;
    END IF;
    UPDATE payouts SET amount = v_carried WHERE merchant_id = p_merchant_id AND id = v_payout.id
    RETURNING * INTO v_payout;
  END IF;

  -- A payout of all of it is reconciled: its own debit is marked too, so no later payout carries it. One of
  -- part of it leaves its debit to the next payout of all, whose transactions then add up to that one.
  PERFORM post_move(p_merchant_id, 'payout', v_payout.id, p_currency, -v_payout.amount, 0,
                    CASE WHEN v_whole THEN v_payout.id END, ARRAY['available', 'in_transit'],
                    ARRAY[-v_payout.amount, v_payout.amount]);
  IF record_event(p_merchant_id, p_event_id, 'payout.created', NULL, payout_json(v_payout)) AND p_notify THEN
    PERFORM pg_notify('webhook_deliveries', '');
  END IF;
  IF v_key_id IS NOT NULL THEN
    UPDATE idempotency_keys SET payout_id = v_payout.id WHERE merchant_id = p_merchant_id AND id = v_key_id;
  END IF;
  RETURN json_build_object('replayed', false, 'payout', payout_json(v_payout));
END
$$;
--> statement-breakpoint
-- A payout's step (the simulator, the test helper, a cancel), top to bottom: from one of `p_from` to `p_to`
-- (null: as the simulator would, failed when its account is closed, else paid). To in transit, only its next
-- step's time. To its end: a failed payout's account errored (unless replaced since the payout left); the money
-- that arrives (in transit to the bank, on its own balance transaction) or comes back (in transit to
-- available, a new one); and `payout.paid`, `payout.failed` or `payout.canceled` with deliveries. Returns the
-- payout as the API shows it, or null when it was not in `p_from` (or is not the merchant's).
CREATE OR REPLACE FUNCTION move_payout(p_merchant_id bigint, p_payout_id bigint, p_event_id text, p_from text[],
  p_to text, p_failure_reason text, p_next_move_ms integer, p_notify boolean) RETURNS json
LANGUAGE plpgsql AS $$
DECLARE
  v_payout payouts;
  v_to text;
  v_reason text;
  v_move_at timestamptz;
  v_move_id bigint;
BEGIN
  SELECT * INTO v_payout FROM payouts
  WHERE merchant_id = p_merchant_id AND id = p_payout_id AND status = ANY (p_from) FOR UPDATE;
  IF NOT FOUND THEN
    RETURN NULL;
  END IF;
  v_to := coalesce(p_to, CASE WHEN v_payout.destination_closed THEN 'failed' ELSE 'paid' END);
  v_reason := CASE WHEN v_to = 'failed' THEN p_failure_reason END;
  v_move_at := CASE WHEN v_to = 'in_transit' AND p_next_move_ms > 0
                    THEN now() + p_next_move_ms * interval '1 millisecond' END;
  UPDATE payouts SET status = v_to, failure_reason = v_reason, updated_at = now(), move_at = v_move_at
  WHERE merchant_id = p_merchant_id AND id = p_payout_id
  RETURNING * INTO v_payout;
  IF v_to = 'in_transit' THEN
    RETURN payout_json(v_payout);
  END IF;

  IF v_to = 'failed' THEN
    UPDATE payout_accounts SET status = 'errored', failure_reason = v_reason
    WHERE merchant_id = p_merchant_id AND updated_at <= v_payout.created_at;
  END IF;
  IF v_to = 'paid' THEN
    SELECT id INTO v_move_id FROM balance_transactions
    WHERE merchant_id = p_merchant_id AND source_id = v_payout.id AND type = 'payout';
    PERFORM enter_lines(p_merchant_id, v_move_id, 'arrive', v_payout.currency, ARRAY['in_transit', 'bank'],
                        ARRAY[-v_payout.amount, v_payout.amount]);
  ELSE
    PERFORM post_move(p_merchant_id, 'payout_failure', v_payout.id, v_payout.currency, v_payout.amount, 0, NULL,
                      ARRAY['available', 'in_transit'], ARRAY[v_payout.amount, -v_payout.amount]);
  END IF;
  IF record_event(p_merchant_id, p_event_id, 'payout.' || v_to, NULL, payout_json(v_payout)) AND p_notify THEN
    PERFORM pg_notify('webhook_deliveries', '');
  END IF;
  RETURN payout_json(v_payout);
END
$$;
