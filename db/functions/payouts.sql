-- A payout's creation and its moves, and its JSON.
-- The current text of each function: applied after the migrations whenever this file changes (db/function-files.ts).

-- A payout as the API shows it (toPayout's keys, in its order), for its events and the functions' answers.
CREATE OR REPLACE FUNCTION payout_json(p payouts) RETURNS json
LANGUAGE sql IMMUTABLE AS $$
  SELECT json_build_object('id', p.id, 'amount', round(p.amount, minor_units(p.currency))::text,
    'currency', p.currency, 'status', p.status, 'arrival_date', to_char(p.arrival_date, 'YYYY-MM-DD'),
    'destination_last4', p.destination_last4, 'failure_reason', p.failure_reason,
    'created_at', to_char(p.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
$$;

-- POST /api/payouts and the scheduler: the whole payout, top to bottom. The key's claim first (a replay returns
-- {payout, replayed: true}, the payout as it is now). Then the payout account's row lock: payouts of one
-- merchant are made one at a time, so the check against the available balance holds. A refusal raises SQLSTATE
-- PA422 with the field as its message and the reason as its detail (no_account, errored: the account's failure
-- reason; held: while the account's hold runs, PAYOUT_ACCOUNT_CHANGE_HOLD after it was replaced, until when;
-- exceeds, nothing: the balance it was held to), the key's claim undone with everything else. A payout
-- of all that is available (p_amount null; p_max_amount at most, DESIGN.md "Largest payout") carries the
-- available transactions no payout has carried and is their sum; one of part carries the oldest of them until
-- they reach its amount, and what the last brought past it goes on to the next payout: a `carried_forward` it
-- carries and a `brought_forward` it leaves, which net to nothing (DESIGN.md, "Payout reconciliation"). Either
-- way what it carried adds up to its amount. Then what it paid by type (payout_type_totals: a failed payout's
-- return counts as that payout's lines), its money from available to in transit (it carries its own debit
-- too), and `payout.created` with deliveries.
-- p_destination_last4 and p_destination_closed are the caller's reading of the account's IBAN (encrypted: the
-- database cannot read it).
CREATE OR REPLACE FUNCTION create_payout(p_merchant_id bigint, p_event_id text, p_currency text, p_amount numeric,
  p_max_amount numeric, p_destination_last4 text, p_destination_closed boolean, p_auto_settle_ms integer,
  p_notify boolean, p_idempotency_key text, p_request_hash text, p_key_cutoff timestamptz) RETURNS json
LANGUAGE plpgsql AS $$
DECLARE
  v_now timestamptz := merchant_now(p_merchant_id);
  v_places integer := minor_units(p_currency);
  v_move_at timestamptz := CASE WHEN p_auto_settle_ms > 0 THEN v_now + p_auto_settle_ms * interval '1 millisecond' END;
  v_claim record := claim_idempotency_key(p_merchant_id, p_idempotency_key, p_request_hash, p_key_cutoff, 'payout_id');
  v_account record;
  v_available numeric;
  v_whole boolean;
  v_payout payouts;
  v_carried numeric;
  v_forward numeric;
BEGIN
  IF v_claim.replay_id IS NOT NULL THEN
    SELECT * INTO v_payout FROM payouts WHERE merchant_id = p_merchant_id AND id = v_claim.replay_id;
    RETURN json_build_object('replayed', true, 'payout', payout_json(v_payout));
  END IF;

  SELECT status, failure_reason, payouts_start_at INTO v_account FROM payout_accounts WHERE merchant_id = p_merchant_id FOR UPDATE;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'payout_account' USING ERRCODE = 'PA422', DETAIL = 'no_account';
  ELSIF v_account.status = 'errored' THEN
    RAISE EXCEPTION 'payout_account' USING ERRCODE = 'PA422', DETAIL = 'errored',
      HINT = coalesce(v_account.failure_reason, '');
  ELSIF v_account.payouts_start_at > v_now THEN
    -- Replaced lately: payouts wait until the hold ends (the hint is when, for the refusal's message).
    RAISE EXCEPTION 'payout_account' USING ERRCODE = 'PA422', DETAIL = 'held',
      HINT = to_char(v_account.payouts_start_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"');
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

  INSERT INTO payouts (merchant_id, currency, amount, arrival_date, destination_last4, destination_closed,
                       reconciled, move_at, created_at, updated_at)
  VALUES (p_merchant_id, p_currency, coalesce(p_amount, least(v_available, p_max_amount)),
          (v_now AT TIME ZONE 'UTC')::date + 1, p_destination_last4, p_destination_closed, true, v_move_at,
          v_now, v_now)
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
  ELSE
    -- The oldest, up to and with the one that brings them to the amount.
    WITH unpaid AS (
      SELECT id, row_number() OVER w AS n, sum(net) OVER w AS reached
      FROM balance_transactions
      WHERE merchant_id = p_merchant_id AND currency = p_currency AND status = 'available' AND payout_id IS NULL
      WINDOW w AS (ORDER BY created_at, id)),
    last AS (SELECT coalesce(min(n) FILTER (WHERE reached >= v_payout.amount), max(n)) AS n FROM unpaid)
    UPDATE balance_transactions b SET payout_id = v_payout.id
    FROM unpaid, last
    WHERE b.merchant_id = p_merchant_id AND b.id = unpaid.id AND unpaid.n <= last.n;
    SELECT coalesce(sum(net), 0) - v_payout.amount INTO v_forward FROM balance_transactions
    WHERE merchant_id = p_merchant_id AND payout_id = v_payout.id;
    IF v_forward <> 0 THEN
      PERFORM post_move(p_merchant_id, 'carried_forward', v_payout.id, p_currency, -v_forward, 0, v_payout.id,
                        ARRAY['available', 'forward'], ARRAY[-v_forward, v_forward]);
      PERFORM post_move(p_merchant_id, 'brought_forward', v_payout.id, p_currency, v_forward, 0, NULL,
                        ARRAY['available', 'forward'], ARRAY[v_forward, -v_forward]);
    END IF;
  END IF;

  -- Its lines by type, adding up to its amount. A failed payout's return is what that payout paid (its own
  -- lines, recorded when it was made); one made before these lines were kept counts as the return itself.
  INSERT INTO payout_type_totals (merchant_id, payout_id, type, count, amount, fee, net)
  SELECT p_merchant_id, v_payout.id, type, sum(count), sum(amount), sum(fee), sum(net)
  FROM (
    SELECT b.type, count(*) AS count, sum(b.amount) AS amount, sum(b.fee) AS fee, sum(b.net) AS net
    FROM balance_transactions b
    WHERE b.merchant_id = p_merchant_id AND b.payout_id = v_payout.id
      AND (b.type <> 'payout_failure' OR NOT EXISTS (
        SELECT 1 FROM payout_type_totals f WHERE f.merchant_id = p_merchant_id AND f.payout_id = b.source_id))
    GROUP BY b.type
    UNION ALL
    SELECT f.type, f.count, f.amount, f.fee, f.net
    FROM balance_transactions b
    JOIN payout_type_totals f ON f.merchant_id = b.merchant_id AND f.payout_id = b.source_id
    WHERE b.merchant_id = p_merchant_id AND b.payout_id = v_payout.id AND b.type = 'payout_failure'
  ) AS line
  GROUP BY type;

  -- Its own debit is marked too, so no later payout carries it.
  PERFORM post_move(p_merchant_id, 'payout', v_payout.id, p_currency, -v_payout.amount, 0, v_payout.id,
                    ARRAY['available', 'in_transit'], ARRAY[-v_payout.amount, v_payout.amount]);
  IF record_event(p_merchant_id, p_event_id, 'payout.created', NULL, payout_json(v_payout)) AND p_notify THEN
    PERFORM pg_notify('webhook_deliveries', '');
  END IF;
  IF v_claim.key_id IS NOT NULL THEN
    UPDATE idempotency_keys SET payout_id = v_payout.id WHERE merchant_id = p_merchant_id AND id = v_claim.key_id;
  END IF;
  RETURN json_build_object('replayed', false, 'payout', payout_json(v_payout));
END
$$;

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
  v_now timestamptz := merchant_now(p_merchant_id);
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
                    THEN v_now + p_next_move_ms * interval '1 millisecond' END;
  UPDATE payouts SET status = v_to, failure_reason = v_reason, updated_at = v_now, move_at = v_move_at
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
