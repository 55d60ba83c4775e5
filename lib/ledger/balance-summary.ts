import "server-only";
import { sql } from "drizzle-orm";
import { z } from "zod";
import { selectRows, type Executor } from "@/db/client";
import { BALANCE_TRANSACTION_TYPES, type BalanceTransactionType } from "@/db/enums";
import { inMinorUnits } from "@/lib/money/amount";
import { currencyField } from "@/lib/money/currencies";
import { queryDay } from "@/lib/platform/list-query";

// The accountant's month (DESIGN.md, "Reports"): opening balance, what moved it by type, closing balance, for
// one currency over whole UTC days. Read from the daily totals the postings keep, never the transactions.

/** The longest period one summary covers: a year, a leap year's included. */
export const MAX_REPORT_DAYS = 366;
export const DAY_MS = 86_400_000;

const money = z.string().describe('Signed, in its currency\'s minor units: "1250.00", "-42.10".');

/** GET /api/reports/balance-summary's `data`, in this key order. */
export const balanceSummarySchema = z.object({
  currency: z.string().describe('ISO 4217, upper case: "EUR".'),
  from: z.string().describe("The period's first UTC day, inclusive: `YYYY-MM-DD`."),
  to: z.string().describe("The UTC day after its last, exclusive: `YYYY-MM-DD`."),
  opening_balance: money.describe("Pending + available at the start of `from`."),
  activity: z
    .array(
      z.object({
        type: z.enum(BALANCE_TRANSACTION_TYPES),
        count: z.number().int(),
        amount: money,
        fee: money,
        net: money.describe("amount − fee."),
      }),
    )
    .describe("One line per type of balance transaction with any in the period, in the types' order."),
  closing_balance: money.describe("Pending + available at the start of `to`: opening + Σ activity.net."),
});
export type BalanceSummary = z.infer<typeof balanceSummarySchema>;

/** `currency`, `from`, `to`: a bad day, a `to` not after `from` or a period past a year is a 422 on `to`. */
export const balanceSummaryQuerySchema = z
  .object({
    currency: currencyField().describe("ISO 4217, any case; the merchant's default currency when absent."),
    from: queryDay("from").describe(
      "The first UTC day, inclusive; the first of the current month when absent.",
    ),
    to: queryDay("to").describe(
      "The UTC day after the last, exclusive; the first of the next month when absent.",
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
const monthStart = (time: number) => {
  const day = new Date(time);
  return Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), 1);
};
const nextMonthStart = (time: number) => {
  const day = new Date(time);
  return Date.UTC(day.getUTCFullYear(), day.getUTCMonth() + 1, 1);
};

/**
 * The period a query names: both days as given; `from` alone runs to the first of the next month, `to` alone
 * from the first of its last day's month; neither is the current UTC month.
 */
export function reportPeriod(query: Pick<BalanceSummaryQuery, "from" | "to">, now = Date.now()) {
  if (query.from && query.to) return { from: query.from, to: query.to };
  if (query.from) return { from: query.from, to: isoDay(nextMonthStart(Date.parse(query.from))) };
  if (query.to) return { from: isoDay(monthStart(Date.parse(query.to) - DAY_MS)), to: query.to };
  return { from: isoDay(monthStart(now)), to: isoDay(nextMonthStart(now)) };
}

type ActivityRow = {
  type: BalanceTransactionType;
  count: number | string;
  amount: string;
  fee: string;
  net: string;
};

/**
 * The summary of one currency over [from, to): each type's count and sums over the period's daily totals; the
 * closing balance is the ledger's balance now less the net of the days from `to` on, and the opening balance
 * the closing less the period's net, so `closing = opening + Σ net` holds exactly and a period that runs to
 * today closes at GET /api/balance's pending + available. The days read are those from `from` to today.
 */
export async function balanceSummary(
  db: Executor,
  merchantId: number,
  currency: string,
  period: { from: string; to: string },
): Promise<BalanceSummary> {
  const [row] = await selectRows<{ activity: ActivityRow[] | null; opening: string; closing: string }>(
    db,
    sql`with activity as (
          select type, sum(count) as count, sum(amount)::text as amount, sum(fee)::text as fee,
                 sum(net) as net
          from balance_transaction_daily_totals
          where merchant_id = ${merchantId} and currency = ${currency}
            and day >= ${period.from}::date and day < ${period.to}::date
          group by type),
        later as (
          select coalesce(sum(net), 0) as net from balance_transaction_daily_totals
          where merchant_id = ${merchantId} and currency = ${currency} and day >= ${period.to}::date),
        ledger as (
          select coalesce(sum(amount), 0) as total from ledger_balances
          where merchant_id = ${merchantId} and currency = ${currency} and account in ('available', 'pending'))
        select (select json_agg(json_build_object('type', type, 'count', count, 'amount', amount, 'fee', fee,
                                                  'net', net::text))
                from activity where count > 0) as activity,
               (ledger.total - later.net - coalesce((select sum(net) from activity), 0))::text as opening,
               (ledger.total - later.net)::text as closing
        from ledger, later`,
  );
  const lines = row!.activity ?? [];
  const order = (type: BalanceTransactionType) => BALANCE_TRANSACTION_TYPES.indexOf(type);
  return {
    currency,
    from: period.from,
    to: period.to,
    opening_balance: inMinorUnits(row!.opening, currency),
    activity: lines
      .sort((a, b) => order(a.type) - order(b.type))
      .map((line) => ({
        type: line.type,
        count: Number(line.count),
        amount: inMinorUnits(line.amount, currency),
        fee: inMinorUnits(line.fee, currency),
        net: inMinorUnits(line.net, currency),
      })),
    closing_balance: inMinorUnits(row!.closing, currency),
  };
}

/**
 * The Reports page's mark: the balance at `before` (a UTC day's start) summed from every transaction's daily
 * totals before it, to compare with the summary's closing balance, which starts from the ledger's accounts
 * (ledger_balances). Equal when the transactions and the ledger agree. A few rows per day of history.
 */
export async function balanceFromTransactions(
  db: Executor,
  merchantId: number,
  currency: string,
  before: string,
): Promise<string> {
  const [row] = await selectRows<{ total: string }>(
    db,
    sql`select coalesce(sum(net), 0)::text as total from balance_transaction_daily_totals
        where merchant_id = ${merchantId} and currency = ${currency} and day < ${before}::date`,
  );
  return inMinorUnits(row!.total, currency);
}
