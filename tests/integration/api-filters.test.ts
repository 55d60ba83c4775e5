// The API beyond the seed over real HTTP (DESIGN.md, "The API beyond the seed"): the list's filters alone,
// combined and refused, with totals and links that follow them; every refund; customers; metadata on create;
// Prefer: return=representation. Each test's payments belong to a customer id of its own.
import { randomBytes } from "node:crypto";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { callApi } from "../support/api-client";
import { logInOverHttp } from "../support/http-session";

const baseUrl = inject("baseUrl");
const { tokens, seed } = inject("data");
const api = (path: string, request: Parameters<typeof callApi>[2] = {}) =>
  callApi(baseUrl, path, { ...request, token: request.token ?? tokens.api });
type Page = {
  data: Array<{ id: number; status: string; external_id: string | null }>;
  meta: { total: number };
  links: Record<string, string | null>;
};
const list = async (query: string) => {
  const response = await api(`/api/payments?${query}`);
  expect(response.status).toBe(200);
  return response.body as Page;
};
const ids = (page: Page) => page.data.map((payment) => payment.id);
const unique = () => randomBytes(5).toString("hex");

/** A payment made for the customer; settled as asked (a return_url keeps it waiting for its payer). */
async function payment(
  customer: string,
  amount: string,
  outcome: "pending" | "completed" | "failed",
  extra = {},
) {
  const created = await api("/api/payments", {
    json: { amount, customer_id: customer, return_url: "http://127.0.0.1:9/return", ...extra },
  });
  expect(created.status).toBe(201);
  const id = Number(created.headers.get("location")!.split("/").at(-1));
  if (outcome !== "pending")
    expect((await api(`/api/test-helpers/payments/${id}/settle`, { json: { outcome } })).status).toBe(200);
  return id;
}

