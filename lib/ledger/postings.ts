import "server-only";
import { sql, type SQL } from "drizzle-orm";
import { selectRows, type Executor } from "@/db/client";
import type { BalanceTransactionType, LedgerAccount } from "@/db/enums";
import { getEnv } from "@/lib/platform/env";

// Money moves only here (DESIGN.md, "Balances, fees and payouts"): each movement is a balance transaction
// whose entries sum to 0, written with the account balances they change in one statement, inside the
// transaction of whatever moved the money (a payment's completion, a refund, a payout).

/** Slots each balance is spread over: settles of one merchant pick one at random, so rarely wait on each other. */
const BALANCE_SLOTS = 8;

/**
 * The merchant's side of a movement into its balance: `pending` while the transaction waits for its
 * available_on, `available` when that has already come (BALANCE_AVAILABLE_AFTER=0, a refund, a payout).
 */
export const BALANCE = "balance";

export type Entry = readonly [account: LedgerAccount | typeof BALANCE, amount: string];

export type Posting = {
  merchantId: number | string;
  type: BalanceTransactionType;
  sourceId: number | string;
  currency: string;
  /** Signed decimal strings: amount - fee = net. */
  amount: string;
  fee: string;
  net: string;
  /** When it becomes available: null for now. */
  availableOn: Date | string | null;
  /** Two or more, summing to 0. */
  entries: readonly Entry[];
};

/**
 * `currency`'s ISO minor units as SQL: the database's `minor_units` (migration 0047), two IN lists that the
 * planner inlines, not a CASE branch per currency: that expression is in every settle, and a CASE of 23
 * branches, twice, halved the settler's throughput (BENCHMARKS.md, "Settling on the ledger").
 */
export function minorUnitsSql(currency: SQL): SQL {
  return sql`minor_units(${currency})`;
}

/**
 * A completed payment's fee: percent of the amount plus a fixed count of minor units, rounded half up to the
 * currency's minor unit, exact: numeric throughout; a payment of 0 costs nothing (DESIGN.md, "Zero"). The
 * database's `payment_fee` (migration 0047), which settle_payment uses too: one rule.
 */
export function feeSql(amount: SQL, currency: SQL, percent: SQL, fixedMinorUnits: SQL): SQL {
  return sql`payment_fee(${amount}, ${currency}, ${percent}, ${fixedMinorUnits})`;
}

/**
 * Completed payments' money in the statement that completes them (CTEs, named `payment_*`): each row of
 * `source` (merchant_id, id, status, currency, amount, fee, net) whose status is `completed` posts a balance
 * transaction: the processor owes its amount (clearing), the fee is the platform's, the net the merchant's,
 * pending until completion + BALANCE_AVAILABLE_AFTER (available at once when that is 0); a payment of 0 posts
 * nothing (nothing moved). In the transition's
 * own statement, not one more: a settle one by one pays a round trip less (BENCHMARKS.md).
 */
export function paymentPostingCtes(source: SQL): SQL {
  const availableAfterMs = getEnv().BALANCE_AVAILABLE_AFTER;
  return sql`payment_posted as (
      insert into balance_transactions (merchant_id, type, source_id, currency, amount, fee, net, status, available_on)
      select merchant_id, 'payment', id, currency, amount, fee, net,
             case when ${availableAfterMs}::bigint = 0 then 'available' else 'pending' end,
             now() + ${availableAfterMs}::bigint * interval '1 millisecond'
      from ${source} where status = 'completed' and amount <> 0
      returning merchant_id, id, type, source_id, status, currency, amount, fee, net, created_at),
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

/**
 * A CTE that counts the balance transactions `posted` returns (merchant_id, type, currency, amount, fee, net,
 * created_at) in
 * their day's totals, each change to one slot, in key order. `prefix` names it apart from the statement's others.
 */
export const addToDailyTotals = (posted: SQL, prefix = "ledger") => sql`
  ${sql.identifier(`${prefix}_counted`)} as (
    insert into balance_transaction_daily_totals as d (merchant_id, day, type, currency, slot, count, amount, fee, net)
    select merchant_id, (created_at at time zone 'UTC')::date, type, currency,
           floor(random() * ${BALANCE_SLOTS})::smallint, count(*), sum(amount), sum(fee), sum(net)
    from ${posted} group by 1, 2, 3, 4 order by 1, 2, 3, 4
    on conflict (merchant_id, day, type, currency, slot) do update
      set count = d.count + excluded.count, amount = d.amount + excluded.amount, fee = d.fee + excluded.fee,
          net = d.net + excluded.net
    returning 1)`;

/**
 * A refund's money in the statement that makes or fails it (CTEs, named after `prefix`): the rows of
 * `source` (merchant_id, id, currency, amount) each post a balance transaction of `type` that moves their
 * amount between the available balance and clearing: out for a refund, back for its failure.
 */
export function refundPostingCtes(prefix: string, type: "refund" | "refund_failure", source: SQL): SQL {
  const signed = type === "refund" ? sql`-amount` : sql`amount`;
  const posted = sql.identifier(`${prefix}_posted`);
  const lines = sql.identifier(`${prefix}_lines`);
  return sql`${posted} as (
      insert into balance_transactions (merchant_id, type, source_id, currency, amount, fee, net, status, available_on)
      select merchant_id, ${type}, id, currency, ${signed}, 0, ${signed}, 'available', now() from ${source}
      returning merchant_id, id, type, currency, amount, fee, net, created_at),
    ${lines} as (
      select merchant_id, id as transaction_id, currency, account, moved as amount
      from ${posted}, lateral (values ('available', amount), ('clearing', -amount)) as entry (account, moved)),
    ${addToBalances(sql`${lines}`, "post", prefix)},
    ${addToDailyTotals(sql`${posted}`, prefix)}`;
}

/** Writes the postings (balance transactions, their entries, the balances): one statement. Returns their ids. */
export async function post(tx: Executor, postings: readonly Posting[]): Promise<string[]> {
  if (postings.length === 0) return [];
  const values = postings.map(
    (posting) =>
      sql`(${posting.merchantId}::bigint, ${posting.type}::text, ${posting.sourceId}::bigint, ${posting.currency}::text,
           ${posting.amount}::numeric, ${posting.fee}::numeric, ${posting.net}::numeric,
           coalesce(${posting.availableOn === null ? null : new Date(posting.availableOn).toISOString()}::timestamptz, now()),
           ${JSON.stringify(posting.entries.map(([account, amount]) => ({ account, amount })))}::jsonb)`,
  );
  const rows = await selectRows<{ id: string }>(
    tx,
    sql`with v (merchant_id, type, source_id, currency, amount, fee, net, available_on, entries) as (
          values ${sql.join(values, sql`, `)}),
        posted as (
          insert into balance_transactions (merchant_id, type, source_id, currency, amount, fee, net, status, available_on)
          select merchant_id, type, source_id, currency, amount, fee, net,
                 case when available_on <= now() then 'available' else 'pending' end, available_on
          from v
          returning merchant_id, id, type, source_id, status, currency, amount, fee, net, created_at),
        lines as (
          select p.merchant_id, p.id as transaction_id, v.currency, e.amount::numeric as amount,
                 case when e.account <> ${BALANCE} then e.account
                      when p.status = 'available' then 'available' else 'pending' end as account
          from posted p join v on v.merchant_id = p.merchant_id and v.type = p.type and v.source_id = p.source_id,
               jsonb_to_recordset(v.entries) as e(account text, amount text)),
        ${addToBalances(sql`lines`, "post")},
        ${addToDailyTotals(sql`posted`)}
        select id::text from posted`,
  );
  return rows.map((row) => row.id);
}
