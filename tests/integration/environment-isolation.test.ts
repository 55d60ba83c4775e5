// Environments apart, route by route (DESIGN.md, "Live and sandboxes"), over real HTTP on every database CI runs
// (PGlite, PostgreSQL, Citus). One sandbox of the seed account holds a payment, a refund, a dispute, a payment
// link, a customer, an inbox endpoint, events and balance transactions, each marked. Then every route the API
// serves (lib/api/routes.ts, so a new route joins the table) is called with a second sandbox's key and with the
// account's live key: a list, report or stream shows nothing marked, a record is refused as another account's
// key is refused (403 or 404), and a write changes nothing. The holder's own key sees it all, so the checks can
// fail.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { routes } from "@/lib/api/routes";
import { callApi, type ApiResponse } from "../support/api-client";

const baseUrl = inject("baseUrl");
const { tokens } = inject("data");

const marker = `iso-${Date.now()}`;
type Holder = { token: string; sandboxId: number };
let holder: Holder;
let stranger: Holder;
/** The holder's record for each `{id}` route, by path. */
const idFor = new Map<string, string>();

const dataOf = <T>(response: ApiResponse) => (response.body as { data: T }).data;
const idOf = (response: ApiResponse) => response.headers.get("location")!.split("/").at(-1)!;

async function makeSandbox(name: string): Promise<Holder> {
  const made = await callApi(baseUrl, "/api/sandboxes", { token: tokens.account, json: { name } });
  expect(made.status, made.text).toBe(201);
  const sandbox = dataOf<{ id: number; token: string }>(made);
  return { token: sandbox.token, sandboxId: sandbox.id };
}

beforeAll(async () => {
  holder = await makeSandbox(`${marker}-holder`);
  // Named without the marker: its own key's request logs carry its token's name.
  stranger = await makeSandbox(`stranger-${Date.now()}`);
  const as = (path: string, json?: unknown) => callApi(baseUrl, path, { token: holder.token, json });
  const settled = async (body: Record<string, unknown>) => {
    const made = await as("/api/payments", { amount: "20.00", currency: "EUR", ...body });
    expect(made.status, made.text).toBe(201);
    const id = idOf(made);
    const settle = await as(`/api/test-helpers/payments/${id}/settle`, { outcome: "completed" });
    expect(settle.status, settle.text).toBe(200);
    return id;
  };
  const payment = await settled({ external_id: marker, customer_id: `cus_${marker}` });
  const disputed = await settled({ external_id: `${marker}-disputed` });
  const pending = await as("/api/payments", { amount: "3.00", currency: "EUR", external_id: `${marker}-p` });
  const refund = await as(`/api/payments/${payment}/refunds`, { amount: "1.00", external_id: `${marker}-r` });
  expect(refund.status, refund.text).toBe(201);
  // Settled now, so the payment it belongs to stays as it is while the refusals are tried.
  const refundSettled = await as(`/api/test-helpers/refunds/${idOf(refund)}/settle`, {
    outcome: "succeeded",
  });
  expect(refundSettled.status, refundSettled.text).toBe(200);
  const dispute = await as(`/api/test-helpers/payments/${disputed}/dispute`, { reason: "duplicate" });
  expect(dispute.status, dispute.text).toBe(201);
  const link = await as("/api/payment-links", { name: marker, amount: "9.00", currency: "EUR" });
  expect(link.status, link.text).toBe(201);
  const endpoint = await as("/api/webhook-endpoints", { kind: "inbox", description: marker });
  expect(endpoint.status, endpoint.text).toBe(201);
  const events = dataOf<Array<{ id: string }>>(await as("/api/events"));
  const transactions = dataOf<Array<{ id: number }>>(await as("/api/balance-transactions"));
  const endpointId = idOf(endpoint);
  for (const [path, id] of [
    ["/api/payments/{id}", payment],
    ["/api/payments/{id}/refunds", payment],
    ["/api/payments/{id}/cancel", idOf(pending)],
    ["/api/test-helpers/payments/{id}/settle", idOf(pending)],
    ["/api/test-helpers/payments/{id}/dispute", payment],
    ["/api/refunds/{id}", idOf(refund)],
    ["/api/test-helpers/refunds/{id}/settle", idOf(refund)],
    ["/api/payment-links/{id}", idOf(link)],
    ["/api/customers/{id}", `cus_${marker}`],
    ["/api/events/{id}", events.at(-1)!.id],
    ["/api/events/{id}/resend", events.at(-1)!.id],
    ["/api/webhook-endpoints/{id}", endpointId],
    ["/api/webhook-endpoints/{id}/rotate-secret", endpointId],
    ["/api/webhook-endpoints/{id}/deliveries", endpointId],
    ["/api/webhook-endpoints/{id}/inbox", endpointId],
    ["/api/balance-transactions/{id}", String(transactions[0]!.id)],
    ["/api/disputes/{id}", idOf(dispute)],
    ["/api/disputes/{id}/evidence", idOf(dispute)],
    ["/api/disputes/{id}/close", idOf(dispute)],
    ["/api/test-helpers/disputes/{id}/close", idOf(dispute)],
  ] as const)
    idFor.set(path, id);
});

