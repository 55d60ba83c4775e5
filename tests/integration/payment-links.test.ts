// Payment links over real HTTP: the API (create, list with paid counts, deactivate), another merchant's link,
// and a payer at one: opening it makes nothing, the first card makes a payment (waiting for its payer) and the
// payer goes on to its page; none when inactive.
import { describe, expect, inject, it } from "vitest";
import { callApi } from "../support/api-client";
import { CARDS, card, newClientAddress, postCheckout, type CheckoutAnswer } from "../support/checkout-client";

const baseUrl = inject("baseUrl");
const { tokens } = inject("data");
const api = (path: string, request: Parameters<typeof callApi>[2] = {}) =>
  callApi(baseUrl, path, { ...request, token: request.token ?? tokens.api });
type Link = { id: number; url: string; paid_count: number; active: boolean };

async function createLink(body: Record<string, unknown> = {}): Promise<Link> {
  const created = await api("/api/payment-links", {
    json: { name: "Annual membership", amount: "25.00", description: "One year", ...body },
  });
  expect(created.status).toBe(201);
  return (created.body as { data: Link }).data;
}

const paymentCount = async () =>
  ((await api("/api/payments?perPage=1")).body as { meta: { total: number } }).meta.total;

describe("POST/GET/PATCH /api/payment-links", () => {
  it("creates a link: 201, its url on APP_URL, listed with 0 paid", async () => {
    const created = await api("/api/payment-links", { json: { name: "T-shirt", amount: 19.5 } });
    expect(created.status).toBe(201);
    const link = (created.body as { data: Link & Record<string, unknown> }).data;
    expect(created.body).toEqual({
      message: "Payment link created successfully",
      data: {
        id: link.id,
        name: "T-shirt",
        amount: "19.50",
        currency: "USD",
        description: null,
        url: link.url,
        active: true,
        paid_count: 0,
        created_at: link.created_at,
      },
    });
    expect(link.url).toMatch(new RegExp(`^${baseUrl}/l/[0-9]+_[0-9A-Za-z]{16}$`));
    expect(created.headers.get("location")).toBe(`/api/payment-links/${link.id}`);
    const listed = (await api("/api/payment-links?perPage=100")).body as {
      data: Link[];
      meta: { total: number };
    };
    expect(listed.data.find((each) => each.id === link.id)).toMatchObject({ paid_count: 0, active: true });
  });

  it.each([
    [{}, { name: ["The name field is required."], amount: ["The amount field is required."] }],
    // A blank name is a missing one, as Laravel reads it (trimmed, then required), not "at least 1 characters".
    [{ name: "", amount: 1 }, { name: ["The name field is required."] }],
    [{ name: "  \t ", amount: 1 }, { name: ["The name field is required."] }],
    [{ name: null, amount: 1 }, { name: ["The name field is required."] }],
    [{ name: 7, amount: 1 }, { name: ["The name field must be a string."] }],
    [{ name: "a\0b", amount: 1 }, { name: ["The name field must not contain NUL characters."] }],
    [{ name: "X", amount: 0 }, { amount: ["The amount field must be greater than 0."] }],
    [{ name: "X", amount: "1.001" }, { amount: ["The amount field must have at most 2 decimal places."] }],
    [
      { name: "x".repeat(101), amount: 1 },
      { name: ["The name field must not be greater than 100 characters."] },
    ],
    [{ name: "X", amount: 1, description: 7 }, { description: ["The description field must be a string."] }],
  ])("%j: 422, nothing written", async (body, errors) => {
    const before = ((await api("/api/payment-links")).body as { meta: { total: number } }).meta.total;
    const response = await api("/api/payment-links", { json: body });
    expect([response.status, response.body]).toEqual([
      422,
      { message: "The given data was invalid.", errors },
    ]);
    expect(((await api("/api/payment-links")).body as { meta: { total: number } }).meta.total).toBe(before);
  });

  it("PATCH {active}: a bad value is a 422; another merchant's link is a 403, none a 404; read scope cannot write", async () => {
    const link = await createLink();
    expect(
      (await api(`/api/payment-links/${link.id}`, { method: "PATCH", json: { active: "no" } })).body,
    ).toEqual({
      message: "The given data was invalid.",
      errors: { active: ["The active field must be true or false."] },
    });
    expect((await api(`/api/payment-links/${link.id}`, { token: tokens.other })).status).toBe(403);
    expect(
      (
        await api(`/api/payment-links/${link.id}`, {
          method: "PATCH",
          json: { active: false },
          token: tokens.other,
        })
      ).status,
    ).toBe(403);
    expect((await api("/api/payment-links/999999999")).status).toBe(404);
    expect(
      (await api("/api/payment-links", { json: { name: "X", amount: 1 }, token: tokens.read })).status,
    ).toBe(403);
    expect((await api(`/api/payment-links/${link.id}`)).body).toMatchObject({ data: { active: true } });
  });
});

