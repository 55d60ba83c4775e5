// The accountant's month over real HTTP (DESIGN.md, "Reports: the accountant's month"): a balance summary adds
// up (closing = opening + Σ net, to the minor unit), a month opens where the last closed, a period that runs to
// today closes at the balance, each merchant sees its own, and bad input is a 422 naming the parameter.
import { inject, describe, expect, it } from "vitest";
import { callApi } from "../support/api-client";
import { runCliAsync } from "../support/cli-process";
import { cents, expectSummaryAddsUp, type Line, type Summary } from "../support/report-summary";
import { adminCliEnvironment, runAdmin } from "../support/test-server";

const baseUrl = inject("baseUrl");
const { tokens, accountant } = inject("data");
const serverEnv = inject("serverEnv");

const summary = async (query: string, token = tokens.accountant) => {
  const response = await callApi(baseUrl, `/api/reports/balance-summary?${query}`, { token });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return (response.body as { data: Summary }).data;
};
/** A line of the CLI's balance summary, as it prints one. */
const printedLine = (line: Line) =>
  `  ${line.type}  ${line.count} transaction${line.count === 1 ? "" : "s"}  amount ${line.amount}  fee ${line.fee}  net ${line.net}`;
const day = (time: number) => new Date(time).toISOString().slice(0, 10);
const nextMonth = (first: string) => {
  const date = new Date(`${first}T00:00:00Z`);
  return day(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1));
};

