// The accountant's second round over real HTTP (DESIGN.md, "Time zone", "Payouts apart", "Payout
// reconciliation"), on either database: a month in Europe/Berlin starts at 23:00 UTC the day before, the
// summary splits its balances and keeps payouts apart, and the reconciliation follows a failed payout's money
// to the payout that pays it back, and a payout of part to what it carried.
import type { components } from "@payments-platform/sdk";
import { sql } from "drizzle-orm";
import { describe, expect, inject, it, onTestFinished } from "vitest";
import { readPaymentFilters } from "@/lib/payments/filters";
import { searchPayments } from "@/lib/payments/search";
import { setPayoutAccount } from "@/lib/payouts/account";
import { TEST_IBANS } from "@/lib/payouts/iban";
import { callApi } from "../support/api-client";
import { runCliAsync } from "../support/cli-process";
import { db } from "../support/direct-db";
import { cents, expectSummaryAddsUp, sumNet, type Line, type Summary } from "../support/report-summary";

const baseUrl = inject("baseUrl");
const { tokens } = inject("data");
const DAY_MS = 86_400_000;

type Reconciliation = components["schemas"]["PayoutReconciliation"];

const day = (time: number) => new Date(time).toISOString().slice(0, 10);

async function get<T>(token: string, path: string): Promise<T> {
  const response = await callApi(baseUrl, path, { token });
  expect(response.status, response.text).toBe(200);
  return (response.body as { data: T }).data;
}

/** A sandbox of the clock suite's account, on a clock from `clock` when given; payouts only when asked. */
async function sandbox(clock?: string) {
  const made = await callApi(baseUrl, "/api/sandboxes", {
    token: tokens.clockAccount,
    json: { name: `reports-${Date.now()}-${Math.random()}`, ...(clock ? { clock } : {}) },
  });
  expect(made.status, made.text).toBe(201);
  const { id, token } = (made.body as { data: { id: number; token: string } }).data;
  onTestFinished(() => deleteSandbox(id));
  await db.execute(sql`update merchants set payout_schedule = 'manual' where id = ${id}`);
  return { id, token };
}

/** Sandboxes are few an account: each test deletes its own. */
async function deleteSandbox(id: number) {
  const deleted = await callApi(baseUrl, `/api/sandboxes/${id}`, {
    token: tokens.clockAccount,
    method: "DELETE",
  });
  expect(deleted.status, deleted.text).toBe(204);
}

async function completedPayment(token: string, amount: string): Promise<number> {
  const created = await callApi(baseUrl, "/api/payments", { token, json: { amount, currency: "EUR" } });
  expect(created.status, created.text).toBe(201);
  const id = Number(created.headers.get("location")!.split("/").pop());
  const settled = await callApi(baseUrl, `/api/test-helpers/payments/${id}/settle`, {
    token,
    json: { outcome: "completed" },
  });
  expect(settled.status, settled.text).toBe(200);
  return id;
}

async function advanceTo(token: string, to: string) {
  const moved = await callApi(baseUrl, "/api/test-helpers/clock/advance", { token, json: { to } });
  expect(moved.status, moved.text).toBe(200);
}

