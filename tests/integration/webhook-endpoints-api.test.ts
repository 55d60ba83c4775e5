import { describe, expect, inject, it } from "vitest";
import { callApi, DEFAULT_EVENT_TYPES, type ApiRequest } from "../support/api-client";

const baseUrl = inject("baseUrl");
const { tokens } = inject("data");

type Endpoint = {
  id: number;
  url: string;
  description: string | null;
  event_types: string[];
  enabled: boolean;
  created_at: string;
  secret?: string;
};

const api = (path: string, request: ApiRequest = {}) =>
  callApi(baseUrl, path, { token: tokens.api, ...request });
const endpointCount = async (token = tokens.api) =>
  ((await callApi(baseUrl, "/api/webhook-endpoints", { token })).body as { data: Endpoint[] }).data.length;

async function createEndpoint(body: Record<string, unknown>): Promise<Endpoint> {
  const created = await api("/api/webhook-endpoints", { json: body });
  expect(created.status, created.text).toBe(201);
  return (created.body as { data: Endpoint }).data;
}

describe("the webhook endpoints API", () => {
  it("creates an endpoint and shows its secret only then and on rotation", async () => {
    const created = await api("/api/webhook-endpoints", {
      json: {
        url: "https://example.com/api-hooks",
        event_types: ["payment.completed"],
        description: "From the API",
      },
    });
    expect(created.status).toBe(201);
    const endpoint = (created.body as { data: Endpoint }).data;
    expect(Object.keys(endpoint)).toEqual([
      "id",
      "kind",
      "url",
      "description",
      "event_types",
      "enabled",
      "created_at",
      "secret",
    ]);
    expect(endpoint).toMatchObject({
      url: "https://example.com/api-hooks",
      description: "From the API",
      event_types: ["payment.completed"],
      enabled: true,
    });
    expect(endpoint.secret).toMatch(/^whsec_/);
    expect(created.headers.get("location")).toBe(`/api/webhook-endpoints/${endpoint.id}`);

    const shown = (await api(`/api/webhook-endpoints/${endpoint.id}`)).body as { data: Endpoint };
    expect(shown.data).not.toHaveProperty("secret");
    const listed = (await api("/api/webhook-endpoints")).body as { data: Endpoint[] };
    expect(listed.data.find((item) => item.id === endpoint.id)).toEqual(shown.data);

    const rotated = await api(`/api/webhook-endpoints/${endpoint.id}/rotate-secret`, { method: "POST" });
    expect(rotated.status).toBe(200);
    const secret = (rotated.body as { data: Endpoint }).data.secret!;
    expect(secret).toMatch(/^whsec_/);
    expect(secret).not.toBe(endpoint.secret);
  });

  it("updates url, description, event types and enabled; deletes", async () => {
    const endpoint = await createEndpoint({ url: "https://example.com/patch-me" });
    // The money events (payments, refunds, payouts) by default; operational ones are opted into.
    expect(endpoint.event_types).toEqual(DEFAULT_EVENT_TYPES);
    const patched = await api(`/api/webhook-endpoints/${endpoint.id}`, {
      method: "PATCH",
      json: { description: "Changed", event_types: ["payment.failed", "payment.failed"], enabled: false },
    });
    expect(patched.status).toBe(200);
    expect((patched.body as { data: Endpoint }).data).toMatchObject({
      url: "https://example.com/patch-me",
      description: "Changed",
      event_types: ["payment.failed"],
      enabled: false,
    });
    const deleted = await api(`/api/webhook-endpoints/${endpoint.id}`, { method: "DELETE" });
    expect([deleted.status, deleted.text]).toEqual([204, ""]);
    expect((await api(`/api/webhook-endpoints/${endpoint.id}`)).status).toBe(404);
  });

  it.each([
    [{}, "url", "The url field is required."],
    [{ url: " " }, "url", "The url field is required."],
    [{ url: "ftp://example.com/x" }, "url", "The url field must start with https:// or http://."],
    [
      { url: "https://user:pw@example.com/x" },
      "url",
      "The url field must not contain a user name or password.",
    ],
    [
      { url: "https://example.com", event_types: ["payment.refunded"] },
      "event_types",
      "The selected event types is invalid.",
    ],
    [{ url: "https://example.com", event_types: [] }, "event_types", "Choose at least one event type."],
    [
      { url: "https://example.com", event_types: "payment.failed" },
      "event_types",
      "The selected event types is invalid.",
    ],
    [
      { url: "https://example.com", description: "x".repeat(256) },
      "description",
      "The description field must not be greater than 255 characters.",
    ],
    [{ url: "https://example.com/\u0000" }, "url", "The url field must not contain NUL characters."],
  ])("refuses %j with a 422 naming %s, and writes nothing", async (body, field, message) => {
    const before = await endpointCount();
    const response = await api("/api/webhook-endpoints", { json: body });
    expect(response.status).toBe(422);
    expect((response.body as { errors: Record<string, string[]> }).errors[field]).toEqual([message]);
    expect(await endpointCount()).toBe(before);
  });

  it("refuses bad bodies on create and update without changing anything", async () => {
    const endpoint = await createEndpoint({ url: "https://example.com/keep-me", description: "Kept" });
    const before = await endpointCount();
    const notJson = await fetch(`${baseUrl}/api/webhook-endpoints`, {
      method: "POST",
      headers: { Authorization: `Bearer ${tokens.api}`, "Content-Type": "application/x-www-form-urlencoded" },
      body: "url=https://example.com",
    });
    expect(notJson.status).toBe(415);
    expect((await api("/api/webhook-endpoints", { raw: "{not json" })).status).toBe(400);
    expect((await api("/api/webhook-endpoints", { raw: "[1]" })).status).toBe(400);
    for (const json of [{ enabled: "yes" }, { url: "" }, { event_types: [] }, { description: 5 }]) {
      const response = await api(`/api/webhook-endpoints/${endpoint.id}`, { method: "PATCH", json });
      expect(response.status, JSON.stringify(json)).toBe(422);
    }
    expect(await endpointCount()).toBe(before);
    expect(
      ((await api(`/api/webhook-endpoints/${endpoint.id}`)).body as { data: Endpoint }).data,
    ).toMatchObject({
      url: "https://example.com/keep-me",
      description: "Kept",
      enabled: true,
    });
  });

  it("another merchant's endpoint is 403 on every route and stays as it was; none is 404", async () => {
    const endpoint = await createEndpoint({ url: "https://example.com/tenant" });
    const routes: Array<[string, string, unknown?]> = [
      ["GET", `/api/webhook-endpoints/${endpoint.id}`],
      ["PATCH", `/api/webhook-endpoints/${endpoint.id}`, { description: "Taken over" }],
      ["DELETE", `/api/webhook-endpoints/${endpoint.id}`],
      ["POST", `/api/webhook-endpoints/${endpoint.id}/rotate-secret`],
      ["GET", `/api/webhook-endpoints/${endpoint.id}/deliveries`],
    ];
    for (const [method, path, json] of routes) {
      const response = await callApi(baseUrl, path, { method, token: tokens.other, json });
      expect([method, path, response.status, response.body]).toEqual([
        method,
        path,
        403,
        { message: "This action is unauthorized." },
      ]);
      const missing = await api(path.replace(String(endpoint.id), "999999999"), { method, json });
      expect(missing.status).toBe(404);
      const malformed = await api(path.replace(String(endpoint.id), "abc"), { method, json });
      expect(malformed.status).toBe(404);
    }
    const unchanged = (await api(`/api/webhook-endpoints/${endpoint.id}`)).body as { data: Endpoint };
    expect(unchanged.data).toEqual({ ...endpoint, secret: undefined, description: null });
    // The other merchant's own list does not contain it.
    const theirs = (await callApi(baseUrl, "/api/webhook-endpoints", { token: tokens.other })).body as {
      data: Endpoint[];
    };
    expect(theirs.data.map((item) => item.id)).not.toContain(endpoint.id);
  });

  it("needs a write token, and answers 405 with Allow for a method a route does not serve", async () => {
    for (const [method, path] of [
      ["GET", "/api/webhook-endpoints"],
      ["POST", "/api/webhook-endpoints"],
      ["POST", "/api/webhook-deliveries/1/resend"],
    ]) {
      const response = await callApi(baseUrl, path!, {
        method,
        token: tokens.read,
        json: method === "POST" ? {} : undefined,
      });
      expect(response.status).toBe(403);
    }
    const put = await api("/api/webhook-endpoints/1", { method: "PUT", json: {} });
    expect(put.status).toBe(405);
    expect(put.headers.get("allow")).toBe("GET, HEAD, PATCH, DELETE");
  });

  it("pages an endpoint's deliveries with a status filter, and resends only what is not queued", async () => {
    const hooksEndpoint = inject("data").hooks.endpoint_id;
    const created = await callApi(baseUrl, "/api/payments", { token: tokens.hooks, json: { amount: 3 } });
    expect(created.status).toBe(201);
    const page = await callApi(baseUrl, `/api/webhook-endpoints/${hooksEndpoint}/deliveries?perPage=1`, {
      token: tokens.hooks,
    });
    expect(page.status).toBe(200);
    const listing = page.body as {
      data: Array<Record<string, unknown>>;
      meta: { total: number; per_page: number };
    };
    expect(listing.data).toHaveLength(1);
    expect(Object.keys(listing.data[0]!)).toEqual([
      "id",
      "event_id",
      "event",
      "status",
      "attempts",
      "last_attempt_at",
      "next_attempt_at",
      "created_at",
    ]);
    expect(listing.meta.per_page).toBe(1);
    const bad = await callApi(baseUrl, `/api/webhook-endpoints/${hooksEndpoint}/deliveries?status=lost`, {
      token: tokens.hooks,
    });
    expect([bad.status, (bad.body as { errors: unknown }).errors]).toEqual([
      422,
      { status: ["The selected status is invalid."] },
    ]);
    const deliveryId = listing.data[0]!.id as number;
    const foreign = await api(`/api/webhook-deliveries/${deliveryId}/resend`, { method: "POST" });
    expect(foreign.status).toBe(403);
    expect((await api("/api/webhook-deliveries/999999999/resend", { method: "POST" })).status).toBe(404);
    const resend = await callApi(baseUrl, `/api/webhook-deliveries/${deliveryId}/resend`, {
      method: "POST",
      token: tokens.hooks,
    });
    // Still queued (no receiver answers here): a conflict; once delivered or failed it would be queued again.
    expect([409, 202]).toContain(resend.status);
  });
});
