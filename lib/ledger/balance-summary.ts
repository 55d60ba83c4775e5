import "server-only";
import { sql } from "drizzle-orm";
import { z } from "zod";
import { selectRows, type Executor } from "@/db/client";
import { BALANCE_TRANSACTION_TYPES, type BalanceTransactionType } from "@/db/enums";
import { inMinorUnits } from "@/lib/money/amount";
import { currencyField } from "@/lib/money/currencies";
import { queryDay } from "@/lib/platform/list-query";
import { timeZoneField, zonedDay, zonedDayStart } from "@/lib/platform/time-zones";
import { totalsRows } from "./period-totals";

// The accountant's month (DESIGN.md, "Reports"), in Stripe's shape: the opening balance (pending and available),
// the activity by type and its net, the payouts, the closing balance (pending and available), for one currency
// over whole days of the report's time zone. Read from the totals the postings keep (period-totals.ts), never
// the transactions.

/** The longest period one summary covers: a year, a leap year's included. */
export const MAX_REPORT_DAYS = 366;
export const DAY_MS = 86_400_000;

const money = z.string().describe('Signed, in its currency\'s minor units: "1250.00", "-42.10".');

/**
 * The payout types, which the summary shows apart from the activity (DESIGN.md, "Payouts apart"): payouts, their
 * returns, and a payout of part's forward (carried and brought, netting to nothing).
 */
export const PAYOUT_TYPES: readonly BalanceTransactionType[] = [
  "payout",
  "payout_failure",
  "carried_forward",
  "brought_forward",
];

const summaryLine = z.object({
  type: z.enum(BALANCE_TRANSACTION_TYPES),
  count: z.number().int(),
  amount: money,
  fee: money,
  net: money.describe("amount − fee."),
});

/** GET /api/reports/balance-summary's `data`, in this key order. */
export const balanceSummarySchema = z.object({
  currency: z.string().describe('ISO 4217, upper case: "EUR".'),
  timezone: z.string().describe('The IANA time zone the days are in: "UTC", "Europe/Berlin".'),
  from: z.string().describe("The period's first day, inclusive: `YYYY-MM-DD`."),
  to: z.string().describe("The day after its last, exclusive: `YYYY-MM-DD`."),
  opening_balance: money.describe("Pending + available at the start of `from`."),
  opening_pending: money.describe(
    "Of the opening balance, what was not yet available (available_on still ahead).",
  ),
  opening_available: money.describe("Of the opening balance, what was available."),
  activity: z
    .array(summaryLine)
    .describe(
      "One line per type of balance transaction with any in the period, in the types' order; the payouts apart.",
    ),
  net_activity: money.describe("Σ activity.net: what the period's activity added before payouts."),
  payouts: z
    .array(summaryLine)
    .describe(
      "The period's payouts (`payout`), returned payouts (`payout_failure`), and what payouts of part carried " +
        "forward and brought forward (`carried_forward`, `brought_forward`), a line per type.",
    ),
  closing_balance: money.describe(
    "Pending + available at the start of `to`: opening + net_activity + Σ payouts.net, exactly.",
  ),
  closing_pending: money.describe("Of the closing balance, what was not yet available."),
  closing_available: money.describe("Of the closing balance, what was available."),
});
export type BalanceSummary = z.infer<typeof balanceSummarySchema>;

/** `currency`, `from`, `to`: a bad day, a `to` not after `from` or a period past a year is a 422 on `to`. */
export const balanceSummaryQuerySchema = z
  .object({
    currency: currencyField().describe("ISO 4217, any case; the merchant's default currency when absent."),
    from: queryDay("from").describe("The first day, inclusive; the first of the current month when absent."),
    to: queryDay("to").describe(
      "The day after the last, exclusive; the first of the next month when absent.",
    ),
    timezone: timeZoneField().describe(
      "The IANA time zone the days are in; the merchant's report time zone (Settings) when absent.",
    ),
  })
  .superRefine((query, ctx) => {
    if (!query.from || !query.to) return;
    const days = (Date.parse(query.to) - Date.parse(query.from)) / DAY_MS;
    if (days <= 0)
      ctx.addIssue({ code: "custom", path: ["to"], message: "The to field must be a date after from." });
    else if (days > MAX_REPORT_DAYS)
      ctx.addIssue({
        code: "custom",
        path: ["to"],
        message: `The to field must be at most ${MAX_REPORT_DAYS} days after from.`,
      });
  });
export type BalanceSummaryQuery = z.output<typeof balanceSummaryQuerySchema>;

/** The UTC day of an instant, `YYYY-MM-DD`. */
export const isoDay = (time: number) => new Date(time).toISOString().slice(0, 10);
const monthStart = (day: string) => `${day.slice(0, 7)}-01`;
const nextMonthStart = (day: string) => {
  const [year, month] = day.split("-").map(Number) as [number, number];
  return isoDay(Date.UTC(year, month, 1));
};

/**
 * The period a query names: both days as given; `from` alone runs to the first of the next month, `to` alone
 * from the first of its last day's month; neither is the current month in the report's time zone.
 */
