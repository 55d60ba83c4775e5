// A sandbox's test clock (DESIGN.md, "Test clock"), over real HTTP on either database: made at the first of the
// month before last, it stands still while the background services run, and an advance runs what falls due, in
// time order, each written at the time it fell due: settles, balances becoming available, the daily schedule's
// payouts and their moves, and a token's expiry.
import { describe, expect, inject, it } from "vitest";
import { setPayoutAccount } from "@/lib/payouts/account";
import { insertToken } from "@/lib/tokens/tokens";
import { callApi, paymentTotal } from "../support/api-client";
import { db } from "../support/direct-db";

const baseUrl = inject("baseUrl");
const { tokens } = inject("data");
const DAY_MS = 86_400_000;

/** The first of the month before last, at midnight UTC: a whole month and more behind today. */
function monthBeforeLast(): Date {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 2, 1));
}
const day = (at: Date) => at.toISOString().slice(0, 10);

type Clock = { sandbox_id: number; now: string; test_clock: boolean };

async function makeSandbox(name: string, clock?: string) {
  const made = await callApi(baseUrl, "/api/sandboxes", {
    token: tokens.clockAccount,
    json: { name, ...(clock === undefined ? {} : { clock }) },
  });
  return made;
}

/** A sandbox of the clock suite's account on a clock started at `start`: its id and test key. */
async function clockedSandbox(start: Date) {
  const made = await makeSandbox(`clock-${Date.now()}-${Math.random()}`, day(start));
  expect(made.status, made.text).toBe(201);
  const sandbox = (made.body as { data: { id: number; token: string; clock: string; created_at: string } })
    .data;
  expect(sandbox).toMatchObject({ clock: start.toISOString(), created_at: start.toISOString() });
  return sandbox;
}

async function clockOf(token: string): Promise<Clock> {
  const read = await callApi(baseUrl, "/api/test-helpers/clock", { token });
  expect(read.status, read.text).toBe(200);
  return (read.body as { data: Clock }).data;
}

async function advance(token: string, json: unknown) {
  return callApi(baseUrl, "/api/test-helpers/clock/advance", { token, json });
}

async function listOf<T>(token: string, path: string): Promise<T[]> {
  const read = await callApi(baseUrl, path, { token });
  expect(read.status, read.text).toBe(200);
  return (read.body as { data: T[] }).data;
}

