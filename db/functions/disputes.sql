-- A dispute's opening and decision, its JSON and its fee.
-- The current text of each function: applied after the migrations whenever this file changes (db/function-files.ts).

-- A dispute as the API shows it (toDispute's keys, in its order), for its events and the functions' answers;
-- every evidence field named in `p_evidence_fields` (DISPUTE_EVIDENCE_FIELDS, the caller's), null when not given.
CREATE OR REPLACE FUNCTION dispute_json(d disputes, p_evidence_fields text[]) RETURNS json
LANGUAGE sql IMMUTABLE AS $$
  SELECT json_build_object('id', d.id, 'payment_id', d.payment_id,
    'amount', round(d.amount, minor_units(d.currency))::text, 'currency', d.currency, 'reason', d.reason,
    'status', d.status,
    'evidence', (SELECT json_object_agg(field, d.evidence ->> field ORDER BY position)
                 FROM unnest(p_evidence_fields) WITH ORDINALITY AS fields (field, position)),
    'evidence_due_by', to_char(d.evidence_due_by AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    'is_refundable', false,
    'created_at', to_char(d.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    'closed_at', to_char(d.closed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
$$;

-- The dispute fee (lib/ledger/pricing.ts's disputeFee, which a test holds it to): 15.00, 1500 in a zero-decimal
-- currency, 15.000 in a three-decimal one.
CREATE OR REPLACE FUNCTION dispute_fee(currency text) RETURNS numeric
LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN minor_units(currency) = 0 THEN 1500::numeric ELSE round(15::numeric, minor_units(currency)) END
$$;

-- The payer's bank disputes a completed payment (the simulator, the test helper), top to bottom: the payment's
-- row lock (a refund moves it under the same lock, so none slips in beside it); a payment that cannot be
-- disputed (none, not completed, of 0, disputed already, refunded in full) raises SQLSTATE PA422, writing
-- nothing (the caller says why); the dispute of what is not refunded, due p_evidence_days from now, and the
-- payment's copy of its status; `dispute.created`; then, unless an inquiry, the amount withdrawn with the
-- dispute fee (p_fee: the processor takes the amount back through clearing, the fee is the platform's) and
-- `dispute.funds_withdrawn`. Returns the dispute as the API shows it.
CREATE OR REPLACE FUNCTION open_dispute(p_merchant_id bigint, p_payment_id bigint, p_created_event_id text,
  p_withdrawn_event_id text, p_reason text, p_inquiry boolean, p_evidence_days integer,
  p_evidence_fields text[], p_notify boolean) RETURNS json
LANGUAGE plpgsql AS $$
DECLARE
  v_now timestamptz := merchant_now(p_merchant_id);
  v_payment record;
  v_due_by timestamptz := v_now + p_evidence_days * interval '1 day';
  -- Worked out here, not in the INSERT (Citus deparses a CASE on a variable there wrongly).
  v_status text := CASE WHEN p_inquiry THEN 'warning_needs_response' ELSE 'needs_response' END;
  v_dispute disputes;
  v_fee numeric;
  v_queued boolean;
BEGIN
  SELECT status, currency, amount, dispute_status, amount - amount_refunded - amount_refund_pending AS disputable
  INTO v_payment FROM payments WHERE merchant_id = p_merchant_id AND id = p_payment_id FOR UPDATE;
  IF NOT FOUND OR v_payment.status <> 'completed' OR v_payment.amount = 0 OR v_payment.dispute_status IS NOT NULL
     OR v_payment.disputable <= 0 THEN
    RAISE EXCEPTION 'The dispute was refused.' USING ERRCODE = 'PA422';
  END IF;
  INSERT INTO disputes (merchant_id, payment_id, amount, currency, reason, status, evidence_due_by, created_at,
                        updated_at)
  VALUES (p_merchant_id, p_payment_id, v_payment.disputable, v_payment.currency, p_reason, v_status, v_due_by, v_now,
          v_now)
  RETURNING * INTO v_dispute;
  UPDATE payments SET dispute_status = v_dispute.status, updated_at = v_now
  WHERE merchant_id = p_merchant_id AND id = p_payment_id;
  v_queued := record_event(p_merchant_id, p_created_event_id, 'dispute.created', p_payment_id,
                           dispute_json(v_dispute, p_evidence_fields));
  IF NOT p_inquiry THEN
    v_fee := dispute_fee(v_dispute.currency);
    PERFORM post_move(p_merchant_id, 'dispute', v_dispute.id, v_dispute.currency, -v_dispute.amount, v_fee, NULL,
                      ARRAY['available', 'clearing', 'fees'],
                      ARRAY[-v_dispute.amount - v_fee, v_dispute.amount, v_fee]);
    v_queued := record_event(p_merchant_id, p_withdrawn_event_id, 'dispute.funds_withdrawn', p_payment_id,
                             dispute_json(v_dispute, p_evidence_fields)) OR v_queued;
  END IF;
  IF v_queued AND p_notify THEN
    PERFORM pg_notify('webhook_deliveries', '');
  END IF;
  RETURN dispute_json(v_dispute, p_evidence_fields);
END
$$;

-- The bank's decision (the simulator, the test helper, the merchant accepting it), top to bottom: the dispute's
-- row lock; a closed one is left as it is ({closed: status}); an inquiry closes (`warning_closed`, no money either
-- way), a chargeback is won (`p_outcome`; the amount reinstated, not the fee: `dispute_won` and
-- `dispute.funds_reinstated`) or lost (nothing returns); the payment's copy of its status; `dispute.closed`.
-- Returns {dispute} as the API shows it, or null when it is not the merchant's.
CREATE OR REPLACE FUNCTION decide_dispute(p_merchant_id bigint, p_dispute_id bigint, p_outcome text,
  p_reinstated_event_id text, p_closed_event_id text, p_evidence_fields text[], p_notify boolean) RETURNS json
LANGUAGE plpgsql AS $$
DECLARE
  v_now timestamptz := merchant_now(p_merchant_id);
  v_dispute disputes;
  v_status text;
  v_queued boolean := false;
BEGIN
  SELECT * INTO v_dispute FROM disputes WHERE merchant_id = p_merchant_id AND id = p_dispute_id FOR UPDATE;
  IF NOT FOUND THEN
    RETURN NULL;
  ELSIF v_dispute.status IN ('warning_closed', 'won', 'lost') THEN
    RETURN json_build_object('closed', v_dispute.status);
  END IF;
  v_status := CASE WHEN v_dispute.status LIKE 'warning\_%' THEN 'warning_closed' ELSE p_outcome END;
  UPDATE disputes SET status = v_status, closed_at = v_now, decision = NULL, decide_at = NULL, updated_at = v_now
  WHERE merchant_id = p_merchant_id AND id = p_dispute_id
  RETURNING * INTO v_dispute;
  UPDATE payments SET dispute_status = v_status, updated_at = v_now
  WHERE merchant_id = p_merchant_id AND id = v_dispute.payment_id;
  IF v_status = 'won' THEN
    PERFORM post_move(p_merchant_id, 'dispute_won', v_dispute.id, v_dispute.currency, v_dispute.amount, 0, NULL,
                      ARRAY['available', 'clearing'], ARRAY[v_dispute.amount, -v_dispute.amount]);
    v_queued := record_event(p_merchant_id, p_reinstated_event_id, 'dispute.funds_reinstated', v_dispute.payment_id,
                             dispute_json(v_dispute, p_evidence_fields));
  END IF;
  v_queued := record_event(p_merchant_id, p_closed_event_id, 'dispute.closed', v_dispute.payment_id,
                           dispute_json(v_dispute, p_evidence_fields)) OR v_queued;
  IF v_queued AND p_notify THEN
    PERFORM pg_notify('webhook_deliveries', '');
  END IF;
  RETURN json_build_object('dispute', dispute_json(v_dispute, p_evidence_fields));
END
$$;
