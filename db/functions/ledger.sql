-- The ledger's postings: entries on a balance transaction, and a move of money on the available balance.
-- The current text of each function: applied after the migrations whenever this file changes (db/function-files.ts).

-- Entries of `p_posting` on a balance transaction, one per account, each added to its account's balance in one
-- of 8 slots, in account order (as every posting takes them: concurrent postings cannot deadlock). The amounts
-- sum to 0. Its two or three lines are one statement for the entries and one for the balances: a statement a
-- line would be one each that Citus plans and runs apart.
CREATE OR REPLACE FUNCTION enter_lines(p_merchant_id bigint, p_transaction_id bigint, p_posting text,
  p_currency text, p_accounts text[], p_amounts numeric[]) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  v_accounts text[];
  v_amounts numeric[];
BEGIN
  SELECT array_agg(account ORDER BY account), array_agg(amount ORDER BY account) INTO v_accounts, v_amounts
  FROM unnest(p_accounts, p_amounts) AS line (account, amount);
  IF cardinality(v_accounts) = 2 THEN
    INSERT INTO ledger_entries (merchant_id, transaction_id, posting, account, currency, amount)
    VALUES (p_merchant_id, p_transaction_id, p_posting, v_accounts[1], p_currency, v_amounts[1]),
           (p_merchant_id, p_transaction_id, p_posting, v_accounts[2], p_currency, v_amounts[2]);
    INSERT INTO ledger_balances AS b (merchant_id, account, currency, slot, amount)
    VALUES (p_merchant_id, v_accounts[1], p_currency, floor(random() * 8)::smallint, v_amounts[1]),
           (p_merchant_id, v_accounts[2], p_currency, floor(random() * 8)::smallint, v_amounts[2])
    ON CONFLICT (merchant_id, account, currency, slot) DO UPDATE SET amount = b.amount + excluded.amount;
  ELSIF cardinality(v_accounts) = 3 THEN
    INSERT INTO ledger_entries (merchant_id, transaction_id, posting, account, currency, amount)
    VALUES (p_merchant_id, p_transaction_id, p_posting, v_accounts[1], p_currency, v_amounts[1]),
           (p_merchant_id, p_transaction_id, p_posting, v_accounts[2], p_currency, v_amounts[2]),
           (p_merchant_id, p_transaction_id, p_posting, v_accounts[3], p_currency, v_amounts[3]);
    INSERT INTO ledger_balances AS b (merchant_id, account, currency, slot, amount)
    VALUES (p_merchant_id, v_accounts[1], p_currency, floor(random() * 8)::smallint, v_amounts[1]),
           (p_merchant_id, v_accounts[2], p_currency, floor(random() * 8)::smallint, v_amounts[2]),
           (p_merchant_id, v_accounts[3], p_currency, floor(random() * 8)::smallint, v_amounts[3])
    ON CONFLICT (merchant_id, account, currency, slot) DO UPDATE SET amount = b.amount + excluded.amount;
  ELSE
    RAISE EXCEPTION 'A posting has 2 or 3 lines, not %.', coalesce(cardinality(v_accounts), 0);
  END IF;
END
$$;

