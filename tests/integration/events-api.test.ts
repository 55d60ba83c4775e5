import { describe, expect, inject, it } from "vitest";
import { callApi } from "../support/api-client";
import { runAdmin } from "../support/test-server";

const baseUrl = inject("baseUrl");
const { tokens, hooks } = inject("data");
const serverEnv = inject("serverEnv");

type EventBody = { id: string; event: string; data: { id: number; status: string }; created_at: string };
type Listing = { data: EventBody[]; links: Record<string, string | null>; meta: Record<string, number> };

async function createPayment(token: string): Promise<number> {
  const created = await callApi(baseUrl, "/api/payments", { token, json: { amount: "12.50" } });
  expect(created.status).toBe(201);
  return Number(created.headers.get("location")!.split("/").at(-1));
}

const eventsOf = async (query: string, token = tokens.api) =>
  callApi(baseUrl, `/api/events?${query}`, { token });

describe("GET /api/events", () => {
  it("lists a payment's events newest first, as delivered, with filters kept in the links", async () => {
    const paymentId = await createPayment(tokens.api);
    // On PGlite the server's own settler completes it after 1.5 s; on PostgreSQL the settler runs in worker
    // processes the suite does not start here, so the operator's CLI settles it.
    if (process.env.DATABASE_URL) {
      runAdmin(["payment:settle", "--id", String(paymentId), "--outcome", "completed"], serverEnv);
    }
    let listing: Listing | undefined;
    for (let tries = 0; tries < 50; tries++) {
      listing = (await eventsOf(`payment_id=${paymentId}`)).body as Listing;
      if (listing.data.length === 2) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(listing!.data.map((event) => event.event)).toEqual([
      expect.stringMatching(/^payment\.(completed|failed)$/),
      "payment.pending",
    ]);
    const [settled, pending] = listing!.data;
    expect(Object.keys(pending!)).toEqual(["id", "event", "data", "created_at"]);
    expect(pending!.id).toMatch(/^evt_/);
    expect(pending!.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(pending!.data).toMatchObject({ id: paymentId, status: "pending", amount: "12.50" });
    expect(settled!.data.id).toBe(paymentId);
    expect(listing!.meta).toMatchObject({ current_page: 1, total: 2, per_page: 10 });
    expect(listing!.links.first).toBe(`${baseUrl}/api/events?page=1&payment_id=${paymentId}`);

    const typed = (await eventsOf(`payment_id=${paymentId}&type=payment.pending&perPage=1`)).body as Listing;
    expect(typed.data.map((event) => event.id)).toEqual([pending!.id]);
    expect(typed.links.first).toBe(
      `${baseUrl}/api/events?page=1&perPage=1&type=payment.pending&payment_id=${paymentId}`,
    );
    // A read-only token is enough; another merchant sees none of them.
    expect(((await eventsOf(`payment_id=${paymentId}`, tokens.read)).body as Listing).data).toHaveLength(2);
    expect(((await eventsOf(`payment_id=${paymentId}`, tokens.other)).body as Listing).data).toEqual([]);
  });

  it("pages through a merchant's events, with and without a type, exactly as one long page lists them", async () => {
    // At least four events of each kind asked for: pages of three, so at least two pages.
    for (let created = 0; created < 4; created++) await createPayment(tokens.hooks);
    for (const filter of ["", "&type=payment.pending"]) {
      // The settler may add events meanwhile: compare only when the long page is the same before and after
      // every other request.
      for (let tries = 0; ; tries++) {
        const whole = (await eventsOf(`perPage=100${filter}`, tokens.hooks)).body as Listing;
        const lastPage = Math.ceil(whole.meta.total! / 3);
        const pages: EventBody[] = [];
        for (let page = 1; page <= lastPage; page++)
          pages.push(
            ...((await eventsOf(`perPage=3&page=${page}${filter}`, tokens.hooks)).body as Listing).data,
          );
        const past = (await eventsOf(`perPage=3&page=${lastPage + 1}${filter}`, tokens.hooks))
          .body as Listing;
        const after = (await eventsOf(`perPage=100${filter}`, tokens.hooks)).body as Listing;
        if (JSON.stringify(after) !== JSON.stringify(whole) && tries < 10) continue;
        expect(whole.meta.total).toBe(whole.data.length);
        expect(whole.data.length).toBeGreaterThanOrEqual(4);
        expect(pages.map((event) => event.id)).toEqual(whole.data.map((event) => event.id));
        expect(past.data).toEqual([]);
        expect(past.meta).toMatchObject({ total: whole.meta.total, last_page: lastPage });
        break;
      }
    }
  });

  it.each([
    ["type=payment.refunded", "type", "The selected type is invalid."],
    ["payment_id=abc", "payment_id", "The payment id field must be an integer."],
    ["payment_id=-1", "payment_id", "The payment id field must be an integer."],
    ["type[]=payment.pending", "type", "The selected type is invalid."],
    ["payment_id[]=1", "payment_id", "The payment id field must be an integer."],
    ["page=0", "page", "The page field must be at least 1."],
    ["perPage=101", "perPage", "The per page field must not be greater than 100."],
  ])("answers 422 for %s", async (query, field, message) => {
    const response = await eventsOf(query);
    expect(response.status).toBe(422);
    expect(response.body).toEqual({ message: "The given data was invalid.", errors: { [field]: [message] } });
    expect(response.headers.get("x-request-id")).toMatch(/^req_/);
  });
});

describe("GET /api/events/{id}", () => {
  it("shows an event with its deliveries; another merchant's is 403, none 404", async () => {
    const paymentId = await createPayment(tokens.hooks);
    const listing = (await eventsOf(`payment_id=${paymentId}&type=payment.pending`, tokens.hooks))
      .body as Listing;
    const eventId = listing.data[0]!.id;
    const shown = await callApi(baseUrl, `/api/events/${eventId}`, { token: tokens.hooks });
    expect(shown.status).toBe(200);
    const event = (shown.body as { data: EventBody & { deliveries: Array<Record<string, unknown>> } }).data;
    expect(event).toMatchObject({ id: eventId, event: "payment.pending", data: { id: paymentId } });
    expect(event.deliveries).toHaveLength(1);
    const [delivery] = event.deliveries;
    expect(Object.keys(delivery!)).toEqual([
      "endpoint_id",
      "status",
      "attempts",
      "last_attempt_at",
      "next_attempt_at",
    ]);
    expect(delivery!.endpoint_id).toBe(hooks.endpoint_id);
    expect(["pending", "succeeded", "failed"]).toContain(delivery!.status);
    expect(typeof delivery!.attempts).toBe("number");
    const forbidden = await callApi(baseUrl, `/api/events/${eventId}`, { token: tokens.api });
    expect([forbidden.status, forbidden.body]).toEqual([403, { message: "This action is unauthorized." }]);
    for (const id of ["evt_doesnotexist", "abc", "evt_%27%20or%201%3D1"]) {
      const missing = await callApi(baseUrl, `/api/events/${id}`, { token: tokens.api });
      expect([missing.status, missing.body]).toEqual([404, { message: "Not Found" }]);
      expect(missing.headers.get("x-request-id")).toMatch(/^req_/);
    }
    const anonymous = await callApi(baseUrl, `/api/events/${eventId}`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get("x-request-id")).toMatch(/^req_/);
  });
});
