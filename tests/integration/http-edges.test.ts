import { describe, expect, inject, it } from "vitest";
import { callApi, paymentTotal, rawHttp } from "../support/api-client";
import { readServerLog } from "../support/test-server";

const baseUrl = inject("baseUrl");
const { tokens } = inject("data");
const { host } = new URL(baseUrl);
const auth = `Authorization: Bearer ${tokens.badInput}`;

describe("requests Node's parser or the router would answer without JSON", () => {
  it.each([
    [
      "a bad Content-Length",
      `POST /api/payments HTTP/1.1\r\nHost: ${host}\r\nContent-Length: abc\r\n\r\n`,
      400,
    ],
    [
      "a bad Transfer-Encoding",
      `POST /api/payments HTTP/1.1\r\nHost: ${host}\r\nTransfer-Encoding: gzip, chunked, foo\r\n\r\n`,
      400,
    ],
    [
      "headers over the limit",
      `GET /api/payments HTTP/1.1\r\nHost: ${host}\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`,
      431,
    ],
    ["no Host header", `GET /api/payments HTTP/1.1\r\n${auth}\r\n\r\n`, 400],
    [
      "an Expect other than 100-continue",
      `GET /api/payments HTTP/1.1\r\nHost: ${host}\r\nExpect: teapot\r\n\r\n`,
      417,
    ],
    ["a request target that is not a path", `GET nonsense HTTP/1.1\r\nHost: ${host}\r\n\r\n`, 400],
  ])("%s: a JSON error", async (_name, request, status) => {
    const response = await rawHttp(baseUrl, request);
    expect(response.status).toBe(status);
    expect(response.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(response.body)).toHaveProperty("message");
  });

  it("OPTIONS * lists the methods the server takes", async () => {
    const response = await rawHttp(baseUrl, `OPTIONS * HTTP/1.1\r\nHost: ${host}\r\n\r\n`);
    expect(response.status).toBe(204);
    expect(response.headers.allow).toBe("GET, HEAD, POST, OPTIONS");
  });
});

describe("absolute URLs come from APP_URL, never from the request", () => {
  it("builds pagination links on APP_URL whatever the Host header says", async () => {
    const response = await rawHttp(
      baseUrl,
      `GET /api/payments HTTP/1.1\r\nHost: evil.example\r\n${auth}\r\nConnection: close\r\n\r\n`,
    );
    expect(response.status).toBe(200);
    const { links } = JSON.parse(response.body) as { links: { first: string } };
    expect(links.first).toBe(`${baseUrl}/api/payments?page=1`);
  });

  it("builds pagination links on the route's path, not the request's spelling of it", async () => {
    const response = await rawHttp(
      baseUrl,
      `GET /api/payments/?perPage=2 HTTP/1.1\r\nHost: evil.example\r\n${auth}\r\nConnection: close\r\n\r\n`,
    );
    expect(response.status).toBe(200);
    const { links } = JSON.parse(response.body) as { links: { first: string } };
    expect(links.first).toBe(`${baseUrl}/api/payments?page=1&perPage=2`);
  });

  it("serves an absolute-form request as its path, without redirecting to its host", async () => {
    const api = await rawHttp(
      baseUrl,
      `GET http://evil.example/api/payments HTTP/1.1\r\nHost: evil.example\r\n${auth}\r\nConnection: close\r\n\r\n`,
    );
    expect(api.status).toBe(200);
    expect((JSON.parse(api.body) as { links: { first: string } }).links.first).toBe(
      `${baseUrl}/api/payments?page=1`,
    );
    const page = await rawHttp(
      baseUrl,
      `GET http://evil.example/login/ HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n`,
    );
    expect(page.headers.location ?? "").not.toContain("evil.example");
  });
});