describe("reports in a time zone", () => {
  // A payout account is set in the database directly: on PGlite the server holds the database alone.
  it.runIf(process.env.DATABASE_URL)(
    "counts a payment at 23:30 UTC on a month's last day in Berlin's next month, and each month adds up",
    async () => {
      // The last day of the month before last, at noon UTC: a whole month behind today, and Berlin is ahead.
      const now = new Date();
      const monthStart = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1);
      const lastDay = day(monthStart - DAY_MS);
      const first = day(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 2, 1));
      const next = day(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
      const { id, token } = await sandbox(`${lastDay}T12:00:00.000Z`);
      await setPayoutAccount(db, id, { account_holder: "Berlin GmbH", iban: TEST_IBANS.pays });

      await completedPayment(token, "100.00"); // 13:00 in Berlin: the earlier month
      await advanceTo(token, `${lastDay}T23:30:00.000Z`);
      await completedPayment(token, "40.00"); // 00:30 the next day in Berlin: the later month
      // Three days on, both are available; a payout of part, and one more payment, still pending.
      await advanceTo(token, `${day(monthStart + 3 * DAY_MS)}T10:00:00.000Z`);
      const payout = await callApi(baseUrl, "/api/payouts", {
        token,
        json: { currency: "EUR", amount: "50.00" },
      });
      expect(payout.status, payout.text).toBe(201);
      await completedPayment(token, "25.00");
      await advanceTo(token, `${day(monthStart + 4 * DAY_MS)}T10:00:00.000Z`);

      const berlin = (from: string, to: string) =>
        get<Summary>(
          token,
          `/api/reports/balance-summary?currency=EUR&from=${from}&to=${to}&timezone=Europe/Berlin`,
        );
      const earlier = await berlin(first, day(monthStart));
      const later = await berlin(day(monthStart), next);
      expect(earlier.timezone).toBe("Europe/Berlin");
      expect(earlier.activity).toEqual([
        expect.objectContaining({ type: "payment", count: 1, amount: "100.00" }),
      ]);
      expect(later.activity).toEqual([
        expect.objectContaining({ type: "payment", count: 2, amount: "65.00" }),
      ]);
      // The payout of part of 50.00 carried the 100.00 payment, and carried forward what it brought past 50.00.
      expect(later.payouts.map((line) => [line.type, line.count])).toEqual([
        ["payout", 1],
        ["carried_forward", 1],
        ["brought_forward", 1],
      ]);
      expect(sumNet(later.payouts)).toBe(-5000n);
      expect(later.opening_balance).toBe(earlier.closing_balance);
      expect(later.opening_pending).toBe(earlier.closing_pending);
      // At the earlier month's end the first payment was still pending (available two days after).
      expect(earlier.closing_available).toBe("0.00");
      expect(cents(earlier.closing_pending)).toBeGreaterThan(0n);
      for (const report of [earlier, later]) expectSummaryAddsUp(report);
      // The later month closes ahead of the clock: at the balance now, all of it available by then.
      type Entry = { currency: string; amount: string };
      const balance = await get<{ available: Entry[]; pending: Entry[] }>(token, "/api/balance");
      const eur = (entries: Entry[]) =>
        cents(entries.find((entry) => entry.currency === "EUR")?.amount ?? "0.00");
      expect(cents(later.closing_balance)).toBe(eur(balance.available) + eur(balance.pending));
      expect(later.closing_pending).toBe("0.00");

      // In UTC the 23:30 payment is the earlier month's; the same two months still chain.
      const utcEarlier = await get<Summary>(
        token,
        `/api/reports/balance-summary?currency=EUR&from=${first}&to=${day(monthStart)}&timezone=UTC`,
      );
      expect(utcEarlier.activity).toEqual([
        expect.objectContaining({ type: "payment", count: 2, amount: "140.00" }),
      ]);
      expectSummaryAddsUp(utcEarlier);

      // The merchant's setting is the default; the list reads its dates in the zone too.
      await db.execute(sql`update merchants set report_timezone = 'Europe/Berlin' where id = ${id}`);
      const byDefault = await get<Summary>(
        token,
        `/api/reports/balance-summary?currency=EUR&from=${first}&to=${day(monthStart)}`,
      );
      expect(byDefault).toEqual(earlier);
      const listed = await callApi(
        baseUrl,
        `/api/balance-transactions?created_from=${day(monthStart)}&created_to=${day(monthStart)}`,
        { token },
      );
      expect(listed.status, listed.text).toBe(200);
      expect((listed.body as { data: Line[] }).data.map((line) => line.amount)).toEqual(["40.00"]);
      // The dashboard's Payments list and its CSV: a day of the zone, the same 23:30 UTC payment.
      const paymentsOn = async (timeZone: string) => {
        const dates = { from: day(monthStart), to: day(monthStart) };
        const page = await searchPayments(db, id, readPaymentFilters(dates, timeZone).filters);
        return page.items.map((payment) => payment.amount);
      };
      expect(await paymentsOn("Europe/Berlin")).toEqual(["40.00"]);
      expect(await paymentsOn("UTC")).toEqual([]);
    },
  );

  it("refuses an unknown zone, naming it, and another merchant's report holds none of this one's money", async () => {
    const refused = await callApi(baseUrl, "/api/reports/balance-summary?timezone=Mars/Olympus", {
      token: tokens.accountant,
    });
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ errors: { timezone: [expect.stringContaining("Mars/Olympus")] } });
    const reconciliation = await callApi(baseUrl, "/api/reports/payout-reconciliation?timezone=Nowhere", {
      token: tokens.accountant,
    });
    expect(reconciliation.status).toBe(422);
    const listed = await callApi(baseUrl, "/api/balance-transactions?timezone=Nowhere", {
      token: tokens.accountant,
    });
    expect(listed.status).toBe(422);
  });
});

