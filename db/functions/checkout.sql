-- The payer's settle at the checkout page.
-- The current text of each function: applied after the migrations whenever this file changes (db/function-files.ts).

-- A payer pays (or fails) at `/pay/{token}`, top to bottom: the checkout's row lock (two tabs paying queue
-- here); a payment no longer pending answers as it is (another tab, a cancel or the expirer came first); a
-- checkout locked after p_refused_cards_lock refused cards takes no card; otherwise settle_payment with the card
-- (p_payment_method, or with p_authenticated the card waiting at the authentication step, and none waiting is
-- refused), the waiting card cleared, and for a test card that disputes (p_dispute_reason) the dispute
-- scheduled after p_dispute_delay_ms. Returns {found, locked, unauthenticated, settled, payment_id, status,
-- failure_reason, return_url}: `settled` false when this call did not settle it.
CREATE OR REPLACE FUNCTION pay_checkout(p_merchant_id bigint, p_token_hash text, p_event_id text, p_outcome text,
  p_failure_code text, p_failure_reason text, p_payment_method json, p_authenticated boolean,
  p_available_after_ms bigint, p_notify boolean, p_refused_cards_lock integer, p_dispute_reason text,
  p_dispute_inquiry boolean, p_dispute_delay_ms integer) RETURNS json
LANGUAGE plpgsql AS $$
DECLARE
  v_now timestamptz := merchant_now(p_merchant_id);
  v_checkout checkouts;
  v_payment record;
  v_settled json;
BEGIN
  SELECT * INTO v_checkout FROM checkouts
  WHERE merchant_id = p_merchant_id AND token_hash = p_token_hash FOR UPDATE;
  IF NOT FOUND THEN
    RETURN json_build_object('found', false);
  END IF;
  SELECT status, processor INTO v_payment FROM payments WHERE merchant_id = p_merchant_id AND id = v_checkout.payment_id;
  -- A processor's payment is paid on the processor's page: no card is taken here.
  IF v_payment.processor <> 'simulator' THEN
    RETURN json_build_object('found', false);
  END IF;
  IF v_payment.status = 'pending' THEN
    IF v_checkout.declined_attempts >= p_refused_cards_lock THEN
      RETURN json_build_object('found', true, 'locked', true);
    END IF;
    IF p_authenticated THEN
      IF v_checkout.authentication IS NULL THEN
        RETURN json_build_object('found', true, 'locked', false, 'unauthenticated', true);
      END IF;
      p_payment_method := v_checkout.authentication;
    END IF;
    v_settled := settle_payment(p_merchant_id, v_checkout.payment_id, p_event_id, p_outcome, p_failure_code,
                                p_failure_reason, p_payment_method, p_available_after_ms, p_notify);
    UPDATE checkouts SET authentication = NULL
    WHERE merchant_id = p_merchant_id AND payment_id = v_checkout.payment_id;
    IF v_settled IS NOT NULL AND p_dispute_reason IS NOT NULL THEN
      INSERT INTO scheduled_disputes (merchant_id, payment_id, reason, inquiry, open_at)
      VALUES (p_merchant_id, v_checkout.payment_id, p_dispute_reason, p_dispute_inquiry,
              v_now + p_dispute_delay_ms * interval '1 millisecond')
      ON CONFLICT DO NOTHING;
    END IF;
  END IF;
  SELECT status, failure_reason INTO v_payment FROM payments
  WHERE merchant_id = p_merchant_id AND id = v_checkout.payment_id;
  RETURN json_build_object('found', true, 'locked', false, 'unauthenticated', false,
    'settled', v_settled IS NOT NULL, 'payment_id', v_checkout.payment_id, 'status', v_payment.status,
    'failure_reason', v_payment.failure_reason, 'return_url', v_checkout.return_url);
END
$$;
