-- A payment's creation and settle, and what they share: its JSON and its fee.
-- The current text of each function: applied after the migrations whenever this file changes (db/function-files.ts).

-- A payment as the API shows it (toPaymentResource's keys, in its order), for the events these functions write.
-- Amounts are stored in exactly their currency's minor units, so their text is the resource's.
CREATE OR REPLACE FUNCTION payment_json(p payments, checkout_url text) RETURNS json
LANGUAGE sql IMMUTABLE AS $$
  SELECT json_build_object('id', p.id, 'external_id', p.external_id, 'type', 'payment',
    'status', p.status, 'amount', p.amount::text, 'currency', p.currency, 'metadata', p.metadata,
    'customer_id', p.customer_id,
    'created_at', to_char(p.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    'checkout_url', checkout_url, 'payment_method', p.payment_method,
    'failure_code', p.failure_code, 'failure_reason', p.failure_reason,
    'fee', p.fee::text, 'net', p.net::text, 'processor', p.processor,
    'processor_payment_id', p.processor_payment_id)
$$;

-- A completed payment's fee: percent of the amount plus a fixed count of minor units, rounded half up to the
-- currency's minor unit, numeric throughout; a payment of 0 moved nothing and costs nothing.
CREATE OR REPLACE FUNCTION payment_fee(amount numeric, currency text, percent numeric, fixed_minor_units numeric)
RETURNS numeric
LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN amount = 0 THEN 0
    ELSE round(amount * percent / 100 + fixed_minor_units * power(10::numeric, -minor_units(currency)),
               minor_units(currency)) END
$$;

-- POST /api/payments, the dashboard's test payments, the CLI and payment links: the whole creation, read top
-- to bottom as the transaction it is. With an Idempotency-Key, the key is claimed first (claim_idempotency_key:
-- a replay returns {id, replayed: true}, another request with the key is refused, SQLSTATE PA409). The
-- merchant's payment_sequences row lock then orders creations: the payment's dense sequence number, and a
-- created_at never before the previous payment's. A payment made at a processor names it and its id there, and
-- its checkout is the processor's hosted page (p_hosted_url_ciphertext). Returns {id, replayed}.
CREATE OR REPLACE FUNCTION create_payment(p_merchant_id bigint, p_event_id text, p_external_id text,
  p_customer_id text, p_amount numeric, p_currency text, p_metadata text, p_source text,
  p_auto_settle_ms integer, p_return_url text, p_payment_link_id bigint, p_checkout_hash text,
  p_checkout_ciphertext text, p_checkout_url text, p_notify boolean, p_idempotency_key text,
  p_request_hash text, p_key_cutoff timestamptz, p_processor text, p_processor_payment_id text,
  p_hosted_url_ciphertext text) RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
  -- The key's claim comes first, before anything is written.
  v_claim record := claim_idempotency_key(p_merchant_id, p_idempotency_key, p_request_hash, p_key_cutoff, 'payment_id');
  v_seq bigint;
  v_at timestamptz;
  v_payment payments;
  -- A sandbox's test clock, else null: made at the clock's time, else now. (Read apart: Citus takes no subquery
  -- in an INSERT.)
  v_clock timestamptz := (SELECT clock_at FROM merchants WHERE id = p_merchant_id);
BEGIN
  IF v_claim.replay_id IS NOT NULL THEN RETURN jsonb_build_object('id', v_claim.replay_id, 'replayed', true); END IF;

  INSERT INTO payment_sequences AS s (merchant_id, payments_count, last_created_at)
  VALUES (p_merchant_id, 1, coalesce(v_clock, clock_timestamp()))
  ON CONFLICT (merchant_id) DO UPDATE
    SET payments_count = s.payments_count + 1, last_created_at = greatest(excluded.last_created_at, s.last_created_at)
  RETURNING payments_count, last_created_at INTO v_seq, v_at;

  INSERT INTO payments (merchant_id, merchant_seq, external_id, customer_id, amount, currency, metadata, source,
                        settle_at, processor, processor_payment_id, created_at, updated_at)
  VALUES (p_merchant_id, v_seq, p_external_id, p_customer_id, p_amount, p_currency, p_metadata, p_source,
          CASE WHEN p_auto_settle_ms > 0 THEN v_at + p_auto_settle_ms * interval '1 millisecond' END, p_processor,
          p_processor_payment_id, v_at, v_at)
  RETURNING * INTO v_payment;

  IF p_customer_id <> '' THEN
    INSERT INTO customers AS c (merchant_id, customer_id, payments_count, first_payment_at, last_payment_at)
    VALUES (p_merchant_id, p_customer_id, 1, v_payment.created_at, v_payment.created_at)
    ON CONFLICT (merchant_id, customer_id) DO UPDATE
      SET payments_count = c.payments_count + 1, last_payment_at = excluded.last_payment_at;
  END IF;

  INSERT INTO checkouts (payment_id, merchant_id, token_hash, token_ciphertext, hosted_url_ciphertext, return_url,
                         payment_link_id, created_at)
  VALUES (v_payment.id, p_merchant_id, p_checkout_hash, p_checkout_ciphertext, p_hosted_url_ciphertext, p_return_url,
          p_payment_link_id, v_payment.created_at);

  -- Its count in its day's pending totals, in one statement: the merchant's, then its customer's (key order: no
  -- deadlock).
  IF p_customer_id <> '' THEN
    INSERT INTO payment_daily_totals AS t (merchant_id, customer_id, day, status, currency, count, volume)
    VALUES (p_merchant_id, '', (v_payment.created_at AT TIME ZONE 'UTC')::date, 'pending', p_currency, 1, p_amount),
           (p_merchant_id, p_customer_id, (v_payment.created_at AT TIME ZONE 'UTC')::date, 'pending', p_currency, 1,
            p_amount)
    ON CONFLICT (merchant_id, customer_id, day, status, refund_state, currency)
      DO UPDATE SET count = t.count + 1, volume = t.volume + excluded.volume;
  ELSE
    INSERT INTO payment_daily_totals AS t (merchant_id, customer_id, day, status, currency, count, volume)
    VALUES (p_merchant_id, '', (v_payment.created_at AT TIME ZONE 'UTC')::date, 'pending', p_currency, 1, p_amount)
    ON CONFLICT (merchant_id, customer_id, day, status, refund_state, currency)
      DO UPDATE SET count = t.count + 1, volume = t.volume + excluded.volume;
  END IF;

  IF record_event(p_merchant_id, p_event_id, 'payment.pending', v_payment.id,
                  payment_json(v_payment, p_checkout_url)) AND p_notify THEN
    PERFORM pg_notify('webhook_deliveries', '');
  END IF;

  IF v_claim.key_id IS NOT NULL THEN
    UPDATE idempotency_keys SET payment_id = v_payment.id WHERE merchant_id = p_merchant_id AND id = v_claim.key_id;
  END IF;
  RETURN jsonb_build_object('id', v_payment.id, 'replayed', false);
END
$$;

-- A settle of one payment (the test helper, the dashboard's mark paid or failed, a cancel), read top to bottom as
-- the transaction it is: the one transition `UPDATE … WHERE status = 'pending'` (concurrent settles give one),
-- at the merchant's price; a completed payment's money on the ledger (a balance transaction naming the payment,
-- its order and its customer; its three entries and the balances, each account in one of 8 slots, in account
-- order); its event with deliveries; then its day's totals (pending to its outcome, the merchant's then its
-- customer's) and its customer's volume. The rows are locked in the settler's order (payment, ledger, event
-- count, day's totals, customer), so two settles cannot wait on each other in a cycle. Returns the payment as it
-- is now (its columns), or null when it was no longer pending or is not the merchant's. A processor's payment
-- (DESIGN.md, "Processors") moves only on what its processor answered (p_by_processor), never by hand, a test
-- helper or this platform's checkout, and carries the fee the processor reports (p_processor_fee), not the price.
CREATE OR REPLACE FUNCTION settle_payment(p_merchant_id bigint, p_payment_id bigint, p_event_id text,
  p_outcome text, p_failure_code text, p_failure_reason text, p_payment_method json, p_available_after_ms bigint,
  p_notify boolean, p_processor_fee numeric DEFAULT NULL, p_by_processor boolean DEFAULT false) RETURNS json
LANGUAGE plpgsql AS $$
DECLARE
  v_percent numeric;
  v_fixed numeric;
  v_payment payments;
  v_move record;
  v_day date;
  v_now timestamptz;
BEGIN
  SELECT fee_percent, fee_fixed, coalesce(clock_at, now()) INTO v_percent, v_fixed, v_now
  FROM merchants WHERE id = p_merchant_id;
  UPDATE payments p
  SET status = p_outcome, failure_reason = p_failure_reason, failure_code = p_failure_code, settled_at = v_now,
      updated_at = v_now, payment_method = coalesce(p_payment_method, p.payment_method),
      fee = CASE WHEN p_outcome = 'completed'
                 THEN coalesce(p_processor_fee, payment_fee(p.amount, p.currency, v_percent, v_fixed)) END,
      net = CASE WHEN p_outcome = 'completed'
                 THEN p.amount - coalesce(p_processor_fee, payment_fee(p.amount, p.currency, v_percent, v_fixed)) END
  WHERE p.merchant_id = p_merchant_id AND p.id = p_payment_id AND p.status = 'pending'
    AND (p.processor = 'simulator') = NOT p_by_processor
  RETURNING * INTO v_payment;
  IF NOT FOUND THEN
    RETURN NULL;
  END IF;

  -- The money: the processor owes the amount (clearing), the fee is the platform's, the net the merchant's,
  -- pending until completion + BALANCE_AVAILABLE_AFTER (available at once when that is 0).
  IF v_payment.status = 'completed' AND v_payment.amount <> 0 THEN
    INSERT INTO balance_transactions (merchant_id, type, source_id, payment_id, external_id, customer_id, currency,
                                      amount, fee, net, status, available_on, created_at)
    VALUES (p_merchant_id, 'payment', v_payment.id, v_payment.id, v_payment.external_id, v_payment.customer_id,
            v_payment.currency, v_payment.amount, v_payment.fee, v_payment.net,
            CASE WHEN p_available_after_ms = 0 THEN 'available' ELSE 'pending' END,
            v_now + p_available_after_ms * interval '1 millisecond', v_now)
    RETURNING id, status, created_at, available_on INTO v_move;
    INSERT INTO ledger_entries (merchant_id, transaction_id, posting, account, currency, amount)
    VALUES (p_merchant_id, v_move.id, 'post', 'clearing', v_payment.currency, -v_payment.amount),
           (p_merchant_id, v_move.id, 'post', 'fees', v_payment.currency, v_payment.fee),
           (p_merchant_id, v_move.id, 'post', v_move.status, v_payment.currency, v_payment.net);
    -- One statement, its rows in account order (available, clearing, fees, pending), as every posting takes
    -- them: a row of its own each would be a statement each, which Citus plans and runs apart.
    IF v_move.status = 'available' THEN
      INSERT INTO ledger_balances AS b (merchant_id, account, currency, slot, amount)
      VALUES (p_merchant_id, 'available', v_payment.currency, floor(random() * 8)::smallint, v_payment.net),
             (p_merchant_id, 'clearing', v_payment.currency, floor(random() * 8)::smallint, -v_payment.amount),
             (p_merchant_id, 'fees', v_payment.currency, floor(random() * 8)::smallint, v_payment.fee)
      ON CONFLICT (merchant_id, account, currency, slot) DO UPDATE SET amount = b.amount + excluded.amount;
    ELSE
      INSERT INTO ledger_balances AS b (merchant_id, account, currency, slot, amount)
      VALUES (p_merchant_id, 'clearing', v_payment.currency, floor(random() * 8)::smallint, -v_payment.amount),
             (p_merchant_id, 'fees', v_payment.currency, floor(random() * 8)::smallint, v_payment.fee),
             (p_merchant_id, 'pending', v_payment.currency, floor(random() * 8)::smallint, v_payment.net)
      ON CONFLICT (merchant_id, account, currency, slot) DO UPDATE SET amount = b.amount + excluded.amount;
    END IF;
    PERFORM count_balance_transaction(p_merchant_id, 'payment', v_payment.currency, v_move.created_at,
                                      v_move.available_on, v_payment.amount, v_payment.fee, v_payment.net);
  END IF;

  IF record_event(p_merchant_id, p_event_id, 'payment.' || v_payment.status, v_payment.id,
                  payment_json(v_payment, NULL)) AND p_notify THEN
    PERFORM pg_notify('webhook_deliveries', '');
  END IF;

  -- From its day's pending totals to its outcome's, in one statement: the merchant's rows, then its customer's;
  -- in each, the outcome's row before pending's (key order).
  v_day := (v_payment.created_at AT TIME ZONE 'UTC')::date;
  IF v_payment.customer_id <> '' THEN
    INSERT INTO payment_daily_totals AS t (merchant_id, customer_id, day, status, currency, count, volume)
    VALUES (p_merchant_id, '', v_day, v_payment.status, v_payment.currency, 1, v_payment.amount),
           (p_merchant_id, '', v_day, 'pending', v_payment.currency, -1, -v_payment.amount),
           (p_merchant_id, v_payment.customer_id, v_day, v_payment.status, v_payment.currency, 1, v_payment.amount),
           (p_merchant_id, v_payment.customer_id, v_day, 'pending', v_payment.currency, -1, -v_payment.amount)
    ON CONFLICT (merchant_id, customer_id, day, status, refund_state, currency)
      DO UPDATE SET count = t.count + excluded.count, volume = t.volume + excluded.volume;
  ELSE
    INSERT INTO payment_daily_totals AS t (merchant_id, customer_id, day, status, currency, count, volume)
    VALUES (p_merchant_id, '', v_day, v_payment.status, v_payment.currency, 1, v_payment.amount),
           (p_merchant_id, '', v_day, 'pending', v_payment.currency, -1, -v_payment.amount)
    ON CONFLICT (merchant_id, customer_id, day, status, refund_state, currency)
      DO UPDATE SET count = t.count + excluded.count, volume = t.volume + excluded.volume;
  END IF;
  IF v_payment.status = 'completed' AND v_payment.customer_id <> '' THEN
    INSERT INTO customer_volumes AS c (merchant_id, customer_id, currency, completed)
    VALUES (p_merchant_id, v_payment.customer_id, v_payment.currency, v_payment.amount)
    ON CONFLICT (merchant_id, customer_id, currency) DO UPDATE SET completed = c.completed + excluded.completed;
  END IF;
  -- Amounts as text: a JSON number would reach the application as a float.
  RETURN json_build_object('id', v_payment.id, 'merchant_id', v_payment.merchant_id,
    'external_id', v_payment.external_id, 'status', v_payment.status, 'amount', v_payment.amount::text,
    'currency', v_payment.currency, 'metadata', v_payment.metadata, 'created_at', v_payment.created_at,
    'payment_method', v_payment.payment_method, 'customer_id', v_payment.customer_id,
    'failure_code', v_payment.failure_code, 'failure_reason', v_payment.failure_reason,
    'fee', v_payment.fee::text, 'net', v_payment.net::text, 'processor', v_payment.processor,
    'processor_payment_id', v_payment.processor_payment_id, 'settled_at', v_payment.settled_at);
END
$$;
