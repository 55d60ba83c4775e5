// Mollie's own Node library against the Mollie stand-in (tests/support/processors/mollie): the stand-in must answer
// the way the library expects Mollie to, and its test controls must do what they say.
import http from "node:http";
import https from "node:https";
import type { AddressInfo } from "node:net";
import { createMollieClient, MollieApiError, PaymentMethod, type MollieClient } from "@mollie/api-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMollieStandIn, type MollieStandIn } from "../support/processors/mollie";

let stand: MollieStandIn;
let mollie: MollieClient;
let receiver: http.Server;
let webhookUrl: string;
const received: { body: string; contentType: string | undefined }[] = [];

const client = (apiKey: string) =>
  createMollieClient({ apiKey, apiEndpoint: stand.apiEndpoint, caCertificates: stand.ca });

/** Polls until `check` gives a value (wide: a loaded machine is slow), failing after `ms`. */
async function until<T>(check: () => T | undefined | false, ms = 10_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > end) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The error a promise rejects with (the test fails if it resolves). */
async function rejection(promise: Promise<unknown>): Promise<MollieApiError> {
  const outcome = await promise.then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(outcome, "the call should have failed").toBeInstanceOf(Error);
  return outcome as MollieApiError;
}

/** A raw HTTPS request to the stand-in, for its pages and the endpoints the library has no binder for. */
function raw(
  path: string,
  options: { method?: string; body?: string; headers?: Record<string, string> } = {},
) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string }>(
    (resolve, reject) => {
      const request = https.request(
        new URL(path, stand.url),
        { method: options.method ?? "GET", headers: options.headers, ca: stand.ca },
        (response) => {
          let text = "";
          response.setEncoding("utf8");
          response.on("data", (chunk: string) => (text += chunk));
          response.on("end", () =>
            resolve({ status: response.statusCode ?? 0, headers: response.headers, text }),
          );
        },
      );
      request.on("error", reject);
      request.end(options.body);
    },
  );
}

const order = (description: string, value = "10.00") => ({
  amount: { currency: "EUR", value },
  description,
  redirectUrl: "https://shop.example/return",
  webhookUrl,
  metadata: { order: description },
});

