import "server-only";
import { sql } from "drizzle-orm";
import { selectRows, type Executor } from "@/db/client";
import { inMinorUnits } from "@/lib/money/amount";

export type LedgerReport = {
  transactions: number;
  entries: number;
  accounts: number;
  /** Postings whose entries do not sum to 0. */
  unbalanced_postings: number;
  /** Accounts whose kept balance differs from the sum of their entries. */
  balance_mismatches: number;
  /** Balance transactions whose entries on the merchant's accounts differ from their net. */
  net_mismatches: number;
  /**
   * Days and quarter hours whose kept totals (balance_transaction_daily_totals, _quarter_hour_totals) differ
   * from their transactions.
   */
  daily_total_mismatches: number;
  /**
   * Payouts whose carried transactions do not add up to their amount (all but payouts of part made before
   * migration 0062), or whose reconciliation lines (payout_type_totals) do not.
   */
  payout_mismatches: number;
  ok: boolean;
};

const count = (rows: Array<{ n: number | string }>) => Number(rows[0]?.n ?? 0);

/** Days or quarter hours whose kept totals differ from their transactions' (counted, summed). */
const totalsOff = (db: Executor, bucket: "day" | "quarter_hour") =>
  selectRows<{ n: number }>(
    db,
    sql`select count(*) as n from (
            select merchant_id, ${sql.raw(bucket)}, type, currency, sum(count) as count, sum(amount) as amount,
                   sum(fee) as fee, sum(net) as net
            from ${sql.raw(bucket === "day" ? "balance_transaction_daily_totals" : "balance_transaction_quarter_hour_totals")}
            group by 1, 2, 3, 4) kept
          full join (
            select merchant_id,
                   ${sql.raw(bucket === "day" ? "(created_at at time zone 'UTC')::date" : "date_bin('15 minutes', created_at, timestamptz '2000-01-01 00:00:00+00')")} as ${sql.raw(bucket)},
                   type, currency, count(*) as count, sum(amount) as amount, sum(fee) as fee, sum(net) as net
            from balance_transactions group by 1, 2, 3, 4) posted
          using (merchant_id, ${sql.raw(bucket)}, type, currency)
          where coalesce(kept.count, 0) <> coalesce(posted.count, 0) or coalesce(kept.net, 0) <> coalesce(posted.net, 0)
             or coalesce(kept.amount, 0) <> coalesce(posted.amount, 0) or coalesce(kept.fee, 0) <> coalesce(posted.fee, 0)`,
  );

/**
 * `npm run admin -- ledger:verify`: the books balance. Every posting sums to 0, every account's kept balance
 * (ledger_balances) equals its entries, every balance transaction moved its net on the merchant's
 * accounts, each day's kept totals equal its transactions, and every payout's carried transactions and reconciliation lines add up to it. Reads the whole ledger: an operator's check, never on a request's path.
 */
export async function verifyLedger(db: Executor): Promise<LedgerReport> {
  const [transactions, entries, accounts, unbalanced, mismatched, netOff, dailyOff, quarterOff, payoutsOff] =
    await Promise.all([
      selectRows<{ n: number }>(db, sql`select count(*) as n from balance_transactions`),
      selectRows<{ n: number }>(db, sql`select count(*) as n from ledger_entries`),
      selectRows<{ n: number }>(
        db,
        sql`select count(*) as n from (select distinct merchant_id, account, currency from ledger_balances) a`,
      ),
      selectRows<{ n: number }>(
        db,
        sql`select count(*) as n from (
            select 1 from ledger_entries group by merchant_id, transaction_id, posting having sum(amount) <> 0) u`,
      ),
      selectRows<{ n: number }>(
        db,
        sql`select count(*) as n from (
            select merchant_id, account, currency, sum(amount) as kept from ledger_balances group by 1, 2, 3) b
          full join (
            select merchant_id, account, currency, sum(amount) as entered from ledger_entries group by 1, 2, 3) e
          using (merchant_id, account, currency)
          where coalesce(kept, 0) <> coalesce(entered, 0)`,
      ),
      selectRows<{ n: number }>(
        db,
        sql`select count(*) as n from balance_transactions t
          left join lateral (
            select sum(amount) as moved from ledger_entries e
            where e.merchant_id = t.merchant_id and e.transaction_id = t.id and e.posting = 'post'
              and e.account in ('pending', 'available')) m on true
          where coalesce(m.moved, 0) <> t.net`,
      ),
      totalsOff(db, "day"),
      totalsOff(db, "quarter_hour"),
      selectRows<{ n: number }>(
        db,
        sql`select count(*) as n from payouts p
          left join lateral (
            select sum(net) as carried from balance_transactions t
            where t.merchant_id = p.merchant_id and t.payout_id = p.id
              and not (t.type = 'payout' and t.source_id = p.id)) c on true
          left join lateral (
            select sum(net) as lined from payout_type_totals l
            where l.merchant_id = p.merchant_id and l.payout_id = p.id) l on true
          where (p.reconciled and coalesce(c.carried, 0) <> p.amount) or coalesce(l.lined, 0) <> p.amount`,
      ),
    ]);
  const report = {
    transactions: count(transactions),
    entries: count(entries),
    accounts: count(accounts),
    unbalanced_postings: count(unbalanced),
    balance_mismatches: count(mismatched),
    net_mismatches: count(netOff),
    daily_total_mismatches: count(dailyOff) + count(quarterOff),
    payout_mismatches: count(payoutsOff),
  };
  return {
    ...report,
    ok:
      report.unbalanced_postings === 0 &&
      report.balance_mismatches === 0 &&
      report.net_mismatches === 0 &&
      report.daily_total_mismatches === 0 &&
      report.payout_mismatches === 0,
  };
}

/**
 * `ledger:verify --email …`: one merchant's balance per currency summed from its ledger entries (pending +
 * available), not from the kept balances: what a report's closing balance must equal.
 */
export async function ledgerEntryBalances(
  db: Executor,
  merchantId: number,
): Promise<Array<{ currency: string; pending: string; available: string; total: string }>> {
  const rows = await selectRows<{ currency: string; pending: string; available: string; total: string }>(
    db,
    sql`select currency,
               coalesce(sum(amount) filter (where account = 'pending'), 0)::text as pending,
               coalesce(sum(amount) filter (where account = 'available'), 0)::text as available,
               sum(amount)::text as total
        from ledger_entries
        where merchant_id = ${merchantId} and account in ('pending', 'available')
        group by currency order by currency`,
  );
  return rows.map((row) => ({
    currency: row.currency,
    pending: inMinorUnits(row.pending, row.currency),
    available: inMinorUnits(row.available, row.currency),
    total: inMinorUnits(row.total, row.currency),
  }));
}
