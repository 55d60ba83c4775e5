// The payer's side over real HTTP (DESIGN.md, "Checkout"): return_url and checkout_url on the API, the page
// and its headers, each test card through the page's own endpoints, field errors that change nothing, who
// settles, races that give one transition, and the card-testing limits.
import { describe, expect, inject, it } from "vitest";
import { callApi } from "../support/api-client";
import { CARDS, card, newClientAddress, paymentWithCheckout, postCheckout } from "../support/checkout-client";
import { logInOverHttp } from "../support/http-session";
import { startWorkerProcess } from "../support/test-server";

const baseUrl = inject("baseUrl");
const serverEnv = inject("serverEnv");
const { tokens, seed } = inject("data");
const api = (path: string, request: Parameters<typeof callApi>[2] = {}) =>
  callApi(baseUrl, path, { ...request, token: request.token ?? tokens.api });
const retrieve = async (id: number) =>
  ((await api(`/api/payments/${id}`)).body as { data: Record<string, unknown> }).data;
const eventsOf = async (id: number) =>
  ((await api(`/api/events?payment_id=${id}`)).body as { data: Array<{ event: string }> }).data.map(
    (event) => event.event,
  );

describe("return_url and checkout_url on the API", () => {
  it.each([
    [{ return_url: "not a url" }, "The return url field must be a valid URL."],
    [{ return_url: "ftp://example.com/done" }, "The return url field must be a valid URL."],
    [{ return_url: "/relative/path" }, "The return url field must be a valid URL."],
    [{ return_url: 42 }, "The return url field must be a string."],
    [
      { return_url: `https://example.com/${"x".repeat(2049)}` },
      "The return url field must not be greater than 2048 characters.",
    ],
    [{ return_url: "http://shop.example.com/done" }, "The return url field must use https://."],
  ])("%j: 422 naming return_url, nothing written", async (body, message) => {
    const before = ((await api("/api/payments?perPage=1")).body as { meta: { total: number } }).meta.total;
    const response = await api("/api/payments", { json: { amount: 5, ...body } });
    expect([response.status, response.body]).toEqual([
      422,
      { message: "The given data was invalid.", errors: { return_url: [message] } },
    ]);
    expect(((await api("/api/payments?perPage=1")).body as { meta: { total: number } }).meta.total).toBe(
      before,
    );
  });

  it("a pending payment carries its checkout_url; the page shows merchant, amount and reference, with its headers", async () => {
    const { id, checkoutUrl } = await paymentWithCheckout(baseUrl, tokens.api, { external_id: "order_881" });
    expect(checkoutUrl).toMatch(new RegExp(`^${baseUrl}/pay/[0-9]+_[0-9A-Za-z]{43}$`));
    expect(await retrieve(id)).toMatchObject({ status: "pending", payment_method: null });
    const page = await fetch(checkoutUrl);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    expect(page.headers.get("referrer-policy")).toBe("no-referrer");
    expect(page.headers.get("cache-control")).toContain("no-store");
    const html = await page.text();
    expect(html).toContain("order_881");
    expect(html).toMatch(/Pay (<!-- -->)?\$12\.50/);
    // The list items stay exactly the seed's, and `currency` (DESIGN.md, "Currencies").
    const list = (await api("/api/payments?perPage=1")).body as { data: Array<Record<string, unknown>> };
    expect(Object.keys(list.data[0]!)).toEqual([
      "id",
      "external_id",
      "type",
      "status",
      "amount",
      "currency",
      "created_at",
    ]);
  });

  it.each([
    `/pay/${"A".repeat(43)}`,
    "/pay/short",
    `/pay/${"A".repeat(43)}/more/path`,
    "/l/AAAAAAAAAAAAAAAA",
    "/l/nope/more",
  ])("%s: a 404 with the payer's own not-found page", async (path) => {
    // A 404 answers before the page streams, so Next.js sends its error shell and the page renders the
    // nearest not-found from its payload: the payer's (e2e/checkout.spec.ts looks at it in Chromium).
    const response = await fetch(`${baseUrl}${path}`);
    expect(response.status).toBe(404);
    const html = await response.text();
    expect(html).toContain("<title>Payment page not found</title>");
    expect(html).toContain("This payment page doesn’t exist.");
    expect(html).toContain("ask the business that sent it for a new one");
  });

  it("a payer's page runs only scripts that carry its response's nonce", async () => {
    const { checkoutUrl } = await paymentWithCheckout(baseUrl, tokens.api);
    const nonces = [];
    for (const url of [checkoutUrl, checkoutUrl, `${baseUrl}/pay/short`]) {
      const page = await fetch(url);
      const policy = page.headers.get("content-security-policy") ?? "";
      expect(policy).toContain("frame-ancestors 'none'");
      const nonce = /script-src 'self' 'nonce-([A-Za-z0-9+/=]+)' 'strict-dynamic'/.exec(policy)?.[1];
      expect(nonce, policy).toBeTruthy();
      nonces.push(nonce);
      const scripts = (await page.text()).match(/<script\b[^>]*>/g) ?? [];
      expect(scripts.length).toBeGreaterThan(0);
      for (const script of scripts) expect(script).toContain(`nonce="${nonce}"`);
    }
    expect(new Set(nonces).size).toBe(3);
  });

  it("an unknown or malformed token's endpoints are a JSON 404", async () => {
    const answer = await postCheckout(
      baseUrl,
      `${baseUrl}/pay/${"A".repeat(43)}`,
      "attempts",
      card(CARDS.success),
    );
    expect([answer.status, answer.body]).toEqual([404, { message: "Not Found" }]);
  });
});