describe("a sandbox on a test clock", () => {
  it("refuses a clock in the future, too far back or not an instant, and makes nothing", async () => {
    const before = await listOf<{ id: number }>(tokens.clockAccount, "/api/sandboxes");
    const refusals: Array<[unknown, RegExp]> = [
      [new Date(Date.now() + DAY_MS).toISOString(), /future/],
      [day(new Date(Date.now() - 401 * DAY_MS)), /400 days/],
      ["1 October", /date/],
      [20261001, /date/],
    ];
    for (const [clock, message] of refusals) {
      const refused = await callApi(baseUrl, "/api/sandboxes", {
        token: tokens.clockAccount,
        json: { name: `refused-${Date.now()}`, clock },
      });
      expect(refused.status, String(clock)).toBe(422);
      expect((refused.body as { errors: Record<string, string[]> }).errors.clock![0]).toMatch(message);
    }
    expect(await listOf(tokens.clockAccount, "/api/sandboxes")).toEqual(before);
  });

  it("makes what it makes at the clock's time, and stands still while the background services run", async () => {
    // On PGlite the server runs the settler inside (on PostgreSQL the suites start workers of their own).
    const start = monthBeforeLast();
    const { id, token } = await clockedSandbox(start);
    expect(await clockOf(token)).toEqual({ sandbox_id: id, now: start.toISOString(), test_clock: true });
    const created = await callApi(baseUrl, "/api/payments", { token, json: { amount: "5.00" } });
    expect(created.status, created.text).toBe(201);
    const location = new URL(created.headers.get("location")!, baseUrl).pathname;
    expect((await callApi(baseUrl, location, { token })).body).toMatchObject({
      data: { created_at: start.toISOString(), status: "pending" },
    });
    // The servers settle a payment 1.5 s after it is made; this one's time does not pass.
    await new Promise((resolve) => setTimeout(resolve, 4_000));
    expect((await callApi(baseUrl, location, { token })).body).toMatchObject({ data: { status: "pending" } });
    expect((await clockOf(token)).now).toBe(start.toISOString());
  });

  // The key and the payout account are written from the test process: PostgreSQL only (PGlite is the server's).
  it.runIf(process.env.DATABASE_URL)(
    "runs a month and more in time order: settles, a refund, balances, the daily payouts, a token's expiry",
    async () => {
      const start = monthBeforeLast();
      const sandbox = await clockedSandbox(start);
      const token = sandbox.token;
      // A key that expires ten days in, on the clock.
      const expiring = await insertToken(db, {
        merchantId: sandbox.id,
        name: "ten days",
        scope: "read",
        payoutAccount: false,
        createdBy: null,
        expiresAt: new Date(start.getTime() + 10 * DAY_MS),
      });
      await setPayoutAccount(db, sandbox.id, {
        account_holder: "Clock GmbH",
        iban: "DE89 3704 0044 0532 0130 00",
      });

      const created = await callApi(baseUrl, "/api/payments", {
        token,
        json: { amount: "100.00", currency: "USD" },
      });
      expect(created.status, created.text).toBe(201);
      // The create answers with a message only (the contract); the payment is at its Location.
      const payment = { id: Number(created.headers.get("location")!.split("/").pop()) };
      expect((await callApi(baseUrl, `/api/payments/${payment.id}`, { token })).body).toMatchObject({
        data: { created_at: start.toISOString(), status: "pending" },
      });
      // Bad advances move nothing.
      for (const body of [{}, { to: day(start), by: "P1D" }, { by: "one day" }, { to: "yesterday" }]) {
        const refused = await advance(token, body);
        expect(refused.status, JSON.stringify(body)).toBe(422);
      }
      const backwards = await advance(token, { to: new Date(start.getTime() - 1000).toISOString() });
      expect(backwards.status).toBe(422);
      expect(backwards.text).toContain("only moves forward");
      expect((await clockOf(token)).now).toBe(start.toISOString());

      // A minute: the payment settles at its settle_at, 1.5 s in.
      const minute = await advance(token, { by: "PT1M" });
      expect(minute.status, minute.text).toBe(200);
      expect((minute.body as { data: Clock }).data.now).toBe(
        new Date(start.getTime() + 60_000).toISOString(),
      );
      const settled = await callApi(baseUrl, `/api/payments/${payment.id}`, { token });
      expect(settled.body).toMatchObject({ data: { status: "completed" } });
      const [posted] = await listOf<{ created_at: string; available_on: string; status: string }>(
        token,
        "/api/balance-transactions",
      );
      expect(posted).toMatchObject({
        created_at: new Date(start.getTime() + 1_500).toISOString(),
        status: "pending",
      });
      expect(await listOf(token, "/api/payouts")).toEqual([]);
      // A refund made at the clock's time, settled 1.5 s later in the next advance.
      const refunding = await callApi(baseUrl, `/api/payments/${payment.id}/refunds`, {
        token,
        json: { amount: "10.00" },
      });
      expect(refunding.status, refunding.text).toBe(201);
      const refund = (refunding.body as { data: { id: number; created_at: string } }).data;
      expect(refund.created_at).toBe(new Date(start.getTime() + 60_000).toISOString());

      // Past the tenth: the balance became available after two days, and the daily schedule paid it out at the
      // next midnight; each payout moved on; the ten-day key expired on the clock's tenth day.
      expect((await callApi(baseUrl, "/api/balance", { token: expiring.token })).status).toBe(200);
      const tenth = await advance(token, {
        to: new Date(start.getTime() + 10 * DAY_MS + 3_600_000).toISOString(),
      });
      expect(tenth.status, tenth.text).toBe(200);
      expect((await callApi(baseUrl, "/api/balance", { token: expiring.token })).status).toBe(401);
      expect((await callApi(baseUrl, `/api/refunds/${refund.id}`, { token })).body).toMatchObject({
        data: { status: "succeeded", settled_at: new Date(start.getTime() + 61_500).toISOString() },
      });
      const payouts = await listOf<{ created_at: string; amount: string; status: string }>(
        token,
        "/api/payouts",
      );
      expect(payouts).toHaveLength(1);
      expect(payouts[0]).toMatchObject({
        created_at: new Date(start.getTime() + 3 * DAY_MS).toISOString(),
        status: "paid",
      });

      // The next month: the summary of the first opens where the start's closed, and each adds up.
      const nextMonth = new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1));
      const later = await advance(token, { to: day(new Date(nextMonth.getTime() + 2 * DAY_MS)) });
      expect(later.status, later.text).toBe(200);
      const summary = async (from: Date, to: Date) => {
        const read = await callApi(
          baseUrl,
          `/api/reports/balance-summary?currency=USD&from=${day(from)}&to=${day(to)}`,
          { token },
        );
        expect(read.status, read.text).toBe(200);
        return (
          read.body as {
            data: {
              opening_balance: string;
              closing_balance: string;
              activity: Array<{ net: string }>;
              payouts: Array<{ net: string }>;
            };
          }
        ).data;
      };
      const first = await summary(start, nextMonth);
      const second = await summary(nextMonth, new Date(nextMonth.getTime() + 2 * DAY_MS));
      expect(first.opening_balance).toBe("0.00");
      expect(second.opening_balance).toBe(first.closing_balance);
      for (const period of [first, second]) {
        const net = [...period.activity, ...period.payouts].reduce(
          (sum, line) => sum + Math.round(Number(line.net) * 100),
          0,
        );
        expect(Math.round(Number(period.closing_balance) * 100)).toBe(
          Math.round(Number(period.opening_balance) * 100) + net,
        );
      }
      expect(await clockOf(token)).toMatchObject({
        now: new Date(nextMonth.getTime() + 2 * DAY_MS).toISOString(),
      });
    },
  );

  it("has no clock to move in a sandbox on real time, and none in live", async () => {
    const real = await clockOf(tokens.api);
    expect(real.test_clock).toBe(false);
    expect(Math.abs(new Date(real.now).getTime() - Date.now())).toBeLessThan(60_000);
    const refused = await advance(tokens.api, { by: "P1D" });
    expect(refused.status).toBe(422);
    expect(refused.text).toContain("real time");
    expect((await callApi(baseUrl, "/api/test-helpers/clock", { token: tokens.live })).status).toBe(404);
    expect((await advance(tokens.live, { by: "P1D" })).status).toBe(404);
    expect(await paymentTotal(baseUrl, tokens.live)).toBe(0);
  });
});
