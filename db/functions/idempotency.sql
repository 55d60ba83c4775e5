-- An Idempotency-Key's claim, first in a keyed write's transaction.
-- The current text of each function: applied after the migrations whenever this file changes (db/function-files.ts).

-- The claim of an Idempotency-Key (DESIGN.md, "Idempotency"), first in a keyed write's transaction: a key
-- unused within its lifetime (its row older than p_key_cutoff) is claimed, and `key_id` names its row; a
-- concurrent duplicate waits on the key's unique index until the first commits. A key used before by the same
-- request gives `replay_id`, the object it made (`p_target`: the key's column that names it); by another request,
-- or one that made nothing, it is refused: SQLSTATE PA409. A write without a key claims nothing (both null).
CREATE OR REPLACE FUNCTION claim_idempotency_key(p_merchant_id bigint, p_key text, p_request_hash text,
  p_key_cutoff timestamptz, p_target text, OUT key_id bigint, OUT replay_id bigint)
LANGUAGE plpgsql AS $$
DECLARE
  v_used idempotency_keys;
BEGIN
  IF p_key IS NULL THEN
    RETURN;
  END IF;
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