/** Refunds `amount` of a completed payment and sees it succeed (the simulator may get there first). */
async function refund(paymentId: number, amount: string) {
  const made = await api(`/api/payments/${paymentId}/refunds`, { json: { amount } });
  expect(made.status).toBe(201);
  const refundId = (made.body as { data: { id: number } }).data.id;
  await api(`/api/test-helpers/refunds/${refundId}/settle`, { json: { outcome: "succeeded" } });
  const deadline = Date.now() + 20_000;
  while (
    ((await api(`/api/refunds/${refundId}`)).body as { data: { status: string } }).data.status !== "succeeded"
  ) {
    if (Date.now() > deadline) throw new Error(`refund ${refundId} did not succeed`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return refundId;
}

describe("GET /api/payments filters", () => {
  const customer = `cus_filters_${unique()}`;
  const made: Record<string, number[]> = { pending: [], completed: [], failed: [], full: [], partial: [] };
  let externalId: string;
  beforeAll(async () => {
    externalId = `ord_${unique()}`;
    made.pending!.push(await payment(customer, "1.00", "pending", { external_id: externalId }));
    made.pending!.push(await payment(customer, "2.00", "pending"));
    made.failed!.push(await payment(customer, "3.00", "failed"));
    made.failed!.push(await payment(customer, "4.00", "failed"));
    const full = await payment(customer, "5.00", "completed");
    const partial = await payment(customer, "6.00", "completed");
    const untouched = await payment(customer, "7.00", "completed");
    made.completed!.push(full, partial, untouched);
    await refund(full, "5.00");
    await refund(partial, "1.50");
    made.full!.push(full);
    made.partial!.push(partial);
  });
  const all = () => Object.values({ ...made, full: [], partial: [] }).flat();

  it("customer_id alone: exactly its payments, newest first, counted", async () => {
    const page = await list(`customer_id=${customer}&perPage=100`);
    expect(page.meta.total).toBe(7);
    expect(ids(page)).toEqual([...all()].sort((a, b) => b - a));
  });

  it.each([
    ["status=failed", () => made.failed!],
    ["status=pending", () => made.pending!],
    ["refund_status=full", () => made.full!],
    ["refund_status=partial", () => made.partial!],
    [
      "status=completed&refund_status=none",
      () => made.completed!.filter((id) => !made.full!.includes(id) && !made.partial!.includes(id)),
    ],
  ])("customer_id with %s", async (query, expected) => {
    const page = await list(`customer_id=${customer}&${query}&perPage=100`);
    expect(ids(page).sort()).toEqual([...expected()].sort());
    expect(page.meta.total).toBe(expected().length);
  });

  it("external_id exactly (not a prefix, not another case)", async () => {
    expect(ids(await list(`external_id=${externalId}`))).toEqual(made.pending!.slice(0, 1));
    expect((await list(`external_id=${externalId.slice(0, -1)}`)).meta.total).toBe(0);
    expect((await list(`external_id=${externalId.toUpperCase()}`)).meta.total).toBe(0);
  });

  it("status alone: every item in it; the total counts what matches", async () => {
    const page = await list("status=failed&perPage=100");
    expect(page.data.every((payment) => payment.status === "failed")).toBe(true);
    expect(page.meta.total).toBeGreaterThanOrEqual(2);
  });

  it("created_from and created_to: dates and date-times, both inclusive", async () => {
    const newest = (await api(`/api/payments/${Math.max(...all())}`)).body as {
      data: { created_at: string };
    };
    const oldest = (await api(`/api/payments/${Math.min(...all())}`)).body as {
      data: { created_at: string };
    };
    const range = `customer_id=${customer}&perPage=100`;
    expect(
      (await list(`${range}&created_from=${oldest.data.created_at}&created_to=${newest.data.created_at}`))
        .meta.total,
    ).toBe(7);
    const after = new Date(Date.parse(oldest.data.created_at) + 1).toISOString();
    expect((await list(`${range}&created_from=${after}`)).meta.total).toBe(6);
    const today = new Date().toISOString().slice(0, 10);
    expect((await list(`${range}&created_from=${today}&created_to=${today}`)).meta.total).toBe(7);
    expect((await list(`${range}&created_to=2020-01-01`)).meta.total).toBe(0);
  });

  it("pages of a filter join up to the whole list; links carry the filters", async () => {
    const whole = ids(await list(`customer_id=${customer}&perPage=100`));
    const pages: number[] = [];
    for (let page = 1; page <= 4; page++) {
      const body = await list(`customer_id=${customer}&perPage=2&page=${page}`);
      pages.push(...ids(body));
      if (page === 1) {
        expect(body.links.next).toBe(`${baseUrl}/api/payments?page=2&perPage=2&customer_id=${customer}`);
        expect(body.meta).toMatchObject({ total: 7, last_page: 4 });
      }
    }
    expect(pages).toEqual(whole);
    expect((await list(`customer_id=${customer}&perPage=2&page=5`)).data).toEqual([]);
  });

  it.each([
    ["status=paid", "status", "The selected status is invalid."],
    ["refund_status=some", "refund_status", "The selected refund status is invalid."],
    ["created_from=2026-02-30", "created_from", "The created from field must be a valid date."],
    ["created_from=yesterday", "created_from", "The created from field must be a valid date."],
    ["created_to=2026-13-01T00:00:00Z", "created_to", "The created to field must be a valid date."],
    ["customer_id[]=x", "customer_id", "The customer id field must be a string."],
    [
      `external_id=${"x".repeat(256)}`,
      "external_id",
      "The external id field must not be greater than 255 characters.",
    ],
    [
      "created_from=2026-11-02&created_to=2026-11-01",
      "created_to",
      "The created to field must be a date after or equal to created from.",
    ],
  ])("%s: 422 naming %s", async (query, field, message) => {
    const response = await api(`/api/payments?${query}`);
    expect([response.status, response.body]).toEqual([
      422,
      { message: "The given data was invalid.", errors: { [field]: [message] } },
    ]);
  });

  it("another merchant's customer id lists nothing of this merchant's, and the reverse", async () => {
    expect((await api(`/api/payments?customer_id=${customer}`, { token: tokens.other })).body).toMatchObject({
      data: [],
      meta: { total: 0 },
    });
  });
});

describe("GET /api/refunds", () => {
  it("every refund, newest first, by payment_id and status; another merchant's are not listed", async () => {
    const customer = `cus_refunds_${unique()}`;
    const paid = await payment(customer, "9.00", "completed");
    const first = await refund(paid, "1.00");
    const second = await refund(paid, "2.00");
    const byPayment = (await api(`/api/refunds?payment_id=${paid}`)).body as {
      data: Array<{ id: number }>;
      meta: { total: number };
    };
    expect([byPayment.data.map((each) => each.id), byPayment.meta.total]).toEqual([[second, first], 2]);
    const succeeded = (await api(`/api/refunds?status=succeeded&perPage=100`)).body as {
      data: Array<{ status: string }>;
    };
    expect(succeeded.data.every((each) => each.status === "succeeded")).toBe(true);
    expect(
      (
        (await api(`/api/refunds?payment_id=${paid}`, { token: tokens.other })).body as {
          meta: { total: number };
        }
      ).meta.total,
    ).toBe(0);
    for (const [query, field, message] of [
      ["status=done", "status", "The selected status is invalid."],
      ["payment_id=abc", "payment_id", "The payment id field must be an integer."],
    ] as const)
      expect((await api(`/api/refunds?${query}`)).body).toEqual({
        message: "The given data was invalid.",
        errors: { [field]: [message] },
      });
  });
});

describe("GET /api/refunds pages", () => {
  it("join up to the whole list, newest first, with totals that match, alone and by status", async () => {
    const paid = await payment(`cus_refund_pages_${unique()}`, "9.00", "completed");
    for (const amount of ["1.00", "1.50", "2.00"]) await refund(paid, amount);
    for (const query of ["", "status=succeeded&"]) {
      const whole = (await api(`/api/refunds?${query}perPage=100`)).body as Page;
      const walked: number[] = [];
      for (let page = 1; page <= Math.ceil(whole.meta.total / 2) + 1; page++) {
        const each = (await api(`/api/refunds?${query}perPage=2&page=${page}`)).body as Page;
        expect(each.meta.total).toBe(whole.meta.total);
        walked.push(...ids(each));
      }
      expect(walked).toEqual(ids(whole).slice(0, 100));
      expect(new Set(walked).size).toBe(walked.length);
    }
  });
});

describe("customers", () => {
  it("GET /api/customers/{id}: its count, completed volume, refunds and times, from the rollup", async () => {
    const customer = `cus_totals_${unique()}`;
    await payment(customer, "10.00", "completed");
    const second = await payment(customer, "2.50", "completed");
    await payment(customer, "4.00", "failed");
    await refund(second, "1.25");
    const found = await api(`/api/customers/${customer}`);
    expect(found.status).toBe(200);
    expect((found.body as { data: unknown }).data).toMatchObject({
      id: customer,
      payments_count: 3,
      volumes: [{ currency: "USD", completed: "12.50", refunded: "1.25" }],
    });
    const listed = (await api("/api/customers?perPage=5")).body as {
      data: Array<{ id: string }>;
      meta: { total: number };
    };
    expect(listed.data[0]!.id).toBe(customer);
    expect(listed.meta.total).toBeGreaterThanOrEqual(1);
  });

  it("pages walk the customers latest payment first, each once, and hold no other merchant's", async () => {
    const mine = [`cus_page_a_${unique()}`, `cus_page_b_${unique()}`, `cus_page_c_${unique()}`];
    for (const customer of mine) await payment(customer, "1.00", "pending");
    const theirs = `cus_page_other_${unique()}`;
    const created = await api("/api/payments", {
      token: tokens.other,
      json: { amount: "1.00", customer_id: theirs },
    });
    expect(created.status).toBe(201);
    const pages = [];
    for (const page of [1, 2, 3]) {
      const body = (await api(`/api/customers?perPage=1&page=${page}`)).body as {
        data: Array<{ id: string }>;
      };
      expect(body.data).toHaveLength(1);
      pages.push(body.data[0]!.id);
    }
    expect(pages).toEqual([...mine].reverse());
    const all = (await api("/api/customers?perPage=100")).body as { data: Array<{ id: string }> };
    expect(all.data.map(({ id }) => id)).not.toContain(theirs);
  });

  it("an id never used is a 404, another merchant's too", async () => {
    expect((await api(`/api/customers/cus_never_${unique()}`)).status).toBe(404);
    const customer = `cus_mine_${unique()}`;
    await payment(customer, "1.00", "pending");
    expect((await api(`/api/customers/${customer}`, { token: tokens.other })).status).toBe(404);
  });

  it("the dashboard's customer page answers 404 for an unknown or another merchant's customer", async () => {
    const mine = `cus_dash_${unique()}`;
    await payment(mine, "1.00", "pending");
    const theirs = `cus_dash_other_${unique()}`;
    const created = await api("/api/payments", {
      token: tokens.other,
      json: { amount: "1.00", customer_id: theirs },
    });
    expect(created.status).toBe(201);
    const { cookie } = await logInOverHttp(baseUrl, seed.email, seed.password, {
      "X-Forwarded-For": "192.0.2.71",
    });
    const visit = async (id: string) => {
      const response = await fetch(`${baseUrl}/dashboard/customers/${encodeURIComponent(id)}`, {
        headers: { cookie },
        redirect: "manual",
      });
      await response.text();
      return [id, response.status];
    };
    // The frame carries the 404 page's text for the client's use either way: the status tells them apart.
    expect(await Promise.all([mine, "cus_nobody", theirs].map(visit))).toEqual([
      [mine, 200],
      ["cus_nobody", 404],
      [theirs, 404],
    ]);
  });
});

describe("POST /api/payments: metadata and Prefer", () => {
  it("metadata is stored as JSON text with customer_id beside it (the field wins)", async () => {
    const created = await api("/api/payments", {
      json: { amount: 3, customer_id: "cus_meta", metadata: { order_ref: "A-17", customer_id: "ignored" } },
      headers: { Prefer: "return=representation" },
    });
    expect(created.status).toBe(201);
    const { data } = created.body as { data: { metadata: string } };
    expect(JSON.parse(data.metadata)).toEqual({ order_ref: "A-17", customer_id: "cus_meta" });
  });

  it.each([
    [{ metadata: "x" }, "metadata", "The metadata field must be an object."],
    [{ metadata: [1] }, "metadata", "The metadata field must be an object."],
    [
      { metadata: Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`k${i}`, "v"])) },
      "metadata",
      "The metadata field must not have more than 20 items.",
    ],
    [
      { metadata: { ["k".repeat(41)]: "v" } },
      "metadata",
      "The metadata field's keys must be text of at most 40 characters.",
    ],
    [{ metadata: { note: 7 } }, "metadata.note", "The metadata.note field must be a string."],
    [
      { metadata: { note: "x".repeat(501) } },
      "metadata.note",
      "The metadata.note field must not be greater than 500 characters.",
    ],
    // Characters are code points: an emoji is one, though it is two UTF-16 units.
    [
      { metadata: { ["😀".repeat(41)]: "v" } },
      "metadata",
      "The metadata field's keys must be text of at most 40 characters.",
    ],
    [
      { metadata: { note: "😀".repeat(501) } },
      "metadata.note",
      "The metadata.note field must not be greater than 500 characters.",
    ],
  ])("%j: 422 naming %s, nothing written", async (body, field, message) => {
    const before = (await list("perPage=1")).meta.total;
    const response = await api("/api/payments", { json: { amount: 1, ...body } });
    expect([response.status, response.body]).toEqual([
      422,
      { message: "The given data was invalid.", errors: { [field]: [message] } },
    ]);
    expect((await list("perPage=1")).meta.total).toBe(before);
  });

  it.each([
    ["251 emoji in a value (502 UTF-16 units)", { note: "😀".repeat(251) }],
    ["500 emoji in a value", { note: "😀".repeat(500) }],
    ["a key of 21 emoji", { ["😀".repeat(21)]: "v" }],
    ["a key of 40 emoji", { ["😀".repeat(40)]: "v" }],
  ])("metadata counts characters, not UTF-16 units: %s is accepted as sent", async (_name, metadata) => {
    const created = await api("/api/payments", {
      json: { amount: 1, metadata },
      headers: { Prefer: "return=representation" },
    });
    expect(created.status).toBe(201);
    expect(JSON.parse((created.body as { data: { metadata: string } }).data.metadata)).toEqual(metadata);
  });

  it.each([
    "return=representation; foo",
    "return=representation;foo=bar;baz",
    'return="representation"; foo="a b"',
    "RETURN = Representation ; x",
    "respond-async, return=representation; foo",
    "wait=10; x,return=representation",
  ])("Prefer: %s is honoured (RFC 7240: parameters, several preferences, any case)", async (prefer) => {
    const response = await api("/api/payments", { json: { amount: "2.00" }, headers: { Prefer: prefer } });
    expect(response.status).toBe(201);
    expect(response.headers.get("preference-applied")).toBe("return=representation");
    expect(response.body).toMatchObject({ data: { amount: "2.00", status: "pending" } });
  });

  it.each(["return=minimal", "return=representationx", "foo; return=representation", "handling=lenient"])(
    "Prefer: %s is not return=representation: the seed's body",
    async (prefer) => {
      const response = await api("/api/payments", { json: { amount: "2.00" }, headers: { Prefer: prefer } });
      expect([response.status, response.body]).toEqual([201, { message: "Payment created successfully" }]);
      expect(response.headers.get("preference-applied")).toBeNull();
    },
  );

  it("Prefer: return=representation answers the payment; without it the body is the seed's exactly", async () => {
    const plain = await api("/api/payments", { json: { amount: "2.00" } });
    expect(plain.body).toEqual({ message: "Payment created successfully" });
    const represented = await api("/api/payments", {
      json: { amount: "2.00", external_id: "prefer_1" },
      headers: { Prefer: "return=representation" },
    });
    const id = Number(represented.headers.get("location")!.split("/").at(-1));
    expect(represented.headers.get("preference-applied")).toBe("return=representation");
    const retrieved = (await api(`/api/payments/${id}`)).body as { data: Record<string, unknown> };
    expect(represented.body).toEqual({ message: "Payment created successfully", data: retrieved.data });
    expect(retrieved.data).toMatchObject({ id, amount: "2.00", external_id: "prefer_1", status: "pending" });
  });
});
