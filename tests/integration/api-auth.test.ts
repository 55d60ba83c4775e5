import SwaggerParser from "@apidevtools/swagger-parser";
import type { OpenAPIV3_1 } from "openapi-types";
import { describe, expect, inject, it } from "vitest";
import { generateToken } from "@/lib/tokens/format";
import { callApi, DEFAULT_EVENT_TYPES, paymentTotal, rawRequest } from "../support/api-client";

const baseUrl = inject("baseUrl");
const { tokens } = inject("data");

function tampered(token: string): string {
  const last = token.at(-1) === "A" ? "B" : "A";
  return token.slice(0, -1) + last;
}

describe("401 for every way a token can be wrong", () => {
  const variants: Array<[string, Record<string, string>]> = [
    ["missing header", {}],
    ["empty bearer", { Authorization: "Bearer" }],
    ["wrong scheme", { Authorization: `Basic ${tokens.api}` }],
    ["token without scheme", { Authorization: tokens.api }],
    ["malformed token", { Authorization: "Bearer not-a-token" }],
    ["unknown token with a valid checksum", { Authorization: `Bearer ${generateToken()}` }],
    ["tampered checksum", { Authorization: `Bearer ${tampered(tokens.api)}` }],
    ["expired token", { Authorization: `Bearer ${tokens.expired}` }],
    ["revoked token", { Authorization: `Bearer ${tokens.revoked}` }],
    ["rolled token past its grace period", { Authorization: `Bearer ${tokens.rolledExpired}` }],
  ];

  it.each(variants)("%s", async (_name, headers) => {
    for (const [method, path] of [
      ["GET", "/api/payments"],
      ["POST", "/api/payments"],
      ["GET", "/api/payments/1"],
    ] as const) {
      const response = await callApi(baseUrl, path, {
        method,
        headers,
        ...(method === "POST" ? { json: { amount: 1 } } : {}),
      });
      expect(response.status).toBe(401);
      expect(response.body).toEqual({ message: "Unauthenticated." });
      expect(response.headers.get("www-authenticate")).toBe("Bearer");
    }
  });

  it.each(["bearer", "BEARER", "BeArEr"])("accepts the scheme written %s", async (scheme) => {
    const response = await callApi(baseUrl, "/api/payments?perPage=1", {
      headers: { Authorization: `${scheme} ${tokens.api}` },
    });
    expect(response.status).toBe(200);
  });

  it("keeps a rolled token working during its grace period, and its replacement works at once", async () => {
    expect((await callApi(baseUrl, "/api/payments?perPage=1", { token: tokens.rolledInGrace })).status).toBe(
      200,
    );
    expect(
      (await callApi(baseUrl, "/api/payments?perPage=1", { token: tokens.rolledReplacement })).status,
    ).toBe(200);
  });
});

describe("read-only tokens", () => {
  it("can list and retrieve but get 403 on create, and nothing is written", async () => {
    const before = await paymentTotal(baseUrl, tokens.read);
    const response = await callApi(baseUrl, "/api/payments", { token: tokens.read, json: { amount: 5 } });
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ message: "This action is unauthorized." });
    expect(await paymentTotal(baseUrl, tokens.read)).toBe(before);
  });
});

describe("tenant isolation", () => {
  it("gives 403 on another merchant's payment, 404 on none, and disjoint lists", async () => {
    const created = await callApi(baseUrl, "/api/payments", {
      token: tokens.isolation,
      json: { amount: 3, external_id: "mine" },
    });
    const location = created.headers.get("location")!;
    const foreign = await callApi(baseUrl, location, { token: tokens.other });
    expect(foreign.status).toBe(403);
    expect(foreign.body).toEqual({ message: "This action is unauthorized." });

    const otherCreated = await callApi(baseUrl, "/api/payments", {
      token: tokens.other,
      json: { amount: 4, external_id: "theirs" },
    });
    expect(otherCreated.status).toBe(201);
    const mine = (await callApi(baseUrl, "/api/payments?perPage=100", { token: tokens.isolation })).body as {
      data: Array<{ id: number }>;
    };
    const theirs = (await callApi(baseUrl, "/api/payments?perPage=100", { token: tokens.other })).body as {
      data: Array<{ id: number; external_id: string }>;
    };
    expect(theirs.data.map((payment) => payment.external_id)).toContain("theirs");
    expect(theirs.data.map((payment) => payment.external_id)).not.toContain("mine");
    const mineIds = new Set(mine.data.map((payment) => payment.id));
    expect(theirs.data.filter((payment) => mineIds.has(payment.id))).toEqual([]);
  });

  it.each(["/api/payments/999999999999", "/api/payments/abc", "/api/payments/1.5", "/api/payments/-1"])(
    "404 for %s",
    async (path) => {
      const response = await callApi(baseUrl, path, { token: tokens.api });
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ message: "Not Found" });
    },
  );
});

