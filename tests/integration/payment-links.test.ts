// Payment links over real HTTP: the API (create, list with paid counts, deactivate), another merchant's link,
// and a payer opening one: a new payment each time (source link, waiting for its payer), none when inactive.
import { describe, expect, inject, it } from "vitest";
import { callApi } from "../support/api-client";
import { CARDS, card, postCheckout } from "../support/checkout-client";

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

/** A payer opening the link: where it sends them, and the payment it made (if any). */
async function open(link: Link): Promise<{ status: number; location: string }> {
  const response = await fetch(link.url, { redirect: "manual" });
  return { status: response.status, location: response.headers.get("location") ?? "" };
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
        description: null,
        url: link.url,
        active: true,
        paid_count: 0,
        created_at: link.created_at,
      },
    });
    expect(link.url).toMatch(new RegExp(`^${baseUrl}/l/[0-9A-Za-z]{16}$`));
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
    [{ name: "X", amount: "1.001" }, { amount: ["The amount field must have 0-2 decimal places."] }],
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

describe("a payer opening a link", () => {
  it("gets a new payment and its page each time; paid ones are counted", async () => {
    const link = await createLink({ amount: "7.25" });
    const before = await paymentCount();
    const first = await open(link);
    const second = await open(link);
    expect([first.status, second.status]).toEqual([303, 303]);
    expect(first.location).toMatch(/^\/pay\/[0-9A-Za-z]{43}$/);
    expect(second.location).not.toBe(first.location);
    expect(await paymentCount()).toBe(before + 2);
    const newest = (await api("/api/payments?perPage=2")).body as {
      data: Array<{ id: number; amount: string }>;
    };
    expect(newest.data.map((payment) => payment.amount)).toEqual(["7.25", "7.25"]);
    const paid = await postCheckout(baseUrl, `${baseUrl}${first.location}`, "attempts", card(CARDS.success));
    expect(paid.body).toMatchObject({ status: "completed", redirect_url: null });
    expect((await api(`/api/payment-links/${link.id}`)).body).toMatchObject({ data: { paid_count: 1 } });
    // A link's payment waits for its payer: the second one is still pending after the suite's server has
    // had time to settle it (it settles others after 1.5 s).
    await new Promise((resolve) => setTimeout(resolve, 3000));
    const unpaid = (await api(`/api/payments/${newest.data[0]!.id}`)).body as { data: { status: string } };
    expect(unpaid.data.status).toBe("pending");
    expect((await api(`/api/payment-links/${link.id}`)).body).toMatchObject({ data: { paid_count: 1 } });
  });

  it("an inactive link says so and creates nothing; a HEAD creates nothing either", async () => {
    const link = await createLink();
    expect(
      (await api(`/api/payment-links/${link.id}`, { method: "PATCH", json: { active: false } })).body,
    ).toMatchObject({
      data: { active: false },
    });
    const before = await paymentCount();
    const opened = await open(link);
    expect(opened.location).toMatch(/\/unavailable$/);
    const page = await fetch(`${baseUrl}${opened.location}`);
    expect(await page.text()).toContain("This payment link is no longer active.");
    expect((await fetch(link.url, { method: "HEAD" })).status).toBe(200);
    expect(await paymentCount()).toBe(before);
  });

  it("an unknown link is a 404 page", async () => {
    const opened = await fetch(`${baseUrl}/l/AAAAAAAAAAAAAAAA`, { redirect: "follow" });
    expect(opened.status).toBe(404);
  });
});
