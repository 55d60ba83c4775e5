import "server-only";
import { sql } from "drizzle-orm";
import { z } from "zod";
import { selectRows, type Executor } from "@/db/client";
import { BALANCE_TRANSACTION_TYPES, PAYOUT_STATUSES } from "@/db/enums";
import { inMinorUnits } from "@/lib/money/amount";
import { isoTimestamp } from "@/lib/platform/timestamps";
import { periodInstants } from "./balance-summary";
import { totalsRows } from "./period-totals";

// Payout reconciliation (DESIGN.md, "Payout reconciliation"), as Stripe's report: each payout made in the period
// with what it paid by type, adding up to its amount (payout_type_totals, written when it was made: a failed
// payout's money paid back counts as that payout's lines), then what was not yet paid out at the period's end,
// which adds up to the closing balance. Read from totals, never the transactions.

/**
 * The lines' types: the balance transactions', and `itemized_later` for a payout of part made before migration
 * 0062, which carried nothing (the next payout of all lists its transactions, with its debit).
 */
export const RECONCILIATION_LINE_TYPES = [...BALANCE_TRANSACTION_TYPES, "itemized_later"] as const;
export type ReconciliationLineType = (typeof RECONCILIATION_LINE_TYPES)[number];

const money = z.string().describe('Signed, in its currency\'s minor units: "1250.00".');
const reconciliationLine = z.object({
  type: z
    .enum(RECONCILIATION_LINE_TYPES)
    .describe(
      "A balance transaction type (`carried_forward`: what a payout of part's last transaction brought past " +
        "its amount, which a later payout pays as `brought_forward`), or `itemized_later`: a payout of part " +
        "made before these reports, which carried nothing (the next payout of all lists its transactions).",
    ),
  count: z.number().int(),
  amount: money,
  fee: money,
  net: money,
});
export type ReconciliationLine = z.infer<typeof reconciliationLine>;

/** GET /api/reports/payout-reconciliation's `data`. */
export const payoutReconciliationSchema = z.object({
  currency: z.string(),
  timezone: z.string(),
  from: z.string().describe("The period's first day, inclusive."),
  to: z.string().describe("The day after its last, exclusive."),
  payouts: z
    .array(
      z.object({
        id: z.number().int(),
        status: z.enum(PAYOUT_STATUSES),
        amount: money,
        arrival_date: z.string(),
        created_at: z.string(),
        lines: z.array(reconciliationLine).describe("What it paid, by type: Σ net = amount."),
      }),
    )
    .describe("Every payout made in the period, oldest first."),
  unpaid: z
    .array(reconciliationLine)
    .describe("What was not yet paid out at the end of the period, by type (pending money included)."),
  unpaid_total: money.describe("Σ unpaid.net: the closing balance."),
});
export type PayoutReconciliation = z.infer<typeof payoutReconciliationSchema>;

type LineRow = { type: ReconciliationLineType; count: string; amount: string; fee: string; net: string };
type PayoutRow = {
  id: number | string;
  status: PayoutReconciliation["payouts"][number]["status"];
  amount: string;
  arrival_date: string;
  created_at: Date | string;
  lines: LineRow[] | null;
};

const TYPE_ORDER = (type: ReconciliationLineType) => RECONCILIATION_LINE_TYPES.indexOf(type);

function toLines(rows: LineRow[], currency: string): ReconciliationLine[] {
  return rows
    .filter((row) => Number(row.count) !== 0 || Number(row.net) !== 0)
    .sort((a, b) => TYPE_ORDER(a.type) - TYPE_ORDER(b.type))
    .map((row) => ({
      type: row.type,
      count: Number(row.count),
      amount: inMinorUnits(row.amount, currency),
      fee: inMinorUnits(row.fee, currency),
      net: inMinorUnits(row.net, currency),
    }));
}

/**
 * The reconciliation of one currency over [from, to) in a time zone. Unpaid at the end: every transaction
 * created before it but the payouts' own, less what the payouts in effect then paid (made before it, and not
 * failed or canceled before it, whose money a later payout then paid), by type.
 */
export async function payoutReconciliation(
  db: Executor,
  merchantId: number,
  currency: string,
  period: { from: string; to: string },
  timeZone: string,
): Promise<PayoutReconciliation> {
  const { from, to } = periodInstants(period, timeZone);
  const scope = sql`p.merchant_id = ${merchantId} and p.currency = ${currency}`;
  const end = to.toISOString();
  const [row] = await selectRows<{ payouts: PayoutRow[] | null; unpaid: LineRow[] | null; total: string }>(
    db,
    sql`with made as (
          select p.id, p.status, p.amount::text as amount, to_char(p.arrival_date, 'YYYY-MM-DD') as arrival_date,
                 p.created_at,
                 (select json_agg(json_build_object('type', t.type, 'count', t.count, 'amount', t.amount::text,
                                                    'fee', t.fee::text, 'net', t.net::text))
                  from payout_type_totals t where t.merchant_id = p.merchant_id and t.payout_id = p.id) as lines
          from payouts p
          where ${scope} and p.created_at >= ${from.toISOString()} and p.created_at < ${end}
),
        created as (
          select type, sum(count) as count, sum(amount) as amount, sum(fee) as fee, sum(net) as net
          from (${totalsRows(merchantId, currency, null, to)}) rows
          -- The payouts' own debits and returns: a payout's lines count what they paid instead.
          where type not in ('payout', 'payout_failure')
          group by type),
        paid as (
          select t.type, sum(t.count) as count, sum(t.amount) as amount, sum(t.fee) as fee, sum(t.net) as net
          from payouts p join payout_type_totals t on t.merchant_id = p.merchant_id and t.payout_id = p.id
          where ${scope} and p.created_at < ${end}
            and not (p.status in ('failed', 'canceled') and p.updated_at < ${end})
          group by t.type),
        unpaid as (
          select coalesce(c.type, d.type) as type, coalesce(c.count, 0) - coalesce(d.count, 0) as count,
                 coalesce(c.amount, 0) - coalesce(d.amount, 0) as amount,
                 coalesce(c.fee, 0) - coalesce(d.fee, 0) as fee, coalesce(c.net, 0) - coalesce(d.net, 0) as net
          from created c full join paid d on d.type = c.type)
        select (select json_agg(json_build_object('id', id, 'status', status, 'amount', amount,
                                                  'arrival_date', arrival_date, 'created_at', created_at,
                                                  'lines', lines) order by created_at, id)
                from made) as payouts,
               (select json_agg(json_build_object('type', type, 'count', count, 'amount', amount::text,
                                                  'fee', fee::text, 'net', net::text)) from unpaid) as unpaid,
               (select coalesce(sum(net), 0)::text from unpaid) as total`,
  );
  return {
    currency,
    timezone: timeZone,
    from: period.from,
    to: period.to,
    payouts: (row!.payouts ?? []).map((payout) => ({
      id: Number(payout.id),
      status: payout.status,
      amount: inMinorUnits(payout.amount, currency),
      arrival_date: payout.arrival_date,
      created_at: isoTimestamp(payout.created_at),
      lines: toLines(payout.lines ?? [], currency),
    })),
    unpaid: toLines(row!.unpaid ?? [], currency),
    unpaid_total: inMinorUnits(row!.total, currency),
  };
}