describe("request bodies", () => {
  // Bytes, so fetch adds no Content-Type of its own.
  const post = (body: string | Uint8Array, contentType?: string) =>
    fetch(`${baseUrl}/api/payments`, {
      method: "POST",
      headers: {
        Authorization: `Bearer ${tokens.badInput}`,
        ...(contentType ? { "Content-Type": contentType } : {}),
      },
      body: typeof body === "string" ? new TextEncoder().encode(body) : new Uint8Array(body),
    });

  it.each([
    ["text/plain", "text/plain"],
    ["a form", "application/x-www-form-urlencoded"],
    ["XML", "application/xml"],
    ["UTF-16 JSON", "application/json; charset=utf-16"],
    ["no Content-Type", undefined],
  ])("%s: 415, nothing written", async (_name, contentType) => {
    const before = await paymentTotal(baseUrl, tokens.badInput);
    const response = await post('{"amount": 1}', contentType);
    expect(response.status).toBe(415);
    expect(await response.json()).toEqual({ message: "Unsupported Media Type." });
    expect(await paymentTotal(baseUrl, tokens.badInput)).toBe(before);
  });

  it("valid JSON nested 8,000 arrays deep, under 16 KiB: 400 saying so, nothing written", async () => {
    const before = await paymentTotal(baseUrl, tokens.badInput);
    const response = await post(
      `{"amount": 1, "x": ${"[".repeat(8000)}${"]".repeat(8000)}}`,
      "application/json",
    );
    expect([response.status, await response.json()]).toEqual([
      400,
      { message: "The request body is nested too deeply." },
    ]);
    expect(await paymentTotal(baseUrl, tokens.badInput)).toBe(before);
  });

  it("takes application/json with or without charset=utf-8, in any case", async () => {
    for (const contentType of [
      "application/json",
      "Application/JSON; charset=UTF-8",
      'application/json;charset="utf-8"',
    ])
      expect((await post('{"amount": 1}', contentType)).status).toBe(201);
  });

  it.each([
    [
      "a NUL in a string field",
      '{"amount": 1, "external_id": "x\\u0000y"}',
      "external_id",
      "The external id field must not contain NUL characters.",
    ],
    [
      "a lone surrogate",
      '{"amount": 1, "customer_id": "\\ud800"}',
      "customer_id",
      "The customer id field must be valid UTF-8 text.",
    ],
  ])("%s: 422 naming the field, nothing written", async (_name, body, field, message) => {
    const before = await paymentTotal(baseUrl, tokens.badInput);
    const response = await post(body, "application/json");
    expect(response.status).toBe(422);
    expect(((await response.json()) as { errors: Record<string, string[]> }).errors[field]).toEqual([
      message,
    ]);
    expect(await paymentTotal(baseUrl, tokens.badInput)).toBe(before);
  });

  const notUtf8 = (before: string, after: string) =>
    Buffer.concat([Buffer.from(before), Buffer.from([0xc3, 0x28, 0xff]), Buffer.from(after)]);
  it.each([
    ["in a string field", notUtf8('{"amount": 1, "external_id": "a', 'b"}'), "external_id"],
    ["beside a valid character", notUtf8('{"amount": 1, "customer_id": "é', '€"}'), "customer_id"],
    ["deep in a field's value", notUtf8('{"amount": 1, "external_id": {"x": ["', '"]}}'), "external_id"],
    ["in a field's name", notUtf8('{"amount": 1, "a', '": "x"}'), "body"],
    ["outside any string", notUtf8('{"amount": 1', "}"), "body"],
  ])("invalid UTF-8 bytes %s: 422 naming where, never stored as U+FFFD", async (_name, body, field) => {
    const before = await paymentTotal(baseUrl, tokens.badInput);
    const response = await post(body, "application/json");
    expect(response.status).toBe(422);
    expect(await response.json()).toEqual({
      message: "The given data was invalid.",
      errors: {
        [field]: [
          field === "body"
            ? "The request body must be valid UTF-8."
            : `The ${field.replace("_", " ")} field must be valid UTF-8 text.`,
        ],
      },
    });
    expect(await paymentTotal(baseUrl, tokens.badInput)).toBe(before);
  });
});

