// The SDK (packages/sdk, as built) against the running server: every method, the page iterators, typed
// errors, a retried 429 with Retry-After, a payout repeated under its key after a 503 (an unkeyed POST is
// not), webhooks.verify on a real delivery, and its generated types matching the document the server serves.
import { readFileSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { Payments, PaymentsApiError, WebhookVerificationError } from "@payments-platform/sdk";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { sdkTypesFromDocument } from "../../scripts/sdk-types";
import { findFreePort } from "../support/free-port";
import { startWorkerProcess, type WorkerProcess } from "../support/test-server";

const baseUrl = inject("baseUrl");
const { tokens } = inject("data");
const sdk = new Payments({ apiKey: tokens.api, baseUrl });
const serverEnv = inject("serverEnv");
const servers: http.Server[] = [];
/** On PostgreSQL the shared server runs no worker: the delivery test needs one of its own. */
let worker: WorkerProcess | undefined;
beforeAll(async () => {
  if (serverEnv.WORKER_MODE === "off") worker = await startWorkerProcess(serverEnv);
});
afterAll(async () => {
  servers.forEach((server) => server.close());
  await worker?.kill("SIGTERM");
});

/** A local HTTP server for the test; resolves to its URL. */
async function localServer(handler: http.RequestListener): Promise<string> {
  const server = http.createServer(handler);
  servers.push(server);
  const port = findFreePort();
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", () => resolve()));
  return `http://127.0.0.1:${port}`;
}

describe("the SDK", () => {
  it("has the types of the document the server serves (npm run sdk:types after an API change)", async () => {
    const served = (await (await fetch(`${baseUrl}/api/openapi.json`)).json()) as object;
    const committed = readFileSync(
      path.resolve(import.meta.dirname, "../../packages/sdk/src/api-types.ts"),
      "utf8",
    );
    expect(await sdkTypesFromDocument(served)).toBe(committed);
  });

  it("creates, retrieves, cancels and lists payments across pages", async () => {
    const created = await sdk.payments.create({ amount: "12.34", external_id: `sdk_${Date.now()}` });
    expect(created).toMatchObject({ amount: "12.34", status: "pending", amount_refunded: "0.00" });
    expect(await sdk.payments.retrieve(created.id)).toEqual(created);
    expect(await sdk.payments.cancel(created.id)).toMatchObject({ id: created.id, status: "failed" });
    const firstFive = [];
    for await (const payment of sdk.payments.list({ perPage: 2 })) {
      firstFive.push(payment.id);
      if (firstFive.length === 5) break;
    }
    const pages = await Promise.all(
      [1, 2, 3].map(async (page) => {
        const response = await fetch(`${baseUrl}/api/payments?perPage=2&page=${page}`, {
          headers: { Authorization: `Bearer ${tokens.api}` },
        });
        return ((await response.json()) as { data: Array<{ id: number }> }).data.map((item) => item.id);
      }),
    );
    expect(firstFive).toEqual(pages.flat().slice(0, 5));
  });

  it("JPY 1500, KWD 1.250 and EUR 12.50 round-trip through create, retrieve, the currency filter and a refund", async () => {
    const customer = `cus_sdk_fx_${Date.now()}`;
    for (const [amount, currency, out] of [
      [1500, "jpy", "1500"],
      ["1.25", "KWD", "1.250"],
      ["12.5", "EUR", "12.50"],
    ] as const) {
      const created = await sdk.payments.create({ amount, currency, customer_id: customer });
      expect([created.amount, created.currency]).toEqual([out, currency.toUpperCase()]);
      expect(await sdk.payments.retrieve(created.id)).toMatchObject({
        amount: out,
        currency: currency.toUpperCase(),
      });
      const listed = [];
      for await (const item of sdk.payments.list({ customerId: customer, currency }))
        listed.push(item.amount);
      expect(listed).toEqual([out]);
    }
    const yen = await sdk.payments.create({ amount: "1500", currency: "JPY" });
    await sdk.testHelpers.settlePayment(yen.id, "completed");
    expect(await sdk.refunds.create(yen.id, { amount: 500 })).toMatchObject({
      amount: "500",
      currency: "JPY",
    });
    await expect(sdk.payments.create({ amount: "1500.5", currency: "JPY" })).rejects.toMatchObject({
      status: 422,
    });
  });

  it("creates in one request with metadata, filters the list, reads customers and every refund", async () => {
    const customer = `cus_sdk_${Date.now()}`;
    const created = await sdk.payments.create({
      amount: "4.00",
      customer_id: customer,
      metadata: { order: "A-1" },
    });
    expect(JSON.parse(created.metadata!)).toEqual({ order: "A-1", customer_id: customer });
    await sdk.testHelpers.settlePayment(created.id, "completed");
    const refund = await sdk.refunds.create(created.id, { amount: "1.00" });
    const listed = [];
    for await (const item of sdk.payments.list({
      customerId: customer,
      status: "completed",
      createdFrom: new Date(Date.now() - 60_000),
    }))
      listed.push(item.id);
    expect(listed).toEqual([created.id]);
    expect(await sdk.customers.retrieve(customer)).toMatchObject({
      id: customer,
      payments_count: 1,
      volumes: [{ currency: "USD", completed: "4.00", refunded: "0.00" }],
    });
    const refunds = [];
    for await (const each of sdk.refunds.listAll({ paymentId: created.id })) refunds.push(each.id);
    expect(refunds).toEqual([refund.id]);
  });

  it("refunds in parts, lists refunds page by page, reads events", async () => {
    const payment = await sdk.payments.create({ amount: "9.00" });
    await sdk.testHelpers.settlePayment(payment.id, "completed");
    const refunds = [];
    for (const amount of ["1.00", "2.00", "3.00"])
      refunds.push(await sdk.refunds.create(payment.id, { amount }));
    const settled = await sdk.testHelpers.settleRefund(refunds[0]!.id, "succeeded");
    expect(settled.status).toBe("succeeded");
    expect(await sdk.refunds.retrieve(refunds[1]!.id)).toEqual(refunds[1]);
    const listed = [];
    for await (const refund of sdk.refunds.list(payment.id, { perPage: 1 })) listed.push(refund.amount);
    expect(listed).toEqual(["3.00", "2.00", "1.00"]);
    const events = [];
    for await (const event of sdk.events.list({ paymentId: payment.id, perPage: 2 })) events.push(event);
    expect(events.map((event) => event.event)).toContain("refund.succeeded");
    expect(events).toHaveLength(6);
    expect((await sdk.events.retrieve(events[0]!.id)).id).toBe(events[0]!.id);
    // Queued again where it went, or a 409 when no endpoint of this merchant took it (other suites add some).
    const resent = await sdk.events.resend(events[0]!.id).catch((error: unknown) => error);
    if (resent instanceof PaymentsApiError) expect(resent.status).toBe(409);
    else expect(resent).toMatchObject({ id: events[0]!.id, deliveries_queued: expect.any(Number) as number });
    await expect
      .poll(
        async () =>
          (await sdk.requestLogs.list({ limit: 100 })).some((entry) =>
            entry.path.includes(`/api/payments/${payment.id}/refunds`),
          ),
        {
          timeout: 10_000,
        },
      )
      .toBe(true);
    const refusals = await sdk.requestLogs.list({ status: "4xx", limit: 5 });
    expect(refusals.every((entry) => entry.status >= 400 && entry.status < 500)).toBe(true);
  });

  it("rejects with typed errors carrying Laravel's errors", async () => {
    const invalid = await sdk.payments
      .create({ amount: "abc", metadata: { note: "x".repeat(501) } })
      .catch((error: unknown) => error);
    expect(invalid).toBeInstanceOf(PaymentsApiError);
    // The message names the first field error; every error stays on `errors`.
    expect((invalid as Error).message).toBe("The amount field must be a number.");
    expect(invalid).toMatchObject({
      status: 422,
      errors: {
        amount: ["The amount field must be a number."],
        "metadata.note": ["The metadata.note field must not be greater than 500 characters."],
      },
    });
    expect((invalid as PaymentsApiError).requestId).toMatch(/^req_/);
    await expect(sdk.payments.retrieve(999_999_999)).rejects.toMatchObject({ status: 404 });
    const stranger = new Payments({ apiKey: "pay_nope", baseUrl });
    await expect(stranger.payments.retrieve(1)).rejects.toMatchObject({
      status: 401,
      message: "Unauthenticated.",
    });
  });

  it("reads the balance and its transactions, sets the payout account, pays out, cancels and lists payouts", async () => {
    const treasury = new Payments({ apiKey: tokens.treasury, baseUrl });
    const payment = await treasury.payments.create({ amount: "20.00", currency: "EUR" });
    // The simulator may complete it first (20.00 completes either way).
    await treasury.testHelpers.settlePayment(payment.id, "completed").catch((error: unknown) => {
      if (!(error instanceof PaymentsApiError && error.status === 409)) throw error;
    });
    // 20.00 less 2.9% and 0.30: 0.88 fee, 19.12 pending, then available.
    expect(await treasury.balance.retrieve()).toEqual({
      available: [{ currency: "EUR", amount: "0.00" }],
      pending: [{ currency: "EUR", amount: "19.12" }],
    });
    expect((await treasury.testHelpers.releaseBalance()).available).toEqual([
      { currency: "EUR", amount: "19.12" },
    ]);
    const moves = [];
    for await (const move of treasury.balanceTransactions.list({ type: "payment" })) moves.push(move);
    expect(moves).toMatchObject([{ source_id: payment.id, amount: "20.00", fee: "0.88", net: "19.12" }]);
    expect(await treasury.balanceTransactions.retrieve(moves[0]!.id)).toEqual(moves[0]);

    expect(await treasury.payoutAccount.retrieve()).toBeNull();
    // No account yet: a 422 on payout_account.
    const refused = await treasury.payouts.create({ currency: "EUR" }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(PaymentsApiError);
    expect((refused as PaymentsApiError).errors).toHaveProperty("payout_account");
    const account = await treasury.payoutAccount.update({
      account_holder: "Treasury BV",
      iban: "DE89 3704 0044 0532 0130 00",
    });
    expect(account).toMatchObject({ account_holder: "Treasury BV", iban_last4: "3000" });
    expect(JSON.stringify(await treasury.payoutAccount.retrieve())).not.toContain("370400");

    const part = await treasury.payouts.create({ currency: "EUR", amount: "5.00" });
    expect(part).toMatchObject({
      amount: "5.00",
      currency: "EUR",
      status: "pending",
      destination_last4: "3000",
    });
    // Its status may have moved on already (the simulator steps every 1.5 s here).
    expect(await treasury.payouts.retrieve(part.id)).toMatchObject({ id: part.id, amount: "5.00" });
    const canceled = await treasury.payouts.cancel(part.id).catch((error: unknown) => {
      // On a loaded machine the simulator (1.5 s a step here) can move it on first: then it is paid out.
      if (error instanceof PaymentsApiError && error.status === 409) return undefined;
      throw error;
    });
    if (canceled) expect(canceled.status).toBe("canceled");
    const whole = await treasury.payouts.create({ currency: "EUR" });
    expect(whole.amount).toBe(canceled ? "19.12" : "14.12");
    const paid = await treasury.testHelpers.settlePayout(whole.id, "paid").catch(async (error: unknown) => {
      // The simulator (1.5 s a step here) may have moved it on first.
      if (error instanceof PaymentsApiError && error.status === 409)
        return treasury.payouts.retrieve(whole.id);
      throw error;
    });
    expect(["in_transit", "paid"]).toContain(paid.status);
    const listed = [];
    for await (const payout of treasury.payouts.list({ perPage: 1 })) listed.push(payout.id);
    expect(listed).toEqual([whole.id, part.id]);
    // What it carried adds up to it (summed in cents, never through a float).
    let carried = 0n;
    for await (const move of treasury.balanceTransactions.list({ payoutId: whole.id }))
      carried += BigInt(move.net.replace(".", ""));
    expect(carried).toBe(BigInt(whole.amount.replace(".", "")));
  });

  it("retries a 429 after its Retry-After, with the same Idempotency-Key", async () => {
    const seen: Array<{ method: string; key: string | undefined }> = [];
    const url = await localServer((request, response) => {
      seen.push({ method: request.method!, key: request.headers["idempotency-key"] as string | undefined });
      if (seen.length === 1) {
        response.writeHead(429, { "Content-Type": "application/json", "Retry-After": "1" });
        return response.end(JSON.stringify({ message: "Too Many Attempts." }));
      }
      response.writeHead(201, { "Content-Type": "application/json", Location: "/api/payments/7" });
      response.end(
        JSON.stringify({ message: "Payment created successfully", data: { id: 7, status: "pending" } }),
      );
    });
    const payment = await new Payments({ apiKey: "pay_x", baseUrl: url }).payments.create({ amount: "1.00" });
    expect(payment).toEqual({ id: 7, status: "pending" });
    // One request per try: the create answers the payment (Prefer: return=representation).
    expect(seen.map((request) => request.method)).toEqual(["POST", "POST"]);
    expect(seen[0]!.key).toMatch(/^sdk_/);
    expect(seen[1]!.key).toBe(seen[0]!.key);
  });

  it("repeats a payout after a 503 under one Idempotency-Key, and never repeats an unkeyed POST", async () => {
    const seen: Array<{ path: string; key: string | undefined }> = [];
    const url = await localServer((request, response) => {
      seen.push({ path: request.url!, key: request.headers["idempotency-key"] as string | undefined });
      if (seen.filter((one) => one.path === request.url).length === 1) {
        response.writeHead(503, { "Content-Type": "application/json", "Retry-After": "0" });
        return response.end(JSON.stringify({ message: "Service Unavailable" }));
      }
      response.writeHead(201, { "Content-Type": "application/json" });
      response.end(JSON.stringify({ message: "Payout created successfully", data: { id: 9 } }));
    });
    const client = new Payments({ apiKey: "pay_x", baseUrl: url });
    expect(await client.payouts.create({ currency: "USD" })).toEqual({ id: 9 });
    expect(seen.map((one) => one.path)).toEqual(["/api/payouts", "/api/payouts"]);
    expect(seen[0]!.key).toMatch(/^sdk_/);
    expect(seen[1]!.key).toBe(seen[0]!.key);
    // A cancel may have been done before the 503: it is reported, not sent again.
    await expect(client.payouts.cancel(9)).rejects.toMatchObject({ status: 503 });
    expect(seen.filter((one) => one.path === "/api/payouts/9/cancel")).toHaveLength(1);
  });

  it("manages webhook endpoints, and verifies a real delivery (a tampered one is refused)", async () => {
    const deliveries: Array<{ body: string; headers: http.IncomingHttpHeaders }> = [];
    const receiver = await localServer((request, response) => {
      let body = "";
      request.on("data", (chunk: Buffer) => (body += chunk.toString()));
      request.on("end", () => {
        deliveries.push({ body, headers: request.headers });
        response.end("ok");
      });
    });
    const endpoint = await sdk.webhookEndpoints.create({
      url: `${receiver}/hooks`,
      event_types: ["payment.pending"],
    });
    expect(endpoint.secret).toMatch(/^whsec_/);
    expect((await sdk.webhookEndpoints.list()).some((item) => item.id === endpoint.id)).toBe(true);
    expect(await sdk.webhookEndpoints.update(endpoint.id, { description: "SDK test" })).toMatchObject({
      description: "SDK test",
    });
    expect((await sdk.webhookEndpoints.retrieve(endpoint.id)).description).toBe("SDK test");
    const payment = await sdk.payments.create({ amount: "2.00" });
    await expect.poll(() => deliveries.length, { timeout: 20_000 }).toBeGreaterThan(0);
    const [delivery] = deliveries;
    const event = sdk.webhooks.verify(delivery!.body, delivery!.headers, endpoint.secret);
    expect(event.event).toBe("payment.pending");
    if (event.event === "payment.pending") expect(event.data.id).toBe(payment.id);
    // The raw body as a server's body parser hands it over: a Buffer, or any Uint8Array.
    for (const raw of [Buffer.from(delivery!.body), new TextEncoder().encode(delivery!.body)])
      expect(sdk.webhooks.verify(raw, delivery!.headers, endpoint.secret).event).toBe("payment.pending");
    expect(() =>
      sdk.webhooks.verify(
        delivery!.body.replace("2.00", "9.00"),
        delivery!.headers as Record<string, string>,
        endpoint.secret,
      ),
    ).toThrow(WebhookVerificationError);
    const rotated = await sdk.webhookEndpoints.rotateSecret(endpoint.id);
    expect(rotated.secret).not.toBe(endpoint.secret);
    await sdk.webhookEndpoints.delete(endpoint.id);
    await expect(sdk.webhookEndpoints.retrieve(endpoint.id)).rejects.toMatchObject({ status: 404 });
  });
});