-- A balance transaction counted in the reports' totals: its UTC day's and its quarter hour's count, amount, fee
-- and net by type, and its net again as `available` in the day and quarter hour of its available_on (the same
-- rows when it is available at once). Each change to one of 8 slots, in key order. A later availability is a
-- second row of the same statement (its day or quarter hour comes after the transaction's: key order), not a
-- statement of its own, which Citus would plan and run apart.
CREATE OR REPLACE FUNCTION count_balance_transaction(p_merchant_id bigint, p_type text, p_currency text,
  p_created_at timestamptz, p_available_on timestamptz, p_amount numeric, p_fee numeric, p_net numeric)
  RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  v_day date := (p_created_at AT TIME ZONE 'UTC')::date;
  v_quarter timestamptz := date_bin('15 minutes', p_created_at, timestamptz '2000-01-01 00:00:00+00');
  v_available_day date := (p_available_on AT TIME ZONE 'UTC')::date;
  v_available_quarter timestamptz := date_bin('15 minutes', p_available_on, timestamptz '2000-01-01 00:00:00+00');
BEGIN
  IF v_available_day = v_day THEN
    INSERT INTO balance_transaction_daily_totals AS d (merchant_id, day, type, currency, slot, count, amount, fee,
                                                       net, available)
    VALUES (p_merchant_id, v_day, p_type, p_currency, floor(random() * 8)::smallint, 1, p_amount, p_fee, p_net, p_net)
    ON CONFLICT (merchant_id, day, type, currency, slot) DO UPDATE
      SET count = d.count + 1, amount = d.amount + excluded.amount, fee = d.fee + excluded.fee,
          net = d.net + excluded.net, available = d.available + excluded.available;
  ELSE
    INSERT INTO balance_transaction_daily_totals AS d (merchant_id, day, type, currency, slot, count, amount, fee,
                                                       net, available)
    VALUES (p_merchant_id, v_day, p_type, p_currency, floor(random() * 8)::smallint, 1, p_amount, p_fee, p_net, 0),
           (p_merchant_id, v_available_day, p_type, p_currency, floor(random() * 8)::smallint, 0, 0, 0, 0, p_net)
    ON CONFLICT (merchant_id, day, type, currency, slot) DO UPDATE
      SET count = d.count + excluded.count, amount = d.amount + excluded.amount, fee = d.fee + excluded.fee,
          net = d.net + excluded.net, available = d.available + excluded.available;
  END IF;
  IF v_available_quarter = v_quarter THEN
    INSERT INTO balance_transaction_quarter_hour_totals AS q (merchant_id, quarter_hour, type, currency, slot, count,
                                                             amount, fee, net, available)
    VALUES (p_merchant_id, v_quarter, p_type, p_currency, floor(random() * 8)::smallint, 1, p_amount, p_fee, p_net,
            p_net)
    ON CONFLICT (merchant_id, quarter_hour, type, currency, slot) DO UPDATE
      SET count = q.count + 1, amount = q.amount + excluded.amount, fee = q.fee + excluded.fee,
          net = q.net + excluded.net, available = q.available + excluded.available;
  ELSE
    INSERT INTO balance_transaction_quarter_hour_totals AS q (merchant_id, quarter_hour, type, currency, slot, count,
                                                             amount, fee, net, available)
    VALUES (p_merchant_id, v_quarter, p_type, p_currency, floor(random() * 8)::smallint, 1, p_amount, p_fee, p_net, 0),
           (p_merchant_id, v_available_quarter, p_type, p_currency, floor(random() * 8)::smallint, 0, 0, 0, 0, p_net)
    ON CONFLICT (merchant_id, quarter_hour, type, currency, slot) DO UPDATE
      SET count = q.count + excluded.count, amount = q.amount + excluded.amount, fee = q.fee + excluded.fee,
          net = q.net + excluded.net, available = q.available + excluded.available;
  END IF;
END
$$;

-- Money on the available balance at once (a refund and its failure, a payout and its return, a dispute and its
-- reinstatement): a balance transaction of `p_type` for p_amount less p_fee, its entries (enter_lines: the
-- accounts and their amounts, summing to 0, the net on `available`), and its day's totals. The transaction names
-- the payment it concerns, a refund's or a dispute's, looked up in the merchant's own rows (two primary-key
-- reads; a payout's names none). `p_payout_id` marks it carried by that payout. Returns its id.
CREATE OR REPLACE FUNCTION post_move(p_merchant_id bigint, p_type text, p_source_id bigint, p_currency text,
  p_amount numeric, p_fee numeric, p_payout_id bigint, p_accounts text[], p_amounts numeric[]) RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
  v_move record;
  v_payment_id bigint;
  v_external_id text;
  v_customer_id text;
  v_now timestamptz := merchant_now(p_merchant_id);
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
                                    amount, fee, net, status, available_on, payout_id, created_at)
  VALUES (p_merchant_id, p_type, p_source_id, v_payment_id, v_external_id, v_customer_id,
          p_currency, p_amount, p_fee, p_amount - p_fee, 'available', v_now, p_payout_id, v_now)
  RETURNING id, created_at INTO v_move;
  PERFORM enter_lines(p_merchant_id, v_move.id, 'post', p_currency, p_accounts, p_amounts);
  PERFORM count_balance_transaction(p_merchant_id, p_type, p_currency, v_move.created_at, v_move.created_at,
                                    p_amount, p_fee, p_amount - p_fee);
  RETURN v_move.id;
END
$$;
