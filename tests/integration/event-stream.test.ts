// GET /api/events/stream over real HTTP: the exact webhook bodies live, the types filter, replay after
// Last-Event-ID (or ?after=), the answers for an unknown cursor and bad input, the per-token cap, and
// isolation between merchants.
import { afterEach, describe, expect, inject, it } from "vitest";
import { callApi } from "../support/api-client";
import { openSse, type OpenedSse } from "../support/sse-client";

const baseUrl = inject("baseUrl");
const { tokens } = inject("data");
const streamUrl = (query = "") => `${baseUrl}/api/events/stream${query}`;
const opened: OpenedSse[] = [];
afterEach(() => {
  for (const stream of opened.splice(0)) stream.close();
});

async function open(token: string, query = "", headers: Record<string, string> = {}) {
  const stream = await openSse(streamUrl(query), token, headers);
  opened.push(stream);
  return stream;
}

async function createPayment(token = tokens.api): Promise<number> {
  const created = await callApi(baseUrl, "/api/payments", { token, json: { amount: "4.00" } });
  expect(created.status).toBe(201);
  return Number(created.headers.get("location")!.split("/").at(-1));
}
const paymentOf = (data: string) => (JSON.parse(data) as { data: { id: number } }).data.id;

describe("GET /api/events/stream", () => {
  it("sends each new event with its id, type and the exact webhook body; read scope is enough", async () => {
    const stream = await open(tokens.read);
    expect(stream.status).toBe(200);
    expect(stream.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    const id = await createPayment();
    const [event] = (await stream.waitFor((events) => events.some((e) => paymentOf(e.data) === id))).filter(
      (e) => paymentOf(e.data) === id,
    );
    const stored = await callApi(baseUrl, `/api/events/${event!.id}`, { token: tokens.api });
    const { data } = stored.body as { data: { event: string; data: unknown } };
    expect(event!.event).toBe("payment.pending");
    expect(JSON.parse(event!.data)).toEqual({ event: data.event, data: data.data });
    expect(event!.data).toBe(JSON.stringify({ event: data.event, data: data.data }));
  });

  it("replays, in order, what came after Last-Event-ID (or ?after=), then goes on live", async () => {
    const ids = [await createPayment(), await createPayment(), await createPayment()];
    const listed = await callApi(baseUrl, `/api/events?payment_id=${ids[0]}`, { token: tokens.api });
    const first = (listed.body as { data: Array<{ id: string }> }).data[0]!.id;
    for (const [query, headers] of [
      ["", { "Last-Event-ID": first }],
      [`?after=${first}`, {}],
    ] as const) {
      const stream = await open(tokens.api, query, headers);
      const later = await createPayment();
      const events = await stream.waitFor((all) =>
        all.some((e) => e.event === "payment.pending" && paymentOf(e.data) === later),
      );
      const mine = events.filter(
        (e) => e.event === "payment.pending" && [...ids, later].includes(paymentOf(e.data)),
      );
      expect(mine.map((e) => paymentOf(e.data))).toEqual([ids[1], ids[2], later]);
      expect(new Set(events.map((e) => e.id)).size).toBe(events.length);
      stream.close();
    }
  });

  it("filters by type", async () => {
    const stream = await open(tokens.api, "?types=payment.failed,refund.failed");
    const id = await createPayment();
    await callApi(baseUrl, `/api/test-helpers/payments/${id}/settle`, {
      token: tokens.api,
      json: { outcome: "failed" },
    });
    const events = await stream.waitFor((all) => all.some((e) => paymentOf(e.data) === id));
    expect(events.every((e) => e.event === "payment.failed" || e.event === "refund.failed")).toBe(true);
  });

  it("refuses an unknown, another merchant's or malformed cursor, and an unknown type, in JSON", async () => {
    const otherId = await createPayment(tokens.other);
    const listed = await callApi(baseUrl, `/api/events?payment_id=${otherId}`, { token: tokens.other });
    const othersEvent = (listed.body as { data: Array<{ id: string }> }).data[0]!.id;
    for (const cursor of ["evt_doesnotexist", othersEvent]) {
      for (const stream of [
        await open(tokens.api, "", { "Last-Event-ID": cursor }),
        await open(tokens.api, `?after=${cursor}`),
        // The header wins over the query, as a reconnecting EventSource sends both.
        await open(tokens.api, "?after=", { "Last-Event-ID": cursor }),
      ]) {
        expect(stream.status).toBe(410);
        expect((stream.body as { message: string }).message).toContain("not one of your retained events");
      }
    }
    const malformed = await open(tokens.api, "?after=not-an-event");
    expect(malformed.status).toBe(422);
    const badType = await open(tokens.api, "?types=payment.completed,payment.nope");
    expect(badType.status).toBe(422);
    expect(badType.body).toEqual({
      message: "The given data was invalid.",
      errors: { types: ["The selected types is invalid."] },
    });
    expect((await open("pay_nope")).status).toBe(401);
  });

  it("never sends one merchant's events to another's stream", async () => {
    const others = await open(tokens.other);
    const mine = await open(tokens.api);
    const id = await createPayment();
    await mine.waitFor((events) => events.some((e) => paymentOf(e.data) === id));
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(others.events.some((e) => paymentOf(e.data) === id)).toBe(false);
  });

  it("caps a token's open streams (5), 429 beyond, and frees the slot when one closes", async () => {
    const streams = [];
    for (let index = 0; index < 5; index++) streams.push(await open(tokens.isolation));
    expect(streams.map((stream) => stream.status)).toEqual([200, 200, 200, 200, 200]);
    const refused = await open(tokens.isolation);
    expect(refused.status).toBe(429);
    // HEAD answers the headers and holds no stream: six of them leave this token's five slots free.
    for (let index = 0; index < 6; index++) {
      const head = await fetch(streamUrl(), {
        method: "HEAD",
        headers: { Authorization: `Bearer ${tokens.read}` },
      });
      expect(head.status).toBe(200);
    }
    expect((await open(tokens.read)).status).toBe(200);
    expect((refused.body as { message: string }).message).toContain("already has 5 event streams open");
    streams[0]!.close();
    streams[1]!.close();
    // The server notices the closed connections and releases their leases within a second.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const reopened = [await open(tokens.isolation), await open(tokens.isolation)];
    expect(reopened.map((stream) => stream.status)).toEqual([200, 200]);
    expect((await open(tokens.isolation)).status).toBe(429);
  });
});