/** The payer's first card at a link, as its page's script posts it. */
const payAtLink = (link: Link, form: Record<string, string>, ip = newClientAddress()) =>
  postCheckout(baseUrl, link.url, "attempts", form, { ip }) as Promise<{
    status: number;
    body: CheckoutAnswer["body"] & { checkout_path?: string };
  }>;

describe("a payer at a link", () => {
  it("opening it 10 times, reloads and a HEAD make no payment; the page shows the link and its form", async () => {
    const link = await createLink({ amount: "7.25", name: "Yoga class" });
    const before = await paymentCount();
    for (let visit = 0; visit < 10; visit++) {
      const page = await fetch(link.url, { redirect: "manual" });
      expect(page.status).toBe(200);
      const html = await page.text();
      expect(html).toContain("Yoga class");
      expect(html).toMatch(/Pay (<!-- -->)?\$7\.25/);
    }
    expect((await fetch(link.url, { method: "HEAD" })).status).toBe(200);
    expect(await paymentCount()).toBe(before);
    expect((await api(`/api/payment-links/${link.id}`)).body).toMatchObject({ data: { paid_count: 0 } });
  });

  it.each([
    [
      "a number that fails Luhn",
      card("4242 4242 4242 4241"),
      { card_number: ["Your card number is invalid."] },
    ],
    [
      "a past expiry",
      card(CARDS.success, { expiry: "01 / 20" }),
      { expiry: ["Your card's expiration date is in the past."] },
    ],
    [
      "nothing",
      { name: "Ada" },
      {
        card_number: ["Your card number is invalid."],
        expiry: ["Enter the expiration date as MM / YY."],
        cvc: ["Your card's security code is invalid."],
      },
    ],
  ])("%s: 422 naming the field, no payment made", async (_name, form, errors) => {
    const link = await createLink();
    const before = await paymentCount();
    const answer = await payAtLink(link, form);
    expect([answer.status, answer.body]).toEqual([422, { message: "The given data was invalid.", errors }]);
    expect(await paymentCount()).toBe(before);
  });

  it("the first card makes the payment and the payer goes on to its page; each payer gets their own; paid_count counts the completed", async () => {
    const link = await createLink({ amount: "7.25" });
    const before = await paymentCount();
    const paid = await payAtLink(link, card(CARDS.success));
    expect(paid.status).toBe(200);
    expect(paid.body).toMatchObject({ status: "completed", redirect_url: null });
    expect(paid.body.checkout_path).toMatch(/^\/pay\/[0-9]+_[0-9A-Za-z]{43}$/);
    const declined = await payAtLink(link, card(CARDS.declined));
    expect(declined.body).toMatchObject({ status: "failed", failure_reason: "Your card was declined." });
    expect(declined.body.checkout_path).not.toBe(paid.body.checkout_path);
    const authentication = await payAtLink(link, card(CARDS.authentication));
    expect(authentication.body).toMatchObject({ status: "requires_authentication" });
    expect(await paymentCount()).toBe(before + 3);
    const newest = (await api("/api/payments?perPage=3")).body as {
      data: Array<{ id: number; amount: string; status: string }>;
    };
    expect(newest.data.map((payment) => [payment.amount, payment.status])).toEqual([
      ["7.25", "pending"],
      ["7.25", "failed"],
      ["7.25", "completed"],
    ]);
    // Its page is the payment's checkout, which shows the outcome and the link.
    expect(await (await fetch(`${baseUrl}${paid.body.checkout_path}`)).text()).toContain("Payment complete");
    expect((await api(`/api/payment-links/${link.id}`)).body).toMatchObject({ data: { paid_count: 1 } });
    // A link's payment waits for its payer: still pending after the suite's server settles others (1.5 s).
    await new Promise((resolve) => setTimeout(resolve, 3000));
    expect((await api(`/api/payments/${newest.data[0]!.id}`)).body).toMatchObject({
      data: { status: "pending" },
    });
    const done = await postCheckout(
      baseUrl,
      `${baseUrl}${authentication.body.checkout_path}`,
      "authentication",
      {
        result: "complete",
      },
    );
    expect(done.body).toMatchObject({ status: "completed" });
    // Reopening the link afterwards makes nothing more.
    await fetch(link.url);
    expect(await paymentCount()).toBe(before + 3);
    expect((await api(`/api/payment-links/${link.id}`)).body).toMatchObject({ data: { paid_count: 2 } });
  });

  it("a number that is not a test card makes the payment, and the payer goes on to it with the field error; it counts there", async () => {
    const link = await createLink();
    const ip = newClientAddress();
    const refused = await payAtLink(link, card(CARDS.real), ip);
    expect([refused.status, refused.body.errors]).toEqual([
      422,
      { card_number: ["Use a test card number."] },
    ]);
    expect(refused.body.checkout_path).toMatch(
      /^\/pay\/[0-9]+_[0-9A-Za-z]{43}\?error=invalid&fields=card_number%3AnotTestCard$/,
    );
    const checkoutUrl = `${baseUrl}${refused.body.checkout_path!.split("?")[0]}`;
    for (let index = 0; index < 4; index++)
      await postCheckout(baseUrl, checkoutUrl, "attempts", card(CARDS.real), { ip });
    expect((await postCheckout(baseUrl, checkoutUrl, "attempts", card(CARDS.success), { ip })).status).toBe(
      429,
    );
    const page = await (await fetch(`${baseUrl}${refused.body.checkout_path}`)).text();
    expect(page).toContain("Use a test card number.");
  });

  it("without script: the form's post makes the payment and sends the payer to its page; a refused one stays on the link", async () => {
    const link = await createLink();
    const post = (form: Record<string, string>) =>
      fetch(`${link.url}/attempts`, {
        method: "POST",
        redirect: "manual",
        headers: { Origin: "null", "Sec-Fetch-Site": "same-origin", "X-Forwarded-For": newClientAddress() },
        body: new URLSearchParams(form),
      });
    const before = await paymentCount();
    const refused = await post(card(CARDS.success, { cvc: "1" }));
    expect([refused.status, refused.headers.get("location")]).toEqual([
      303,
      `${new URL(link.url).pathname}?error=invalid&fields=cvc%3Acvc`,
    ]);
    expect(await paymentCount()).toBe(before);
    const paid = await post(card(CARDS.success));
    expect(paid.status).toBe(303);
    expect(paid.headers.get("location")).toMatch(/^\/pay\/[0-9]+_[0-9A-Za-z]{43}$/);
    expect(await paymentCount()).toBe(before + 1);
    // Another site cannot post it.
    const forged = await postCheckout(baseUrl, link.url, "attempts", card(CARDS.success), {
      origin: "https://evil.example",
    });
    expect(forged.status).toBe(403);
  });

  it("an inactive link says so and takes nothing", async () => {
    const link = await createLink();
    expect(
      (await api(`/api/payment-links/${link.id}`, { method: "PATCH", json: { active: false } })).body,
    ).toMatchObject({ data: { active: false } });
    const before = await paymentCount();
    expect(await (await fetch(link.url)).text()).toContain("This payment link is no longer active.");
    const answer = await payAtLink(link, card(CARDS.success));
    expect([answer.status, answer.body]).toEqual([
      410,
      { message: "This payment link is no longer active." },
    ]);
    expect(await paymentCount()).toBe(before);
  });

  it("an unknown link is a 404 page, and its form a JSON 404", async () => {
    expect((await fetch(`${baseUrl}/l/AAAAAAAAAAAAAAAA`)).status).toBe(404);
    const answer = await postCheckout(
      baseUrl,
      `${baseUrl}/l/AAAAAAAAAAAAAAAA`,
      "attempts",
      card(CARDS.success),
    );
    expect([answer.status, answer.body]).toEqual([404, { message: "Not Found" }]);
  });
});
