import "server-only";
import { sql, type SQL } from "drizzle-orm";
import { getEnv } from "@/lib/platform/env";

// Money moves only as balance transactions whose entries sum to 0 (DESIGN.md, "Balances, fees and payouts"),
// written with the account balances they change inside the transaction of whatever moved the money: in the
// database's write functions (settle_payment, and post_move for refunds, payouts and disputes:
// db/functions/payments.sql and ledger.sql), and for the settler's batches of payments in the CTEs here.

/** Slots each balance is spread over: settles of one merchant pick one at random, so rarely wait on each other. */
const BALANCE_SLOTS = 8;

/**
 * `currency`'s ISO minor units as SQL: the database's `minor_units` (db/functions/money.sql), two IN lists
 * that the planner inlines, not a CASE branch per currency: that expression is in every settle, and a CASE of
 * 23 branches, twice, halved the settler's throughput (docs/benchmarks-log.md, "Settling on the ledger").
 */
export function minorUnitsSql(currency: SQL): SQL {
  return sql`minor_units(${currency})`;
}

/**
 * A completed payment's fee: percent of the amount plus a fixed count of minor units, rounded half up to the
 * currency's minor unit, exact: numeric throughout; a payment of 0 costs nothing (DESIGN.md, "Zero"). The
 * database's `payment_fee` (db/functions/payments.sql), which settle_payment uses too: one rule.
 */
export function feeSql(amount: SQL, currency: SQL, percent: SQL, fixedMinorUnits: SQL): SQL {
  return sql`payment_fee(${amount}, ${currency}, ${percent}, ${fixedMinorUnits})`;
}

/**
 * Completed payments' money in the statement that completes them (CTEs, named `payment_*`): each row of
 * `source` (merchant_id, id, external_id, customer_id, status, currency, amount, fee, net) whose status is
 * `completed` posts a balance transaction naming itself, its order and customer: the processor owes its amount
 * (clearing), the fee is the platform's, the net the merchant's, pending until completion +
 * BALANCE_AVAILABLE_AFTER (available at once when that is 0); a payment of 0 posts nothing (nothing moved). In
 * the transition's own statement, not one more: a settle one by one pays a round trip less (BENCHMARKS.md).
 * `source` also gives settled_at, the time it is posted at (a sandbox's test clock's, or now).
 */
export function paymentPostingCtes(source: SQL): SQL {
  const availableAfterMs = getEnv().BALANCE_AVAILABLE_AFTER;
  return sql`payment_posted as (
      insert into balance_transactions (merchant_id, type, source_id, payment_id, external_id, customer_id, currency,
                                        amount, fee, net, status, available_on, created_at)
      select merchant_id, 'payment', id, id, external_id, customer_id, currency, amount, fee, net,
             case when ${availableAfterMs}::bigint = 0 then 'available' else 'pending' end,
             settled_at + ${availableAfterMs}::bigint * interval '1 millisecond', settled_at
      from ${source} where status = 'completed' and amount <> 0
      returning merchant_id, id, type, source_id, status, currency, amount, fee, net, created_at, available_on),
    payment_lines as (
      select merchant_id, id as transaction_id, currency, account, moved as amount
      from payment_posted,
           lateral (values ('clearing', -amount), ('fees', fee),
                           (case when status = 'available' then 'available' else 'pending' end, net))
             as entry (account, moved)),
    ${addToBalances(sql`payment_lines`, "post", "payment")},
    ${addToDailyTotals(sql`payment_posted`, "payment")}`;
}

/**
 * CTEs that append `lines` (merchant_id, transaction_id, currency, account, amount) as entries of `posting`
 * and add them to the accounts' balances, each change to one slot, in key order so that concurrent postings
 * cannot deadlock. `prefix` names them apart from the statement's other CTEs.
 */
export const addToBalances = (lines: SQL, posting: string, prefix = "ledger") => sql`
  ${sql.identifier(`${prefix}_entered`)} as (
    insert into ledger_entries (merchant_id, transaction_id, posting, account, currency, amount)
    select merchant_id, transaction_id, ${posting}, account, currency, amount from ${lines}
    returning 1),
  ${sql.identifier(`${prefix}_balanced`)} as (
    insert into ledger_balances as b (merchant_id, account, currency, slot, amount)
    select merchant_id, account, currency, floor(random() * ${BALANCE_SLOTS})::smallint, sum(amount)
    from ${lines} group by 1, 2, 3 order by 1, 2, 3
    on conflict (merchant_id, account, currency, slot) do update set amount = b.amount + excluded.amount
    returning 1)`;

/** The start of an instant's quarter hour (UTC), as count_balance_transaction buckets it. */
const quarterHour = (at: SQL) => sql`date_bin('15 minutes', ${at}, timestamptz '2000-01-01 00:00:00+00')`;
const utcDay = (at: SQL) => sql`(${at} at time zone 'UTC')::date`;

/**
 * CTEs that add `changes` (merchant_id, at, type, currency, count, amount, fee, net, available) to the reports'
 * totals: the daily and the quarter-hour rows of each change's `at`, each to one slot, in key order.
 */
function addToTotals(changes: SQL, prefix: string): SQL {
  const totals = (table: string, column: string, bucket: (at: SQL) => SQL, name: string) => sql`
  ${sql.identifier(`${prefix}_${name}`)} as (
    insert into ${sql.identifier(table)} as d (merchant_id, ${sql.identifier(column)}, type, currency, slot, count,
                                              amount, fee, net, available)
    select merchant_id, ${bucket(sql`at`)}, type, currency, floor(random() * ${BALANCE_SLOTS})::smallint,
           sum(count), sum(amount), sum(fee), sum(net), sum(available)
    from (${changes}) as change group by 1, 2, 3, 4 order by 1, 2, 3, 4
    on conflict (merchant_id, ${sql.identifier(column)}, type, currency, slot) do update
      set count = d.count + excluded.count, amount = d.amount + excluded.amount, fee = d.fee + excluded.fee,
          net = d.net + excluded.net, available = d.available + excluded.available
    returning 1)`;
  return sql`${totals("balance_transaction_daily_totals", "day", utcDay, "counted")},
  ${totals("balance_transaction_quarter_hour_totals", "quarter_hour", quarterHour, "quartered")}`;
}

/**
 * CTEs that count the balance transactions `posted` returns (merchant_id, type, currency, amount, fee, net,
 * created_at, available_on) in the reports' totals, as count_balance_transaction (db/functions/ledger.sql) does
 * one: their day's and quarter hour's count and sums, and their net as `available` in those of their
 * available_on. `prefix` names them apart from the statement's others.
 */
export const addToDailyTotals = (posted: SQL, prefix = "ledger") =>
  addToTotals(
    sql`select merchant_id, created_at as at, type, currency, 1 as count, amount, fee, net, 0::numeric as available
        from ${posted}
        union all
        select merchant_id, available_on, type, currency, 0, 0, 0, 0, net from ${posted}`,
    prefix,
  );

/**
 * CTEs that move the `available` of transactions made available early (`moved`: merchant_id, type, currency,
 * net, was_available_on, available_on) from the day and quarter hour they were due to those they came.
 */
export const moveAvailableTotals = (moved: SQL, prefix: string) =>
  addToTotals(
    sql`select merchant_id, was_available_on as at, type, currency, 0 as count, 0 as amount, 0 as fee, 0 as net,
               -net as available
        from ${moved}
        union all
        select merchant_id, available_on, type, currency, 0, 0, 0, 0, net from ${moved}`,
    prefix,
  );