// The account's sandboxes are few on the test servers (SANDBOXES_PER_ACCOUNT): these two go with their data.
afterAll(async () => {
  for (const sandbox of [holder, stranger])
    if (sandbox)
      await callApi(baseUrl, `/api/sandboxes/${sandbox.sandboxId}`, {
        token: tokens.account,
        method: "DELETE",
      });
});

/**
 * Routes with no record of the holder's to aim at, and why. A payout needs a payout account, which a sandbox key
 * cannot set (scope `payout_account`); payouts.test.ts refuses another merchant's payout route by route. A
 * delivery's resend is aimed at by delivery id; webhooks.test.ts refuses another merchant's.
 */
const NO_RECORD = new Set([
  "/api/payouts/{id}",
  "/api/payouts/{id}/cancel",
  "/api/test-helpers/payouts/{id}/settle",
  "/api/webhook-deliveries/{id}/resend",
  "/api/sandboxes/{id}",
]);

/** A plausible body for each write, so a refusal is for the environment, not for a malformed request. */
const BODIES: Record<string, unknown> = {
  "/api/payments/{id}/refunds": { amount: "1.00" },
  "/api/test-helpers/payments/{id}/settle": { outcome: "completed" },
  "/api/test-helpers/refunds/{id}/settle": { outcome: "succeeded" },
  "/api/test-helpers/payments/{id}/dispute": { reason: "duplicate" },
  "/api/payment-links/{id}": { active: false },
  "/api/webhook-endpoints/{id}": { description: "taken over" },
  "/api/disputes/{id}/evidence": { uncategorized_text: "not yours" },
  "/api/test-helpers/disputes/{id}/close": { outcome: "won" },
};

const callAs = (token: string, method: string, path: string) =>
  callApi(baseUrl, path, {
    token,
    method,
    json: method === "GET" || method === "DELETE" ? undefined : (BODIES[routeOf(path)] ?? {}),
  });
const routeOf = (path: string) =>
  [...idFor.keys()].find((route) => path === route.replace("{id}", idFor.get(route)!)) ?? path;

const intruders = () => [
  { name: "another sandbox", token: stranger.token },
  { name: "live", token: tokens.live },
];