describe("health endpoints", () => {
  it("answer without authentication and without counting against a rate limit", async () => {
    for (let request = 0; request < 5; request++) {
      const health = await fetch(`${baseUrl}/healthz`);
      expect(health.status).toBe(200);
      expect(await health.json()).toEqual({ status: "ok" });
      expect(health.headers.get("x-ratelimit-remaining")).toBeNull();
    }
    const ready = await fetch(`${baseUrl}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: "ok", database: "ok" });
  });
});

describe("request ids and the access log", () => {
  it("answers every API request with X-Request-Id, and logs it as JSON with that id", async () => {
    const ok = await callApi(baseUrl, "/api/payments?perPage=2", { token: tokens.api });
    const refused = await callApi(baseUrl, "/api/nowhere", { token: tokens.api });
    for (const response of [ok, refused])
      expect(response.headers.get("x-request-id")).toMatch(/^req_[0-9A-Za-z]{22}$/);
    const requestId = ok.headers.get("x-request-id")!;
    // The log is written as requests are answered; give the pipe a moment.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const log = readServerLog(baseUrl);
    const line = log.split("\n").find((entry) => entry.includes(requestId));
    expect(line).toBeDefined();
    expect(JSON.parse(line!)).toMatchObject({
      req_id: requestId,
      method: "GET",
      path: "/api/payments?perPage=2",
      status: 200,
      msg: "api request",
    });
    expect(line).not.toContain(tokens.api);
  });
});

describe("GET /metrics", () => {
  const metricsToken = inject("serverEnv").METRICS_TOKEN!;

  /** Prometheus text format: `name{labels} value` lines, comments skipped. */
  function parseMetrics(text: string): Array<{ name: string; labels: string; value: number }> {
    return text
      .split("\n")
      .filter((line) => line && !line.startsWith("#"))
      .map((line) => {
        // Label values may hold braces themselves (route="api/payments/{id}").
        const match = /^([a-zA-Z_:][\w:]*)(\{.*\})? (\S+)$/.exec(line);
        if (!match) throw new Error(`not Prometheus text: ${line}`);
        return { name: match[1]!, labels: match[2] ?? "", value: Number(match[3]) };
      });
  }

  it("is served only with the metrics token", async () => {
    for (const authorization of [undefined, "Bearer wrong", `Bearer ${tokens.api}`, metricsToken]) {
      const response = await fetch(`${baseUrl}/metrics`, {
        headers: authorization ? { Authorization: authorization } : {},
      });
      expect(response.status).toBe(401);
    }
  });

  it("counts API requests by route, method and status, with latencies, rate-limit refusals and the queue", async () => {
    await callApi(baseUrl, "/api/payments?perPage=1", { token: tokens.api });
    const response = await fetch(`${baseUrl}/metrics`, {
      headers: { Authorization: `Bearer ${metricsToken}` },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/plain");
    const samples = parseMetrics(await response.text());
    const sample = (name: string, labels = "") =>
      samples.find((entry) => entry.name === name && entry.labels.includes(labels));
    expect(
      sample("http_requests_total", 'route="api/payments",method="GET",status="200"')?.value,
    ).toBeGreaterThan(0);
    expect(sample("http_request_duration_seconds_bucket", 'route="api/payments"')).toBeDefined();
    expect(sample("rate_limit_rejections_total")).toBeDefined();
    expect(sample("webhook_queue_depth", 'state="due"')).toBeDefined();
    expect(sample("webhook_queue_depth", 'state="retrying"')).toBeDefined();
    expect(sample("process_resident_memory_bytes")!.value).toBeGreaterThan(0);
    expect(sample("nodejs_eventloop_lag_seconds")).toBeDefined();
    // The pool's gauges (always 0 on PGlite, one in-process connection with no pool).
    expect(sample("db_pool_connections_in_use")!.value).toBeGreaterThanOrEqual(0);
    expect(sample("db_pool_waiting")!.value).toBeGreaterThanOrEqual(0);
  });
});