describe("GET /api/reports/payout-reconciliation", () => {
  it.runIf(process.env.DATABASE_URL)(
    "follows a failed payout's money, itemizes a payout of part, and leaves the rest unpaid",
    async () => {
      const { id, token } = await sandbox();
      await setPayoutAccount(db, id, { account_holder: "Reconciled BV", iban: TEST_IBANS.pays });
      const release = async () =>
        expect(
          (await callApi(baseUrl, "/api/test-helpers/balance/release", { token, json: {} })).status,
        ).toBe(200);
      const payout = async (amount?: string) => {
        const made = await callApi(baseUrl, "/api/payouts", {
          token,
          json: { currency: "EUR", ...(amount ? { amount } : {}) },
        });
        expect(made.status, made.text).toBe(201);
        return (made.body as { data: { id: number; amount: string } }).data;
      };
      const settle = async (payoutId: number, outcome: "paid" | "failed") => {
        const moved = await callApi(baseUrl, `/api/test-helpers/payouts/${payoutId}/settle`, {
          token,
          json: { outcome },
        });
        expect(moved.status, moved.text).toBe(200);
      };

      const first = await completedPayment(token, "100.00");
      await completedPayment(token, "50.00");
      const refunded = await callApi(baseUrl, `/api/payments/${first}/refunds`, {
        token,
        json: { amount: "20.00" },
      });
      expect(refunded.status, refunded.text).toBe(201);
      await release();
      const failed = await payout();
      await settle(failed.id, "failed");
      // The account is fine again: the next payout of all pays the failed one's money back.
      await setPayoutAccount(db, id, { account_holder: "Reconciled BV", iban: TEST_IBANS.pays });
      const repaid = await payout();
      expect(repaid.amount).toBe(failed.amount);
      await settle(repaid.id, "paid");
      await completedPayment(token, "80.00");
      await completedPayment(token, "30.00");
      await release();
      const part = await payout("90.00");
      await completedPayment(token, "12.00"); // pending at the end

      const today = day(Date.now());
      const tomorrow = day(Date.now() + DAY_MS);
      const report = await get<Reconciliation>(
        token,
        `/api/reports/payout-reconciliation?currency=EUR&from=${today}&to=${tomorrow}&timezone=UTC`,
      );
      const text = JSON.stringify(report);
      expect(
        report.payouts.map((entry) => entry.id),
        text,
      ).toEqual([failed.id, repaid.id, part.id]);
      for (const entry of report.payouts) expect(sumNet(entry.lines), text).toBe(cents(entry.amount));
      const linesOf = (payoutId: number) => report.payouts.find((entry) => entry.id === payoutId)!.lines;
      // The payout that paid the failed one's money back lists the original payments and refund.
      expect(linesOf(repaid.id)).toEqual(linesOf(failed.id));
      expect(linesOf(repaid.id).map((line) => [line.type, line.count])).toEqual([
        ["payment", 2],
        ["refund", 1],
      ]);
      // The payout of part carried the oldest two payments, and carried forward what the second brought past
      // its amount: a later payout pays that as brought forward.
      expect(linesOf(part.id).map((line) => [line.type, line.count])).toEqual([
        ["payment", 2],
        ["carried_forward", 1],
      ]);
      expect(report.unpaid.map((line) => [line.type, line.count])).toEqual([
        ["payment", 1],
        ["brought_forward", 1],
      ]);
      const carried = linesOf(part.id).find((line) => line.type === "carried_forward")!;
      expect(report.unpaid.find((line) => line.type === "brought_forward")!.net).toBe(carried.net.slice(1));
      // The itemized list of the payout of part adds up to it too, its own debit aside.
      const items = await get<Array<{ type: string; source_id: number; net: string }>>(
        token,
        `/api/balance-transactions?payout_id=${part.id}`,
      );
      expect(sumNet(items.filter((item) => !(item.type === "payout" && item.source_id === part.id)))).toBe(
        cents(part.amount),
      );

      const summary = await get<Summary>(
        token,
        `/api/reports/balance-summary?currency=EUR&from=${today}&to=${tomorrow}&timezone=UTC`,
      );
      expect(report.unpaid_total).toBe(summary.closing_balance);
      expect(sumNet(report.unpaid)).toBe(cents(report.unpaid_total));
      // What is unpaid and what every payout that went out paid is the period's activity (it opened at 0).
      expect(summary.opening_balance).toBe("0.00");
      const paidOut = report.payouts
        .filter((entry) => entry.status !== "failed")
        .reduce((total, entry) => total + cents(entry.amount), 0n);
      expect(cents(report.unpaid_total) + paidOut).toBe(cents(summary.net_activity));

      // The CLI prints the same report.
      const cli = await runCliAsync(
        [
          "reports",
          "payout-reconciliation",
          "--currency",
          "EUR",
          "--from",
          today,
          "--to",
          tomorrow,
          "--json",
        ],
        { apiUrl: baseUrl, apiKey: token },
      );
      expect([cli.code, cli.stderr]).toEqual([0, ""]);
      expect(JSON.parse(cli.stdout)).toMatchObject({
        type: "payout_reconciliation",
        unpaid_total: report.unpaid_total,
      });

      // Another merchant's reconciliation of the same day shows none of these payouts.
      const other = await get<Reconciliation>(
        tokens.accountant,
        `/api/reports/payout-reconciliation?currency=EUR&from=${today}&to=${tomorrow}`,
      );
      const ours = new Set(report.payouts.map((entry) => entry.id));
      expect(other.payouts.some((entry) => ours.has(entry.id))).toBe(false);
    },
  );
});
