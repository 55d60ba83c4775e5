-- Each balance transaction names the payment it concerns, with that payment's order and customer (DESIGN.md,
-- "Reports"). Nullable: payouts name none, and rows posted before are filled by the backfill below.
-- The functions come first: on a Citus cluster already sharded, a function's change must run before the
-- ALTERs of the distributed table in its transaction (after them Citus refuses it: they ran in parallel).
-- PL/pgSQL resolves the new columns when the functions first run, after this commits.
-- settle_payment of migration 0047, its balance transaction naming the payment, its order and its customer.
CREATE OR REPLACE FUNCTION settle_payment(p_merchant_id bigint, p_payment_id bigint, p_event_id text,
  p_outcome text, p_failure_code text, p_failure_reason text, p_payment_method json, p_available_after_ms bigint,
  p_notify boolean) RETURNS json
LANGUAGE plpgsql AS $$
DECLARE
  v_percent numeric;
  v_fixed numeric;
  v_payment payments;
  v_move record;
  v_day date;
  v_scope text;
  v_amount numeric;
BEGIN
  SELECT fee_percent, fee_fixed INTO v_percent, v_fixed FROM merchants WHERE id = p_merchant_id;
  UPDATE payments p
  SET status = p_outcome, failure_reason = p_failure_reason, failure_code = p_failure_code, settled_at = now(),
      updated_at = now(), payment_method = coalesce(p_payment_method, p.payment_method),
      fee = CASE WHEN p_outcome = 'completed' THEN payment_fee(p.amount, p.currency, v_percent, v_fixed) END,
      net = CASE WHEN p_outcome = 'completed' THEN p.amount - payment_fee(p.amount, p.currency, v_percent, v_fixed) END
  WHERE p.merchant_id = p_merchant_id AND p.id = p_payment_id AND p.status = 'pending'
  RETURNING * INTO v_payment;
  IF NOT FOUND THEN
    RETURN NULL;
  END IF;

  -- The money: the processor owes the amount (clearing), the fee is the platform's, the net the merchant's,
  -- pending until completion + BALANCE_AVAILABLE_AFTER (available at once when that is 0).
  IF v_payment.status = 'completed' AND v_payment.amount <> 0 THEN
    INSERT INTO balance_transactions (merchant_id, type, source_id, payment_id, external_id, customer_id, currency,
                                      amount, fee, net, status, available_on)
    VALUES (p_merchant_id, 'payment', v_payment.id, v_payment.id, v_payment.external_id, v_payment.customer_id,
            v_payment.currency, v_payment.amount, v_payment.fee, v_payment.net,
            CASE WHEN p_available_after_ms = 0 THEN 'available' ELSE 'pending' END,
            now() + p_available_after_ms * interval '1 millisecond')
    RETURNING id, status, created_at INTO v_move;
    INSERT INTO ledger_entries (merchant_id, transaction_id, posting, account, currency, amount)
    VALUES (p_merchant_id, v_move.id, 'post', 'clearing', v_payment.currency, -v_payment.amount),
           (p_merchant_id, v_move.id, 'post', 'fees', v_payment.currency, v_payment.fee),
           (p_merchant_id, v_move.id, 'post', v_move.status, v_payment.currency, v_payment.net);
    -- In account order (available, clearing, fees, pending), as every posting takes them.
    FOR v_scope IN SELECT unnest(ARRAY[v_move.status, 'clearing', 'fees']) ORDER BY 1 LOOP
      -- Worked out here, not in the INSERT: Citus deparses a CASE on a variable there as `WHEN NULL::boolean`.
      v_amount := CASE WHEN v_scope = 'clearing' THEN -v_payment.amount WHEN v_scope = 'fees' THEN v_payment.fee
                       ELSE v_payment.net END;
      INSERT INTO ledger_balances AS b (merchant_id, account, currency, slot, amount)
      VALUES (p_merchant_id, v_scope, v_payment.currency, floor(random() * 8)::smallint, v_amount)
      ON CONFLICT (merchant_id, account, currency, slot) DO UPDATE SET amount = b.amount + excluded.amount;
    END LOOP;
    INSERT INTO balance_transaction_daily_totals AS d (merchant_id, day, type, currency, slot, count, amount, fee, net)
    VALUES (p_merchant_id, (v_move.created_at AT TIME ZONE 'UTC')::date, 'payment', v_payment.currency,
            floor(random() * 8)::smallint, 1, v_payment.amount, v_payment.fee, v_payment.net)
    ON CONFLICT (merchant_id, day, type, currency, slot) DO UPDATE
      SET count = d.count + 1, amount = d.amount + excluded.amount, fee = d.fee + excluded.fee,
          net = d.net + excluded.net;
  END IF;

  IF record_event(p_merchant_id, p_event_id, 'payment.' || v_payment.status, v_payment.id,
                  payment_json(v_payment, NULL)) AND p_notify THEN
    PERFORM pg_notify('webhook_deliveries', '');
  END IF;

  -- From its day's pending totals to its outcome's: the merchant's row, then its customer's; in each, the
  -- outcome's row before pending's (key order).
  v_day := (v_payment.created_at AT TIME ZONE 'UTC')::date;
  FOREACH v_scope IN ARRAY CASE WHEN v_payment.customer_id <> '' THEN ARRAY['', v_payment.customer_id]
                                ELSE ARRAY[''] END LOOP
    INSERT INTO payment_daily_totals AS t (merchant_id, customer_id, day, status, currency, count, volume)
    VALUES (p_merchant_id, v_scope, v_day, v_payment.status, v_payment.currency, 1, v_payment.amount)
    ON CONFLICT (merchant_id, customer_id, day, status, refund_state, currency)
      DO UPDATE SET count = t.count + 1, volume = t.volume + excluded.volume;
    INSERT INTO payment_daily_totals AS t (merchant_id, customer_id, day, status, currency, count, volume)
    VALUES (p_merchant_id, v_scope, v_day, 'pending', v_payment.currency, -1, -v_payment.amount)
    ON CONFLICT (merchant_id, customer_id, day, status, refund_state, currency)
      DO UPDATE SET count = t.count - 1, volume = t.volume + excluded.volume;
  END LOOP;
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
    'fee', v_payment.fee::text, 'net', v_payment.net::text, 'settled_at', v_payment.settled_at);