describe("unknown paths and wrong methods answer JSON", () => {
  it.each([
    ["GET", "/api/nope"],
    ["POST", "/api/payments/1/refund"],
    ["DELETE", "/api"],
  ])("%s %s → 404", async (method, path) => {
    const response = await callApi(baseUrl, path, { method, token: tokens.api });
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ message: "Not Found" });
  });

  it.each([
    ["PUT", "/api/payments", "GET, HEAD, POST", "api/payments"],
    ["DELETE", "/api/payments", "GET, HEAD, POST", "api/payments"],
    ["PATCH", "/api/payments/1", "GET, HEAD", "api/payments/{id}"],
    ["POST", "/api/payments/1", "GET, HEAD", "api/payments/{id}"],
  ])("%s %s → 405 with Allow", async (method, path, allow, route) => {
    const response = await callApi(baseUrl, path, { method, token: tokens.api });
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe(allow);
    expect(response.body).toEqual({
      message: `The ${method} method is not supported for route ${route}. Supported methods: ${allow}.`,
    });
  });

  it("answers HEAD as GET without a body, and OPTIONS with the allowed methods", async () => {
    const head = await fetch(`${baseUrl}/api/payments`, {
      method: "HEAD",
      headers: { Authorization: `Bearer ${tokens.api}` },
    });
    expect(head.status).toBe(200);
    expect(head.headers.get("x-ratelimit-remaining")).toMatch(/^\d+$/);
    expect(await head.text()).toBe("");
    const options = await fetch(`${baseUrl}/api/payments/1`, { method: "OPTIONS" });
    expect(options.status).toBe(204);
    expect(options.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
  });

  it("ignores a trailing slash, as Laravel does", async () => {
    const response = await callApi(baseUrl, "/api/payments/", { token: tokens.api });
    expect(response.status).toBe(200);
    expect(response.body).toHaveProperty("meta.current_page", 1);
  });

  it("ignores a Host header no URL can be made of: links are built on APP_URL", async () => {
    const { status, text } = await rawRequest(`${baseUrl}/api/payments`, {
      headers: { Host: "bad host", Authorization: `Bearer ${tokens.api}` },
    });
    expect(status).toBe(200);
    expect((JSON.parse(text) as { links: { first: string } }).links.first).toBe(
      `${baseUrl}/api/payments?page=1`,
    );
  });

  it("treats a malformed percent-encoding in the path as not found", async () => {
    const response = await callApi(baseUrl, "/api/payments/%E0%A4%A", { token: tokens.api });
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ message: "Not Found" });
  });

  it("serves the OpenAPI 3.1 document generated from the schemas", async () => {
    const response = await callApi(baseUrl, "/api/openapi.json");
    expect(response.status).toBe(200);
    const document = response.body as {
      openapi: string;
      paths: Record<string, unknown>;
      components: { schemas: Record<string, { required?: string[] }> };
    };
    expect(document.openapi).toBe("3.1.0");
    expect(Object.keys(document.paths)).toEqual([
      "/api/payments",
      "/api/payments/{id}",
      "/api/payments/{id}/refunds",
      "/api/refunds/{id}",
      "/api/payments/{id}/cancel",
      "/api/test-helpers/payments/{id}/settle",
      "/api/test-helpers/refunds/{id}/settle",
      "/api/payment-links",
      "/api/payment-links/{id}",
      "/api/refunds",
      "/api/customers",
      "/api/customers/{id}",
      "/api/events",
      "/api/events/{id}",
      "/api/webhook-endpoints",
      "/api/webhook-endpoints/{id}",
      "/api/webhook-endpoints/{id}/rotate-secret",
      "/api/webhook-endpoints/{id}/deliveries",
      "/api/webhook-deliveries/{id}/resend",
      "/api/events/stream",
      "/api/events/{id}/resend",
      "/api/request-logs",
      "/api/webhook-endpoints/{id}/inbox",
      "/api/webhooks/verify",
      "/api/balance",
      "/api/balance-transactions",
      "/api/balance-transactions/{id}",
      "/api/test-helpers/balance/release",
      "/api/reports/balance-summary",
      "/api/reports/payout-reconciliation",
      "/api/payout-account",
      "/api/payouts",
      "/api/payouts/{id}",
      "/api/payouts/{id}/cancel",
      "/api/test-helpers/payouts/{id}/settle",
      "/api/disputes",
      "/api/disputes/{id}",
      "/api/disputes/{id}/evidence",
      "/api/disputes/{id}/close",
      "/api/test-helpers/disputes/{id}/close",
      "/api/test-helpers/payments/{id}/dispute",
      "/api/sandboxes",
      "/api/sandboxes/{id}",
      "/api/test-helpers/clock",
      "/api/test-helpers/clock/advance",
    ]);
    expect(document.components.schemas.CreatePayment!.required).toEqual(["amount"]);
    expect(document.components.schemas.PaymentListItem!.required).toEqual([
      "id",
      "external_id",
      "type",
      "status",
      "amount",
      "currency",
      "created_at",
    ]);
  });

  it("is a valid OpenAPI document, webhooks included (checked by swagger-parser)", async () => {
    const document = (await callApi(baseUrl, "/api/openapi.json")).body as OpenAPIV3_1.Document;
    // validate() dereferences in place; keep the original for the assertions below.
    const validated = await SwaggerParser.validate(structuredClone(document));
    expect((validated as OpenAPIV3_1.Document).openapi).toBe("3.1.0");
    expect(Object.keys(document.webhooks ?? {})).toEqual([
      ...DEFAULT_EVENT_TYPES,
      "webhook_endpoint.disabled",
    ]);
    const refunded = (document.webhooks!["refund.succeeded"] as OpenAPIV3_1.PathItemObject).post!;
    expect(JSON.stringify(refunded.requestBody)).toContain("#/components/schemas/Refund");
    const disabled = (document.webhooks!["webhook_endpoint.disabled"] as OpenAPIV3_1.PathItemObject).post!;
    expect(JSON.stringify(disabled.requestBody)).toContain("#/components/schemas/DisabledWebhookEndpoint");
    const signature = (document.webhooks!["payment.completed"] as OpenAPIV3_1.PathItemObject).post!
      .parameters!;
    expect(signature.map((parameter) => (parameter as OpenAPIV3_1.ParameterObject).name)).toEqual([
      "webhook-id",
      "webhook-timestamp",
      "webhook-signature",
    ]);
    // Every route the router serves is documented, with every method.
    expect(Object.keys(document.paths!["/api/webhook-endpoints/{id}"]!).sort()).toEqual([
      "delete",
      "get",
      "parameters",
      "patch",
    ]);
  });
});
