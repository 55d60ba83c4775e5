// The ledger's API as its suites call it (tests/integration/ledger*.test.ts): a payment completed by the test
// helper, a balance in one currency, balance transactions, a refund. Each takes the caller (a token's client). And
// the operator's check that the books balance.
import { expect } from "vitest";
import type { callApi } from "./api-client";
import { adminCliEnvironment, runAdminAsync } from "./test-server";

export type Api = (path: string, request?: Parameters<typeof callApi>[2]) => ReturnType<typeof callApi>;

export type Payment = {
  id: number;
  amount: string;
  currency: string;
  status: string;
  fee: string | null;
  net: string | null;
};
export type BalanceTransaction = {
  id: number;
  type: string;
  source_id: number;
  currency: string;
  amount: string;
  fee: string;
  net: string;
  status: string;
  available_on: string;
  payout_id: number | null;
};
export type Balance = {
  available: Array<{ currency: string; amount: string }>;
  pending: Array<{ currency: string; amount: string }>;
};

/** A new pending payment's id. */
export async function pendingPayment(api: Api, amount: string, currency: string): Promise<number> {
  const created = await api("/api/payments", {
    json: { amount, currency },
    headers: { Prefer: "return=representation" },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return (created.body as { data: { id: number } }).data.id;
}

/** Completes pending payment `id` with the test helper. */
export async function complete(api: Api, id: number): Promise<Payment> {
  const settled = await api(`/api/test-helpers/payments/${id}/settle`, { json: { outcome: "completed" } });
  expect(settled.status, JSON.stringify(settled.body)).toBe(200);
  return (settled.body as { data: Payment }).data;
}

export async function completedPayment(api: Api, amount: string, currency: string): Promise<Payment> {
  return complete(api, await pendingPayment(api, amount, currency));
}

/**
 * `amounts` made one after another, then completed all at once: the race is the settles'. (One merchant's
 * creations queue on its counter row, and on Citus each one holds it for a creation's several steps.)
 */
export async function racedCompletions(api: Api, amounts: string[], currency: string): Promise<Payment[]> {
  const ids: number[] = [];
  for (const amount of amounts) ids.push(await pendingPayment(api, amount, currency));
  return Promise.all(ids.map((id) => complete(api, id)));
}

export async function balance(api: Api, currency: string) {
  const response = await api("/api/balance");
  expect(response.status).toBe(200);
  const { data } = response.body as { data: Balance };
  const of = (list: Balance["available"]) => list.find((entry) => entry.currency === currency)?.amount;
  return { available: of(data.available), pending: of(data.pending) };
}

export async function transactionsOf(api: Api, query: string): Promise<BalanceTransaction[]> {
  const response = await api(`/api/balance-transactions?perPage=100&${query}`);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return (response.body as { data: BalanceTransaction[] }).data;
}

export async function refund(api: Api, paymentId: number, amount: string) {
  const response = await api(`/api/payments/${paymentId}/refunds`, { json: { amount } });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return (response.body as { data: { id: number } }).data;
}

/**
 * The operator's `ledger:verify` on a test server's database (PostgreSQL only: PGlite's lives inside the server's
 * process): asserts it ran cleanly and found the books balanced, and returns its report.
 */
export async function verifyLedger(serverEnv: NodeJS.ProcessEnv): Promise<Record<string, number | boolean>> {
  const result = await runAdminAsync(["ledger:verify", "--json"], {
    ...adminCliEnvironment(serverEnv),
    DATABASE_URL: serverEnv.DATABASE_URL,
  });
  expect([result.status, result.stderr]).toEqual([0, ""]);
  const report = JSON.parse(result.stdout) as Record<string, number | boolean>;
  expect(report).toMatchObject({
    ok: true,
    unbalanced_postings: 0,
    balance_mismatches: 0,
    net_mismatches: 0,
    daily_total_mismatches: 0,
  });
  return report;
}
