// The money's pages at scale (`npm run bench:api`, BENCH_ONLY=dashboard; BENCH_PAYMENTS=10000000 for the figures
// in BENCHMARKS.md): a currency's list and the Overview's currency switch (issue 42), the disputes' lists and
// a dispute's page (issue 44), and with BENCH_LEDGER=1 the balance and its transactions' pages (issue 43), each
// beside a single payment's page, which the issues hold them to (at most 1.5 times it).
import { time } from "./filters";
import type { BenchSeed } from "./seed";

type Page = { data: Array<{ id: number; payment_id?: number }>; meta: { last_page: number } };

async function firstPage(baseUrl: string, path: string, token: string): Promise<Page> {
  const response = await fetch(`${baseUrl}${path}`, { headers: { Authorization: `Bearer ${token}` } });
  if (response.status !== 200) throw new Error(`${path} answered ${response.status}`);
  return (await response.json()) as Page;
}

export async function measureMoneyPages(baseUrl: string, seed: BenchSeed, cookie: string) {
  const api = { Authorization: `Bearer ${seed.tokens[0]}` };
  const disputes = await firstPage(baseUrl, "/api/disputes", seed.tokens[0]!);
  const dispute = disputes.data[0]!;
  const deepDisputes = Math.max(1, Math.floor(disputes.meta.last_page / 2));
  const onePayment = seed.firstPaymentId + Math.floor(seed.payments / 2);
  const pages: Array<[string, string]> = [
    ["GET /api/payments/{id} (one payment)", `/api/payments/${onePayment}`],
    ["Dashboard /payments/{id} (one payment)", `/dashboard/payments/${onePayment}`],
    ["GET /api/payments?currency=JPY (page 1)", "/api/payments?currency=JPY"],
    ["GET /api/payments?currency=JPY&page=20000", "/api/payments?currency=JPY&page=20000"],
    [
      "GET /api/payments?currency=KWD&status=completed&page=1000",
      "/api/payments?currency=KWD&status=completed&page=1000",
    ],
    ["Dashboard /payments?currency=JPY (page 1)", "/dashboard/payments?currency=JPY"],
    ["Dashboard /payments?currency=JPY&page=20000", "/dashboard/payments?currency=JPY&page=20000"],
    ["Dashboard /payments?currency=EUR&status=failed", "/dashboard/payments?currency=EUR&status=failed"],
    ["Dashboard Overview (USD, the default)", "/dashboard"],
    ["Dashboard Overview, switched to EUR", "/dashboard?currency=EUR"],
    ["Dashboard Overview, switched to KWD, 90 days", "/dashboard?currency=KWD&range=90"],
    ["Dashboard /customers/{the big customer} (four currencies)", `/dashboard/customers/${seed.bigCustomer}`],
    ["GET /api/disputes (page 1)", "/api/disputes"],
    [`GET /api/disputes?page=${deepDisputes}`, `/api/disputes?page=${deepDisputes}`],
    ["GET /api/disputes?status=needs_response", "/api/disputes?status=needs_response"],
    ["GET /api/disputes/{id}", `/api/disputes/${dispute.id}`],
    ["Dashboard /disputes (page 1)", "/dashboard/disputes"],
    [`Dashboard /disputes?page=${deepDisputes}`, `/dashboard/disputes?page=${deepDisputes}`],
    ["Dashboard /disputes?status=lost", "/dashboard/disputes?status=lost"],
    ["Dashboard /disputes/{id}", `/dashboard/disputes/${dispute.id}`],
    ["Dashboard /payments/{id} of a disputed payment", `/dashboard/payments/${dispute.payment_id}`],
  ];
  if (seed.ledgerBackfillSeconds !== undefined) {
    const transactions = await firstPage(baseUrl, "/api/balance-transactions", seed.tokens[0]!);
    const deep = Math.floor(transactions.meta.last_page / 2);
    // The dashboard pages 25 at a time, the API 15: the same middle.
    const deepDashboard = Math.floor((transactions.meta.last_page * 15) / 25 / 2);
    const day = (time: number) => new Date(time).toISOString().slice(0, 10);
    const now = new Date();
    const lastMonth = {
      from: day(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1)),
      to: day(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)),
      lastDay: day(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 0)),
      month: day(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1)).slice(0, 7),
    };
    const tomorrow = day(Date.now() + 86_400_000);
    const yearAgo = day(Date.now() - 365 * 86_400_000);
    pages.push(
      ["GET /api/balance", "/api/balance"],
      ["GET /api/balance-transactions (page 1)", "/api/balance-transactions"],
      [`GET /api/balance-transactions?page=${deep}`, `/api/balance-transactions?page=${deep}`],
      ["GET /api/balance-transactions?currency=JPY", "/api/balance-transactions?currency=JPY"],
      ["GET /api/balance-transactions/{id}", `/api/balance-transactions/${transactions.data[0]!.id}`],
      ["Dashboard /balance", "/dashboard/balance"],
      ["Dashboard /balance?currency=EUR", "/dashboard/balance?currency=EUR"],
      // The accountant's (issue 58): a month's and a year's summary, the Reports page, All transactions.
      [
        "GET /api/reports/balance-summary (last month, USD)",
        `/api/reports/balance-summary?currency=USD&from=${lastMonth.from}&to=${lastMonth.to}`,
      ],
      // The second round (issue 69): the same month in Berlin, whose days start at 23:00 or 22:00 UTC (its
      // part-days read from the quarter-hour totals), and the month's payout reconciliation.
      [
        "GET /api/reports/balance-summary (last month, USD, Europe/Berlin)",
        `/api/reports/balance-summary?currency=USD&from=${lastMonth.from}&to=${lastMonth.to}&timezone=Europe/Berlin`,
      ],
      [
        "GET /api/reports/payout-reconciliation (last month, USD)",
        `/api/reports/payout-reconciliation?currency=USD&from=${lastMonth.from}&to=${lastMonth.to}`,
      ],
      [
        "GET /api/reports/payout-reconciliation (last month, USD, Europe/Berlin)",
        `/api/reports/payout-reconciliation?currency=USD&from=${lastMonth.from}&to=${lastMonth.to}&timezone=Europe/Berlin`,
      ],
      [
        "Dashboard /reports/payouts (last month, USD)",
        `/dashboard/reports/payouts?currency=USD&month=${lastMonth.month}`,
      ],
      [
        "GET /api/reports/balance-summary (366 days to today, EUR)",
        `/api/reports/balance-summary?currency=EUR&from=${yearAgo}&to=${tomorrow}`,
      ],
      ["Dashboard /reports (last month, USD)", `/dashboard/reports?currency=USD&month=${lastMonth.month}`],
      ["Dashboard /balance/transactions (page 1)", "/dashboard/balance/transactions"],
      [
        `Dashboard /balance/transactions?page=${deepDashboard}`,
        `/dashboard/balance/transactions?page=${deepDashboard}`,
      ],
      [
        "Dashboard /balance/transactions?type=refund&currency=EUR",
        "/dashboard/balance/transactions?type=refund&currency=EUR",
      ],
      [
        "Dashboard /balance/transactions, last month's days",
        `/dashboard/balance/transactions?from=${lastMonth.from}&to=${lastMonth.lastDay}`,
      ],
    );
  }
  const rows: Array<Record<string, string | number>> = [];
  for (const [name, path] of pages)
    rows.push({
      Request: name,
      ...(await time(`${baseUrl}${path}`, path.startsWith("/api") ? api : { cookie })),
    });
  return rows;
}