describe("test cards at the page", () => {
  it("4242 completes it: the payer goes to return_url with payment_id and status; the card is on the payment", async () => {
    const { id, checkoutUrl } = await paymentWithCheckout(baseUrl, tokens.api);
    const paid = await postCheckout(baseUrl, checkoutUrl, "attempts", card(CARDS.success));
    expect(paid).toEqual({
      status: 200,
      body: {
        status: "completed",
        failure_reason: null,
        redirect_url: `http://127.0.0.1:9/return?order=7&payment_id=${id}&status=completed`,
      },
    });
    expect(await retrieve(id)).toMatchObject({
      status: "completed",
      checkout_url: null,
      payment_method: { type: "card", brand: "visa", last4: "4242", exp_month: 12, exp_year: 2034 },
    });
  });

  it.each([
    [CARDS.declined, "Your card was declined.", "0002"],
    [CARDS.insufficientFunds, "Your card has insufficient funds.", "9995"],
    [CARDS.expired, "Your card has expired.", "0069"],
  ])("%s fails it: %s", async (number, reason, last4) => {
    const { id, checkoutUrl } = await paymentWithCheckout(baseUrl, tokens.api);
    const answer = await postCheckout(baseUrl, checkoutUrl, "attempts", card(number));
    expect(answer.body).toMatchObject({ status: "failed", failure_reason: reason });
    expect(answer.body.redirect_url).toContain(`payment_id=${id}&status=failed`);
    expect(await retrieve(id)).toMatchObject({ status: "failed", payment_method: { last4 } });
  });

  it.each([
    ["complete", "completed", null],
    ["fail", "failed", "The payer failed authentication."],
  ])("the authentication card, then %s: %s", async (result, status, reason) => {
    const { id, checkoutUrl } = await paymentWithCheckout(baseUrl, tokens.api);
    const ip = newClientAddress();
    const step = await postCheckout(baseUrl, checkoutUrl, "attempts", card(CARDS.authentication), { ip });
    expect(step).toEqual({ status: 200, body: { status: "requires_authentication" } });
    expect(await retrieve(id)).toMatchObject({ status: "pending" });
    const page = await (await fetch(checkoutUrl)).text();
    expect(page).toContain("Complete authentication");
    const done = await postCheckout(baseUrl, checkoutUrl, "authentication", { result }, { ip });
    expect(done.body).toMatchObject({ status, failure_reason: reason });
    expect(await retrieve(id)).toMatchObject({ status, payment_method: { last4: "3184" } });
  });

  it.each([
    [
      "a number that fails Luhn",
      card("4242 4242 4242 4241"),
      { card_number: ["Your card number is invalid."] },
    ],
    ["letters", card("abcd"), { card_number: ["Your card number is invalid."] }],
    ["another valid card", card(CARDS.real), { card_number: ["Use a test card number."] }],
    [
      "a past expiry",
      card(CARDS.success, { expiry: "01 / 20" }),
      { expiry: ["Your card's expiration date is in the past."] },
    ],
    [
      "month 13",
      card(CARDS.success, { expiry: "13 / 30" }),
      { expiry: ["Enter the expiration date as MM / YY."] },
    ],
    ["a 2-digit CVC", card(CARDS.success, { cvc: "12" }), { cvc: ["Your card's security code is invalid."] }],
    ["no name", card(CARDS.success, { name: " " }), { name: ["Enter the name on the card."] }],
    [
      "nothing at all",
      {},
      {
        card_number: ["Your card number is invalid."],
        expiry: ["Enter the expiration date as MM / YY."],
        cvc: ["Your card's security code is invalid."],
        name: ["Enter the name on the card."],
      },
    ],
  ])("%s: 422 naming the field, the payment unchanged", async (_name, form, errors) => {
    const { id, checkoutUrl } = await paymentWithCheckout(baseUrl, tokens.api);
    const answer = await postCheckout(baseUrl, checkoutUrl, "attempts", form);
    expect([answer.status, answer.body]).toEqual([422, { message: "The given data was invalid.", errors }]);
    expect(await retrieve(id)).toMatchObject({ status: "pending", payment_method: null });
    expect(await eventsOf(id)).toEqual(["payment.pending"]);
  });

  it("a payment with a return_url waits for its payer: the simulator does not settle it", async () => {
    // On PostgreSQL the suite's server runs no settler: a worker process does, as in production.
    const worker = serverEnv.WORKER_MODE === "off" ? await startWorkerProcess(serverEnv) : undefined;
    try {
      const waiting = await paymentWithCheckout(baseUrl, tokens.api);
      const settled = await paymentWithCheckout(baseUrl, tokens.api, { return_url: null });
      // Payments settle 1.5 s after they are made.
      await expect
        .poll(async () => (await retrieve(settled.id)).status, { timeout: 20_000 })
        .toBe("completed");
      expect(await retrieve(waiting.id)).toMatchObject({ status: "pending" });
    } finally {
      await worker?.kill("SIGTERM");
    }
  });
});