describe("every route, between the environments of one account", () => {
  const recordRoutes = routes.filter((route) => route.path.includes("{id}") && !NO_RECORD.has(route.path));
  const listRoutes = routes.filter((route) => route.method === "GET" && !route.path.includes("{id}"));

  it("covers every route the API serves", () => {
    for (const route of routes) {
      const covered =
        recordRoutes.includes(route) ||
        listRoutes.includes(route) ||
        NO_RECORD.has(route.path) ||
        (route.method !== "GET" && !route.path.includes("{id}"));
      expect(covered, `${route.method} ${route.path}`).toBe(true);
    }
    for (const route of recordRoutes) expect(idFor.has(route.path), route.path).toBe(true);
  });

  it("shows nothing of the holder's in another environment's lists and reports; the holder's show it", async () => {
    const marked: string[] = [];
    for (const route of listRoutes.filter((route) => route.path !== "/api/events/stream")) {
      const own = await callAs(holder.token, "GET", route.path);
      if (own.text.includes(marker)) marked.push(route.path);
      for (const intruder of intruders()) {
        const seen = await callAs(intruder.token, "GET", route.path);
        const where = `${intruder.name}: GET ${route.path}`;
        expect([200, 403, 404], `${where} → ${seen.status}`).toContain(seen.status);
        expect(seen.text, where).not.toContain(marker);
      }
    }
    // The check can fail: the holder's own lists carry the marks.
    expect(marked).toEqual(
      expect.arrayContaining([
        "/api/payments",
        "/api/refunds",
        "/api/payment-links",
        "/api/customers",
        "/api/events",
        "/api/webhook-endpoints",
        "/api/balance-transactions",
      ]),
    );
  });

  it("replays nothing of the holder's on another environment's event stream", async () => {
    const first = idFor.get("/api/events/{id}")!;
    const own = await readStream(holder.token, first);
    expect(own).toContain(marker);
    for (const intruder of intruders())
      expect(await readStream(intruder.token, first), intruder.name).not.toContain(marker);
  });

  // Last: the refused paths name the holder's records (a customer's id carries the mark), and they are logged as
  // the intruders' own requests, which the list check above would then find.
  it("refuses another environment's record as it refuses another account's (403 or 404), and changes nothing", async () => {
    const watched = [
      "/api/payments/{id}",
      "/api/disputes/{id}",
      "/api/payment-links/{id}",
      "/api/webhook-endpoints/{id}",
    ];
    const snapshot = () =>
      Promise.all(
        watched.map(
          async (route) => (await callAs(holder.token, "GET", route.replace("{id}", idFor.get(route)!))).text,
        ),
      );
    const before = await snapshot();
    for (const route of recordRoutes) {
      const path = route.path.replace("{id}", idFor.get(route.path)!);
      const asOtherAccount = (await callAs(tokens.other, route.method, path)).status;
      for (const intruder of intruders()) {
        const refused = await callAs(intruder.token, route.method, path);
        const where = `${intruder.name}: ${route.method} ${route.path}`;
        expect([403, 404], `${where} → ${refused.status} ${refused.text}`).toContain(refused.status);
        // Live has no test helpers at all (404), whatever the id.
        if (!(intruder.token === tokens.live && route.path.startsWith("/api/test-helpers/")))
          expect(refused.status, where).toBe(asOtherAccount);
        expect(refused.text, where).not.toContain(marker);
      }
    }
    // The holder's records are as they were: nothing refunded, settled, disputed, closed, deactivated or edited.
    expect(await snapshot()).toEqual(before);
    const refunds = await callAs(
      holder.token,
      "GET",
      `/api/payments/${idFor.get("/api/payments/{id}")}/refunds`,
    );
    expect(dataOf<unknown[]>(refunds)).toHaveLength(1);
  });
});

/** What `GET /api/events/stream` sends within 2 s, replaying after `after` (the holder's oldest event listed). */
async function readStream(token: string, after: string): Promise<string> {
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), 2_000);
  let text = "";
  try {
    const response = await fetch(`${baseUrl}/api/events/stream?after=${after}`, {
      headers: { Authorization: `Bearer ${token}`, Accept: "text/event-stream" },
      signal: abort.signal,
    });
    if (!response.body) return `${response.status}`;
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    for (let read = await reader.read(); !read.done; read = await reader.read())
      text += decoder.decode(read.value, { stream: true });
  } catch (error) {
    if (!abort.signal.aborted) throw error;
  } finally {
    clearTimeout(timer);
  }
  return text;
}