describe("GET /api/reports/balance-summary", () => {
  it("sums last month by type, and this month opens where it closed and closes at the balance", async () => {
    const lastMonth = await summary(
      `currency=eur&from=${accountant.month}&to=${nextMonth(accountant.month)}`,
    );
    expect(lastMonth).toMatchObject({ currency: "EUR", from: accountant.month, opening_balance: "0.00" });
    expect(lastMonth.activity.map((line) => line.type)).toEqual([
      "payment",
      "refund",
      "dispute",
      "dispute_won",
    ]);
    // The payout of part carried the oldest payment, and carried forward what it brought past its amount.
    expect(lastMonth.payouts.map((line) => line.type)).toEqual([
      "payout",
      "payout_failure",
      "carried_forward",
      "brought_forward",
    ]);
    // Every payout in that month paid out all there was: it closed at nothing, pending or available.
    expect(lastMonth).toMatchObject({ timezone: "UTC", closing_pending: "0.00", closing_available: "0.00" });
    expect(lastMonth.activity.find((line) => line.type === "payment")).toMatchObject({
      count: 4,
      amount: "175.00",
    });
    expectSummaryAddsUp(lastMonth);

    // Today: one more payment, completed.
    const created = await callApi(baseUrl, "/api/payments", {
      token: tokens.accountant,
      json: { amount: "12.34", currency: "EUR" },
    });
    const id = Number(created.headers.get("location")!.split("/").at(-1));
    const settled = await callApi(baseUrl, `/api/test-helpers/payments/${id}/settle`, {
      token: tokens.accountant,
      json: { outcome: "completed" },
    });
    expect([200, 409]).toContain(settled.status);

    const tomorrow = day(Date.now() + 86_400_000);
    const since = await summary(`currency=EUR&from=${lastMonth.to}&to=${tomorrow}`);
    expect(since.opening_balance).toBe(lastMonth.closing_balance);
    expect(since.activity.find((line) => line.type === "payment")).toMatchObject({
      count: 1,
      amount: "12.34",
    });
    expectSummaryAddsUp(since);
    const balance = (await callApi(baseUrl, "/api/balance", { token: tokens.accountant })).body as {
      data: Record<"available" | "pending", Array<{ currency: string; amount: string }>>;
    };
    const eur = (list: Array<{ currency: string; amount: string }>) =>
      cents(list.find((entry) => entry.currency === "EUR")?.amount ?? "0.00");
    expect(cents(since.closing_balance)).toBe(eur(balance.data.available) + eur(balance.data.pending));

    // Both at once, and the days before any activity: the same figures.
    const both = await summary(`currency=EUR&from=${accountant.month}&to=${tomorrow}`);
    expect([both.opening_balance, both.closing_balance]).toEqual(["0.00", since.closing_balance]);
    const before = await summary(`currency=EUR&from=2026-01-01&to=${accountant.month}`);
    expect(before).toMatchObject({ opening_balance: "0.00", activity: [], closing_balance: "0.00" });
  });

  it("defaults to the merchant's default currency and the current month", async () => {
    const now = new Date();
    const first = day(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
    const report = await summary("");
    expect(report).toMatchObject({ currency: "USD", from: first, to: nextMonth(first) });
    expect((await summary(`from=${first}`)).to).toBe(nextMonth(first));
    expect((await summary(`to=${nextMonth(first)}`)).from).toBe(first);
  });

  it("shows each merchant its own: another's last month is empty", async () => {
    const theirs = await summary(
      `currency=EUR&from=${accountant.month}&to=${nextMonth(accountant.month)}`,
      tokens.other,
    );
    expect(theirs.activity).toEqual([]);
  });

  it.each([
    ["from=2026-02-30", { from: ["The from field must match the format Y-m-d."] }],
    ["from=2026-13-01", { from: ["The from field must match the format Y-m-d."] }],
    ["to=2026-11-01T00:00:00Z", { to: ["The to field must match the format Y-m-d."] }],
    ["from=yesterday", { from: ["The from field must match the format Y-m-d."] }],
    ["from[]=2026-11-01", { from: ["The from field must be a string."] }],
    ["from=2026-11-02&to=2026-11-02", { to: ["The to field must be a date after from."] }],
    ["from=2026-11-02&to=2026-11-01", { to: ["The to field must be a date after from."] }],
    ["from=2025-01-01&to=2026-01-03", { to: ["The to field must be at most 366 days after from."] }],
    ["currency=XXX", { currency: ["The selected currency is invalid."] }],
  ])("refuses %s with a 422 naming it", async (query, errors) => {
    const response = await callApi(baseUrl, `/api/reports/balance-summary?${query}`, {
      token: tokens.accountant,
    });
    expect(response.status).toBe(422);
    expect(response.body).toEqual({ message: "The given data was invalid.", errors });
  });

  it("takes a year of 366 days, and a read-only token", async () => {
    expect((await summary("currency=EUR&from=2024-01-01&to=2025-01-01")).activity).toEqual([]);
    const read = await callApi(baseUrl, "/api/reports/balance-summary", { token: tokens.read });
    expect(read.status).toBe(200);
    expect((await callApi(baseUrl, "/api/reports/balance-summary")).status).toBe(401);
  });
});

describe("payments reports balance-summary", () => {
  it("prints the period's summary as the API has it, and the API's object with --json", async () => {
    const env = { apiUrl: baseUrl, apiKey: tokens.accountant };
    const to = nextMonth(accountant.month);
    const period = ["--currency", "eur", "--from", accountant.month, "--to", to];
    const expected = await summary(`currency=EUR&from=${accountant.month}&to=${to}`);
    const printed = await runCliAsync(["reports", "balance-summary", ...period], env);
    expect([printed.code, printed.stderr]).toEqual([0, ""]);
    const payment = expected.activity.find((line) => line.type === "payment")!;
    expect(printed.stdout.split("\n")).toEqual([
      `EUR balance summary, ${accountant.month} to ${to} (UTC days, to exclusive)`,
      "Opening balance  0.00  (pending 0.00, available 0.00)",
      `  payment  4 transactions  amount 175.00  fee ${payment.fee}  net ${payment.net}`,
      ...expected.activity.slice(1).map(printedLine),
      `Net activity  ${expected.net_activity}`,
      ...expected.payouts.map(printedLine),
      `Closing balance  ${expected.closing_balance}  (pending 0.00, available 0.00)`,
      "",
    ]);
    const json = await runCliAsync(["reports", "balance-summary", ...period, "--json"], env);
    expect(JSON.parse(json.stdout)).toEqual({ type: "balance_summary", ...expected });
  });

  it("exits 1 with the API's 422 on stderr for a bad day", async () => {
    const refused = await runCliAsync(["reports", "balance-summary", "--from", "2026-02-30"], {
      apiUrl: baseUrl,
      apiKey: tokens.accountant,
    });
    expect([refused.code, refused.stdout, refused.stderr]).toEqual([
      1,
      "",
      "Error: The API refused (422): from: The from field must match the format Y-m-d.\n",
    ]);
  });
});

// Last: the check blocks this process for seconds (a synchronous child), past the server's keep-alive timeout.
// On PostgreSQL only: on PGlite the test server holds the database's directory.
describe("the summary against the books", () => {
  it.runIf(process.env.DATABASE_URL)(
    "closes at ledger:verify's sum of the ledger's entries, on books it finds balanced",
    async () => {
      const tomorrow = day(Date.now() + 86_400_000);
      const report = await summary(`currency=EUR&from=${accountant.month}&to=${tomorrow}`);
      const result = runAdmin(["ledger:verify", "--email", accountant.email, "--json"], {
        ...adminCliEnvironment(serverEnv),
        DATABASE_URL: serverEnv.DATABASE_URL,
      });
      expect(result.status, result.stderr).toBe(0);
      const books = JSON.parse(result.stdout) as {
        ok: boolean;
        daily_total_mismatches: number;
        balances: Array<{ currency: string; total: string }>;
      };
      expect(books).toMatchObject({ ok: true, daily_total_mismatches: 0 });
      expect(books.balances.find((entry) => entry.currency === "EUR")?.total).toBe(report.closing_balance);
    },
  );
});