export function reportPeriod(
  query: Pick<BalanceSummaryQuery, "from" | "to">,
  timeZone = "UTC",
  now = Date.now(),
) {
  if (query.from && query.to) return { from: query.from, to: query.to };
  if (query.from) return { from: query.from, to: nextMonthStart(query.from) };
  if (query.to) return { from: monthStart(isoDay(Date.parse(query.to) - DAY_MS)), to: query.to };
  const today = zonedDay(now, timeZone);
  return { from: monthStart(today), to: nextMonthStart(today) };
}

/** A report's period as instants: where its first day starts and where the day after its last starts. */
export function periodInstants(period: { from: string; to: string }, timeZone: string) {
  return { from: zonedDayStart(period.from, timeZone), to: zonedDayStart(period.to, timeZone) };
}

type ActivityRow = {
  type: BalanceTransactionType;
  count: number | string;
  amount: string;
  fee: string;
  net: string;
};

/**
 * The summary of one currency over [from, to) in a time zone. Each type's count and sums over the period's
 * totals; the closing balance is the ledger's balance now less the net of everything from `to` on, and the
 * opening balance the closing less the period's net, so `closing = opening + Σ net` holds exactly and a period
 * that runs to today closes at GET /api/balance's pending + available. Pending at an instant is what was
 * created before it and becomes available after: the net available from then on less the net created from
 * then on (both in the totals).
 */
export async function balanceSummary(
  db: Executor,
  merchantId: number,
  currency: string,
  period: { from: string; to: string },
  timeZone: string,
): Promise<BalanceSummary> {
  const { from, to } = periodInstants(period, timeZone);
  const [row] = await selectRows<{
    activity: ActivityRow[] | null;
    net_activity: string;
    opening: string;
    opening_pending: string;
    opening_available: string;
    closing: string;
    closing_pending: string;
    closing_available: string;
  }>(
    db,
    sql`with period as (${totalsRows(merchantId, currency, from, to)}),
        later as (${totalsRows(merchantId, currency, to, null)}),
        activity as (
          select type, sum(count) as count, sum(amount)::text as amount, sum(fee)::text as fee,
                 sum(net)::text as net
          from period group by type),
        period_sums as (
          select coalesce(sum(net), 0) as net, coalesce(sum(available), 0) as available,
                 coalesce(sum(net) filter (where type not in (${sql.join(
                   PAYOUT_TYPES.map((type) => sql`${type}`),
                   sql`, `,
                 )})), 0) as activity
          from period),
        later_sums as (select coalesce(sum(net), 0) as net, coalesce(sum(available), 0) as available from later),
        ledger as (
          select coalesce(sum(amount), 0) as total from ledger_balances
          where merchant_id = ${merchantId} and currency = ${currency} and account in ('available', 'pending')),
        closing as (
          select ledger.total - later_sums.net as balance, later_sums.available - later_sums.net as pending
          from ledger, later_sums)
        select (select json_agg(json_build_object('type', type, 'count', count, 'amount', amount, 'fee', fee,
                                                  'net', net))
                from activity where count > 0) as activity,
               period_sums.activity::text as net_activity,
               (closing.balance - period_sums.net)::text as opening,
               (closing.pending + period_sums.available - period_sums.net)::text as opening_pending,
               (closing.balance - closing.pending - period_sums.available)::text as opening_available,
               closing.balance::text as closing, closing.pending::text as closing_pending,
               (closing.balance - closing.pending)::text as closing_available
        from period_sums, closing`,
  );
  const money = (value: string) => inMinorUnits(value, currency);
  const order = (type: BalanceTransactionType) => BALANCE_TRANSACTION_TYPES.indexOf(type);
  const lines = (row!.activity ?? [])
    .sort((a, b) => order(a.type) - order(b.type))
    .map((line) => ({
      type: line.type,
      count: Number(line.count),
      amount: inMinorUnits(line.amount, currency),
      fee: inMinorUnits(line.fee, currency),
      net: inMinorUnits(line.net, currency),
    }));
  return {
    currency,
    timezone: timeZone,
    from: period.from,
    to: period.to,
    opening_balance: money(row!.opening),
    opening_pending: money(row!.opening_pending),
    opening_available: money(row!.opening_available),
    activity: lines.filter((line) => !PAYOUT_TYPES.includes(line.type)),
    net_activity: money(row!.net_activity),
    payouts: lines.filter((line) => PAYOUT_TYPES.includes(line.type)),
    closing_balance: money(row!.closing),
    closing_pending: money(row!.closing_pending),
    closing_available: money(row!.closing_available),
  };
}

/**
 * The Reports page's mark: the balance at `before` (an instant on a quarter hour) summed from every
 * transaction's totals before it, to compare with the summary's closing balance, which starts from the ledger's
 * accounts (ledger_balances). Equal when the transactions and the ledger agree. A few rows per day of history.
 */
export async function balanceFromTransactions(
  db: Executor,
  merchantId: number,
  currency: string,
  before: Date,
): Promise<string> {
  const [row] = await selectRows<{ total: string }>(
    db,
    sql`select coalesce(sum(net), 0)::text as total from (${totalsRows(merchantId, currency, null, before)}) rows`,
  );
  return inMinorUnits(row!.total, currency);
}