describe("the page's form without script", () => {
  it("is sent back to the page with its field errors named in the URL, shown in the page's own words", async () => {
    const { checkoutUrl } = await paymentWithCheckout(baseUrl, tokens.api);
    const posted = await fetch(`${checkoutUrl}/attempts`, {
      method: "POST",
      redirect: "manual",
      headers: { Origin: baseUrl, "X-Forwarded-For": newClientAddress() },
      body: new URLSearchParams(card(CARDS.real, { cvc: "1" })),
    });
    const location = posted.headers.get("location")!;
    expect([posted.status, location]).toEqual([
      303,
      `${new URL(checkoutUrl).pathname}?error=invalid&fields=cvc%3Acvc`,
    ]);
    const page = await (await fetch(`${baseUrl}${location}`)).text();
    expect(page).toContain("Your card&#x27;s security code is invalid.");
    // A crafted URL shows only the page's own messages.
    const crafted = await (await fetch(`${checkoutUrl}?error=invalid&fields=cvc:Send%20money%20to`)).text();
    expect(crafted).not.toContain("Send money to");
  });
});

describe("the first outcome wins", () => {
  it("two tabs paying at once: one pays, the other is told it is already completed; one event", async () => {
    const { id, checkoutUrl } = await paymentWithCheckout(baseUrl, tokens.api);
    const answers = await Promise.all([
      postCheckout(baseUrl, checkoutUrl, "attempts", card(CARDS.success)),
      postCheckout(baseUrl, checkoutUrl, "attempts", card(CARDS.declined)),
    ]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
    const final = (await retrieve(id)).status;
    for (const answer of answers) expect(answer.body.status).toBe(final);
    expect((await eventsOf(id)).filter((type) => type !== "payment.pending")).toHaveLength(1);
  });

  it("paying against a cancel: one transition, one event, and the page says which", async () => {
    const { id, checkoutUrl } = await paymentWithCheckout(baseUrl, tokens.api);
    const [paid, canceled] = await Promise.all([
      postCheckout(baseUrl, checkoutUrl, "attempts", card(CARDS.success)),
      api(`/api/payments/${id}/cancel`, { method: "POST" }),
    ]);
    const final = String((await retrieve(id)).status);
    expect(paid.body.status).toBe(final);
    expect(canceled.status).toBe(final === "failed" ? 200 : 409);
    expect((await eventsOf(id)).filter((type) => type !== "payment.pending")).toEqual([`payment.${final}`]);
  });

  // The expirer is the background service's own function, run here at the moment the payer pays: PostgreSQL
  // only (on PGlite the server holds the database alone).
  it.skipIf(!process.env.DATABASE_URL)(
    "paying against the expirer: one transition, one event, and the page says which",
    async () => {
      const { db } = await import("../support/direct-db");
      const { expireStalePayments } = await import("@/lib/payments/settlement");
      const { selectRows } = await import("@/db/client");
      const { sql } = await import("drizzle-orm");
      // Every pending payment is past a 0 ms limit: run until none is left, as the service's rounds would.
      const expireAll = async () => {
        while ((await expireStalePayments(db, 0, 1000)) > 0);
      };
      const finals: string[] = [];
      for (let round = 0; round < 5; round++) {
        const { id, checkoutUrl } = await paymentWithCheckout(baseUrl, tokens.api);
        const [paid] = await Promise.all([
          postCheckout(baseUrl, checkoutUrl, "attempts", card(CARDS.success)),
          expireAll(),
        ]);
        const payment = await retrieve(id);
        finals.push(String(payment.status));
        expect(paid.body.status).toBe(payment.status);
        if (payment.status === "failed") {
          const [row] = await selectRows<{ failure_reason: string }>(
            db,
            sql`select failure_reason from payments where id = ${id} and merchant_id = ${seed.merchant_id}`,
          );
          expect(row!.failure_reason).toMatch(/^Expired: /);
        }
        expect((await eventsOf(id)).filter((type) => type !== "payment.pending")).toEqual([
          `payment.${String(payment.status)}`,
        ]);
      }
      expect(finals.every((status) => status === "completed" || status === "failed")).toBe(true);
    },
  );
});

describe("card testing", () => {
  it("5 numbers that are not test cards lock the checkout: the 6th attempt, even with 4242, is 'Too many attempts.'; the merchant sees it", async () => {
    const { id, checkoutUrl } = await paymentWithCheckout(baseUrl, tokens.api);
    const ip = newClientAddress();
    // Typos (numbers that fail the Luhn check) count nowhere.
    for (let index = 0; index < 6; index++)
      expect(
        (await postCheckout(baseUrl, checkoutUrl, "attempts", card("4242 4242 4242 4241"), { ip })).status,
      ).toBe(422);
    for (let index = 0; index < 5; index++) {
      const refused = await postCheckout(baseUrl, checkoutUrl, "attempts", card(CARDS.real), { ip });
      expect([refused.status, refused.body.errors]).toEqual([
        422,
        { card_number: ["Use a test card number."] },
      ]);
    }
    const locked = await postCheckout(baseUrl, checkoutUrl, "attempts", card(CARDS.success), { ip });
    expect([locked.status, locked.body]).toEqual([429, { message: "Too many attempts." }]);
    expect(await retrieve(id)).toMatchObject({ status: "pending" });
    expect(await (await fetch(checkoutUrl)).text()).toContain("Too many attempts.");
    const { cookie } = await logInOverHttp(baseUrl, seed.email, seed.password);
    const dashboard = await (
      await fetch(`${baseUrl}/dashboard/payments/${id}`, { headers: { cookie } })
    ).text();
    expect(dashboard).toMatch(/5 refused cards, locked/);
    expect(dashboard).toContain("Its checkout page is locked");
  });

  it("a QA run: 100 test-card payments from one address in an hour go through, declines included", async () => {
    const ip = newClientAddress();
    const cards = [CARDS.success, CARDS.declined, CARDS.insufficientFunds, CARDS.expired];
    const answers = [];
    for (let index = 0; index < 100; index++) {
      const { checkoutUrl } = await paymentWithCheckout(baseUrl, tokens.api);
      answers.push(
        (await postCheckout(baseUrl, checkoutUrl, "attempts", card(cards[index % 4]!), { ip })).status,
      );
    }
    expect(answers.filter((status) => status === 200)).toHaveLength(100);
    // The authentication step, failed, counts no more than a decline.
    const { checkoutUrl } = await paymentWithCheckout(baseUrl, tokens.api);
    await postCheckout(baseUrl, checkoutUrl, "attempts", card(CARDS.authentication), { ip });
    expect(
      (await postCheckout(baseUrl, checkoutUrl, "authentication", { result: "fail" }, { ip })).status,
    ).toBe(200);
  });

  it("20 numbers that are not test cards an hour from one address, across checkouts; then every attempt is a 429 that says when to try again", async () => {
    const ip = newClientAddress();
    for (let index = 0; index < 5; index++) {
      const { checkoutUrl } = await paymentWithCheckout(baseUrl, tokens.api);
      for (let attempt = 0; attempt < 4; attempt++)
        expect((await postCheckout(baseUrl, checkoutUrl, "attempts", card(CARDS.real), { ip })).status).toBe(
          422,
        );
    }
    const { id, checkoutUrl } = await paymentWithCheckout(baseUrl, tokens.api);
    const before = Date.now();
    const response = await fetch(`${checkoutUrl}/attempts`, {
      method: "POST",
      headers: { Accept: "application/json", Origin: baseUrl, "X-Forwarded-For": ip },
      body: new URLSearchParams(card(CARDS.success)),
    });
    const body = (await response.json()) as { message: string; retry_at: string };
    expect([response.status, body.message]).toEqual([429, "Too many attempts."]);
    const retryAfter = Number(response.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(0);
    expect(Math.abs(Date.parse(body.retry_at) - (before + retryAfter * 1000))).toBeLessThan(5_000);
    expect(await retrieve(id)).toMatchObject({ status: "pending" });
    // The page says when, and its Pay button is off (a form posted without script is refused by the server).
    const page = await (await fetch(checkoutUrl, { headers: { "X-Forwarded-For": ip } })).text();
    expect(page).toMatch(
      /Too many attempts\.(<!-- -->)? Try again at <time dateTime="[^"]+">\d\d:\d\d UTC<\/time>/,
    );
    expect(page).toMatch(/<button type="submit"[^>]*disabled=""[^>]*>Pay /);
    const withoutScript = await fetch(`${checkoutUrl}/attempts`, {
      method: "POST",
      redirect: "manual",
      headers: { Origin: baseUrl, "X-Forwarded-For": ip },
      body: new URLSearchParams(card(CARDS.success)),
    });
    expect([withoutScript.status, withoutScript.headers.get("location")]).toEqual([
      303,
      `${new URL(checkoutUrl).pathname}?error=limited`,
    ]);
    expect(await retrieve(id)).toMatchObject({ status: "pending" });
    // Another address is not held back.
    expect((await postCheckout(baseUrl, checkoutUrl, "attempts", card(CARDS.success))).status).toBe(200);
  });

  it("a post from another site is refused; the page's own form without script (Origin: null, same-origin) is not", async () => {
    const { checkoutUrl } = await paymentWithCheckout(baseUrl, tokens.api);
    const refused = await postCheckout(baseUrl, checkoutUrl, "attempts", card(CARDS.success), {
      origin: "https://evil.example",
    });
    expect(refused.status).toBe(403);
    const sandboxed = await postCheckout(baseUrl, checkoutUrl, "attempts", card(CARDS.success), {
      origin: "null",
      headers: { "Sec-Fetch-Site": "cross-site" },
    });
    expect(sandboxed.status).toBe(403);
    const form = await fetch(`${checkoutUrl}/attempts`, {
      method: "POST",
      redirect: "manual",
      headers: { Origin: "null", "Sec-Fetch-Site": "same-origin", "X-Forwarded-For": newClientAddress() },
      body: new URLSearchParams(card(CARDS.success)),
    });
    expect([form.status, form.headers.get("location")]).toEqual([
      303,
      expect.stringContaining("status=completed"),
    ]);
  });
});