beforeAll(async () => {
  stand = await startMollieStandIn();
  mollie = client(stand.addKey());
  receiver = http.createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
    req.on("end", () => {
      received.push({ body, contentType: req.headers["content-type"] });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  webhookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks/mollie`;
});

afterAll(async () => {
  await stand?.close();
  await new Promise((resolve) => (receiver ? receiver.close(resolve) : resolve(undefined)));
});

describe("the Mollie stand-in, driven by @mollie/api-client", () => {
  it("refuses a key it does not know with Mollie's 401, and answers one it does", async () => {
    const error = await rejection(client(`test_${"x".repeat(30)}`).methods.list());
    expect(error).toBeInstanceOf(MollieApiError);
    expect(error.statusCode).toBe(401);
    expect(error.getDocumentationUrl()).toBe("https://docs.mollie.com/overview/authentication");
    const methods = await mollie.methods.list();
    expect(methods.map((method) => method.id)).toContain("creditcard");
  });

  it("creates a payment, shows it, and calls the webhook when the payer pays", async () => {
    const created = await mollie.payments.create(order("Order 1"));
    expect(created.id).toMatch(/^tr_[A-Za-z0-9]+$/);
    expect(created.status).toBe("open");
    expect(created.mode).toBe("test");
    expect(created.amount).toEqual({ currency: "EUR", value: "10.00" });
    expect(created.getCheckoutUrl()).toMatch(new RegExp(`^${stand.url}/checkout/`));
    const page = await raw(created.getCheckoutUrl()!);
    expect(page.text).toContain(">Paid</button>");

    await stand.setStatus(created.id, "paid");
    const delivered = await until(() => received.find((call) => call.body === `id=${created.id}`));
    expect(delivered.contentType).toBe("application/x-www-form-urlencoded");
    expect(stand.webhookCalls.find((call) => call.paymentId === created.id)?.status).toBe(200);

    const paid = await mollie.payments.get(created.id);
    expect(paid.status).toBe("paid");
    expect(paid.hasRefunds()).toBe(false);
    expect(paid.paidAt).toBeTruthy();
    expect(paid.amountRemaining).toEqual({ currency: "EUR", value: "10.00" });
    expect(paid.metadata).toEqual({ order: "Order 1" });

    // Another key is another account: the payment does not exist for it.
    const stranger = await rejection(client(stand.addKey()).payments.get(created.id));
    expect(stranger.statusCode).toBe(404);
  });

  it("lets the payer fail a payment on the hosted page, then sends them back with a 303", async () => {
    const created = await mollie.payments.create({ ...order("Order 2"), method: PaymentMethod.creditcard });
    const answer = await raw(created.getCheckoutUrl()!, {
      method: "POST",
      body: "status=failed",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
    });
    expect(answer.status).toBe(303);
    expect(answer.headers.location).toBe("https://shop.example/return");
    await until(() => received.find((call) => call.body === `id=${created.id}`));
    const failed = await mollie.payments.get(created.id);
    expect(failed.status).toBe("failed");
    expect(failed.failedAt).toBeTruthy();
    expect(failed.details).toMatchObject({ failureReason: "card_declined" });
    expect((await raw(created.getCheckoutUrl()!)).text).toContain("This payment is finished");
  });

  it("replays a create that repeats its Idempotency-Key, and refuses the key with other parameters", async () => {
    const before = stand.payments().length;
    const first = await mollie.payments.create({ ...order("Order 3"), idempotencyKey: "order-3" });
    const again = await mollie.payments.create({ ...order("Order 3"), idempotencyKey: "order-3" });
    expect(again.id).toBe(first.id);
    expect(stand.payments().length).toBe(before + 1);
    const reused = await rejection(
      mollie.payments.create({ ...order("Order 3b"), idempotencyKey: "order-3" }),
    );
    expect(reused.statusCode).toBe(400);
    expect(stand.payments().length).toBe(before + 1);
  });

  it("refunds part and then the rest, refuses more than remains, and reports the fee", async () => {
    const unpaid = await mollie.payments.create(order("Order 4"));
    const notPaid = await rejection(
      mollie.paymentRefunds.create({ paymentId: unpaid.id, amount: { currency: "EUR", value: "1.00" } }),
    );
    expect(notPaid.statusCode).toBe(422);

    const payment = await mollie.payments.create(order("Order 5"));
    await stand.setStatus(payment.id, "paid");
    const part = await mollie.paymentRefunds.create({
      paymentId: payment.id,
      amount: { currency: "EUR", value: "4.00" },
      description: "one item back",
    });
    expect(part.status).toBe("pending");
    expect((await mollie.payments.get(payment.id)).amountRemaining).toEqual({
      currency: "EUR",
      value: "6.00",
    });

    const tooMuch = await rejection(
      mollie.paymentRefunds.create({ paymentId: payment.id, amount: { currency: "EUR", value: "6.01" } }),
    );
    expect(tooMuch.statusCode).toBe(422);
    expect(tooMuch.field).toBe("amount");

    const rest = await mollie.paymentRefunds.create({
      paymentId: payment.id,
      amount: { currency: "EUR", value: "6.00" },
    });
    const after = await mollie.payments.get(payment.id);
    expect(after.amountRefunded).toEqual({ currency: "EUR", value: "10.00" });
    expect(after.amountRemaining).toEqual({ currency: "EUR", value: "0.00" });
    const listed = await mollie.paymentRefunds.page({ paymentId: payment.id });
    expect(listed.map((refund) => refund.id).sort()).toEqual([part.id, rest.id].sort());

    // A refund's change calls the payment's webhook, with the payment's id.
    const calls = received.filter((call) => call.body === `id=${payment.id}`).length;
    await stand.setRefundStatus(part.id, "refunded");
    await until(() => received.filter((call) => call.body === `id=${payment.id}`).length > calls);
    expect((await mollie.paymentRefunds.get(part.id, { paymentId: payment.id })).status).toBe("refunded");

    // The fee: 0.29 + 1.8% of 10.00 = 0.47, withheld from the payment's balance transaction.
    const key = stand.addKey();
    const other = client(key);
    const charged = await other.payments.create(order("Order 6"));
    await stand.setStatus(charged.id, "paid");
    const listing = await raw("/v2/balances/primary/transactions", {
      headers: { Authorization: `Bearer ${key}` },
    });
    const transactions = (
      JSON.parse(listing.text) as {
        _embedded: { balance_transactions: { type: string; deductions: unknown; resultAmount: unknown }[] };
      }
    )._embedded.balance_transactions;
    expect(transactions).toEqual([
      expect.objectContaining({
        type: "payment",
        deductions: { currency: "EUR", value: "-0.47" },
        resultAmount: { currency: "EUR", value: "9.53" },
      }),
    ]);
  });

  it("surfaces Mollie's 500 as the library's ApiError, after the library's own retries", async () => {
    const before = stand.payments().length;
    const sent = stand.requests.length;
    stand.fault("500", 3);
    const error = await rejection(mollie.payments.create(order("Order 7")));
    expect(error).toBeInstanceOf(MollieApiError);
    expect(error.statusCode).toBe(500);
    expect(stand.payments().length).toBe(before);
    // Three attempts, all under the one Idempotency-Key the library made.
    const attempts = stand.requests.slice(sent);
    expect(attempts).toHaveLength(3);
    expect(new Set(attempts.map((attempt) => attempt.idempotencyKey)).size).toBe(1);
  });

  it("reports a 200 that is not a payment as an unexpected response", async () => {
    const payment = await mollie.payments.create(order("Order 8"));
    stand.fault("undocumented");
    await expect(mollie.payments.get(payment.id)).rejects.toThrow(/unexpected response/);
  });

  it("makes one payment of a create whose answer was lost, retried with the same Idempotency-Key", async () => {
    const before = stand.payments().length;
    stand.fault("drop-after");
    const lost = await rejection(mollie.payments.create({ ...order("Order 9"), idempotencyKey: "order-9" }));
    expect(lost).toBeInstanceOf(MollieApiError);
    expect(stand.payments().length).toBe(before + 1);
    const retried = await mollie.payments.create({ ...order("Order 9"), idempotencyKey: "order-9" });
    expect(stand.payments().length).toBe(before + 1);
    expect(stand.payments().some((payment) => payment.id === retried.id)).toBe(true);
  });
});