END
$$;
--> statement-breakpoint
-- post_move of migration 0049, its balance transaction naming the payment it concerns: a refund's or a
-- dispute's, looked up in the merchant's own rows (two primary-key reads; a payout's names none).
CREATE OR REPLACE FUNCTION post_move(p_merchant_id bigint, p_type text, p_source_id bigint, p_currency text,
  p_amount numeric, p_fee numeric, p_payout_id bigint, p_accounts text[], p_amounts numeric[]) RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
  v_move record;
  v_payment_id bigint;
  v_external_id text;
  v_customer_id text;
BEGIN
  -- The payment it concerns, with its order and customer: a refund's or a dispute's (payouts have none).
  IF p_type IN ('refund', 'refund_failure') THEN
    SELECT p.id, p.external_id, p.customer_id INTO v_payment_id, v_external_id, v_customer_id
    FROM refunds r JOIN payments p ON p.merchant_id = r.merchant_id AND p.id = r.payment_id
    WHERE r.merchant_id = p_merchant_id AND r.id = p_source_id;
  ELSIF p_type IN ('dispute', 'dispute_won') THEN
    SELECT p.id, p.external_id, p.customer_id INTO v_payment_id, v_external_id, v_customer_id
    FROM disputes d JOIN payments p ON p.merchant_id = d.merchant_id AND p.id = d.payment_id
    WHERE d.merchant_id = p_merchant_id AND d.id = p_source_id;
  END IF;
  INSERT INTO balance_transactions (merchant_id, type, source_id, payment_id, external_id, customer_id, currency,
                                    amount, fee, net, status, available_on, payout_id)
  VALUES (p_merchant_id, p_type, p_source_id, v_payment_id, v_external_id, v_customer_id,
          p_currency, p_amount, p_fee, p_amount - p_fee, 'available', now(), p_payout_id)
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
ALTER TABLE "balance_transactions" ADD COLUMN "payment_id" bigint;
--> statement-breakpoint
ALTER TABLE "balance_transactions" ADD COLUMN "external_id" text;
--> statement-breakpoint
ALTER TABLE "balance_transactions" ADD COLUMN "customer_id" text;
--> statement-breakpoint
-- Written when it is posted, by settle_payment and post_move above (and the settler's batches,
-- lib/ledger/postings.ts), so the All transactions list and its CSV read them from the row, not by a lookup per
-- row. Those posted before are filled afterwards, in batches (db/backfills.ts,
-- "ledger.5.balance_transaction_payments"), merchant by merchant.
INSERT INTO "backfills" ("name") VALUES ('ledger.5.balance_transaction_payments');
