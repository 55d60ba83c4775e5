import { describe, expect, inject, it } from "vitest";
import { FULL_PAYMENT_FIELDS, callApi, paymentTotal, rawRequest } from "../support/api-client";
import { readServerLog } from "../support/test-server";

const baseUrl = inject("baseUrl");
const { tokens } = inject("data");
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe("POST /api/payments then GET it back", () => {
  it("creates a payment: 201, the exact message, a Location, rate-limit headers", async () => {
    const created = await callApi(baseUrl, "/api/payments", {
      token: tokens.api,
      json: { amount: 12.5, external_id: "order_1001", customer_id: "cus_1" },
    });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ message: "Payment created successfully" });
    expect(created.headers.get("location")).toMatch(/^\/api\/payments\/\d+$/);
    expect(created.headers.get("x-ratelimit-limit")).toBe("10000");
    expect(Number(created.headers.get("x-ratelimit-remaining"))).toBeGreaterThan(0);

    const fetched = await callApi(baseUrl, created.headers.get("location")!, { token: tokens.api });
    expect(fetched.status).toBe(200);
    const { data } = fetched.body as { data: Record<string, unknown> };
    expect(Object.keys(data)).toEqual(FULL_PAYMENT_FIELDS);
    // Pending: nothing refunded, nothing refundable yet.
    expect([data.amount_refunded, data.amount_refundable]).toEqual(["0.00", "0.00"]);
    expect(data).toMatchObject({
      external_id: "order_1001",
      type: "payment",
      status: "pending",
      amount: "12.50",
      metadata: '{"customer_id":"cus_1"}',
      customer_id: "cus_1",
      failure_code: null,
      failure_reason: null,
    });
    expect(data.id).toBe(Number(created.headers.get("location")!.split("/").at(-1)));
    expect(data.created_at).toMatch(TIMESTAMP);
  });

  it.each([
    [0, "0.00"],
    ["100", "100.00"],
    ["7.5", "7.50"],
    [999999999999.99, "999999999999.99"],
    ["0.01", "0.01"],
  ])("accepts amount %j and returns it as %j; missing ids are null", async (amount, expected) => {
    const created = await callApi(baseUrl, "/api/payments", { token: tokens.api, json: { amount } });
    expect(created.status).toBe(201);
    const fetched = await callApi(baseUrl, created.headers.get("location")!, { token: tokens.api });
    expect(fetched.body).toMatchObject({ data: { amount: expected, external_id: null, metadata: null } });
  });

  // JSON numbers as written on the wire: their value, not the double nearest to it.
  it.each([
    ["1e3", "1000.00"],
    ["12.500000", "12.50"],
    ["999999999999.990000", "999999999999.99"],
    ["0.0", "0.00"],
  ])("accepts the JSON number %s as %j", async (numeral, expected) => {
    const created = await callApi(baseUrl, "/api/payments", {
      token: tokens.api,
      raw: `{"amount": ${numeral}}`,
    });
    expect(created.status).toBe(201);
    const fetched = await callApi(baseUrl, created.headers.get("location")!, { token: tokens.api });
    expect(fetched.body).toMatchObject({ data: { amount: expected } });
  });
});

describe("GET /api/payments", () => {
  it("lists exactly the list fields, newest first, with Laravel links and meta", async () => {
    for (const external_id of ["list_a", "list_b", "list_c"]) {
      expect(
        (await callApi(baseUrl, "/api/payments", { token: tokens.api, json: { amount: 1, external_id } }))
          .status,
      ).toBe(201);
    }
    const response = await callApi(baseUrl, "/api/payments?perPage=2", { token: tokens.api });
    expect(response.status).toBe(200);
    const body = response.body as {
      data: Array<Record<string, unknown>>;
      links: Record<string, string | null>;
      meta: Record<string, number | null>;
    };
    expect(Object.keys(body).sort()).toEqual(["data", "links", "meta"]);
    expect(body.data.map((item) => item.external_id)).toEqual(["list_c", "list_b"]);
    // The seed's six fields and `currency`, the one addition to them (DESIGN.md, "Currencies").
    expect(Object.keys(body.data[0]!).sort()).toEqual([
      "amount",
      "created_at",
      "currency",
      "external_id",
      "id",
      "status",
      "type",
    ]);
    expect(body.data[0]!.id).toBeGreaterThan(body.data[1]!.id as number);
    const total = body.meta.total!;
    expect(body.meta).toEqual({
      current_page: 1,
      from: 1,
      last_page: Math.ceil(total / 2),
      per_page: 2,
      to: 2,
      total,
    });
    expect(body.links.first).toMatch(/\/api\/payments\?page=1&perPage=2$/);
    expect(body.links.next).toMatch(/\/api\/payments\?page=2&perPage=2$/);
    expect(body.links.prev).toBeNull();

    const second = (await callApi(baseUrl, "/api/payments?page=2&perPage=2", { token: tokens.api }))
      .body as typeof body;
    expect(second.data[0]!.external_id).toBe("list_a");
    expect(second.meta).toMatchObject({ current_page: 2, from: 3, to: 4 });
  });

  it("answers a page past the end with 200 and empty data", async () => {
    const response = await callApi(baseUrl, "/api/payments?page=100000&perPage=100", { token: tokens.api });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      data: [],
      meta: { current_page: 100000, from: null, to: null, per_page: 100 },
    });
  });

  it("defaults to page 1 and 10 per page", async () => {
    const response = await callApi(baseUrl, "/api/payments", { token: tokens.api });
    const body = response.body as { data: unknown[]; meta: { total: number } };
    expect(body).toMatchObject({ meta: { current_page: 1, per_page: 10 } });
    expect(body.data).toHaveLength(Math.min(10, body.meta.total));
    expect(body.meta.total).toBeGreaterThan(0);
  });

  const invalid = (field: string, message: string) => ({
    message: "The given data was invalid.",
    errors: { [field]: [message] },
  });
  it.each([
    ["page=0", invalid("page", "The page field must be at least 1.")],
    ["page=-1", invalid("page", "The page field must be at least 1.")],
    ["page=abc", invalid("page", "The page field must be an integer.")],
    ["page=1.5", invalid("page", "The page field must be an integer.")],
    ["page=", invalid("page", "The page field must be an integer.")],
    ["perPage=0", invalid("perPage", "The per page field must be at least 1.")],
    ["perPage=101", invalid("perPage", "The per page field must not be greater than 100.")],
    ["perPage=ten", invalid("perPage", "The per page field must be an integer.")],
    // As Laravel reads them: no leading zero (PHP's FILTER_VALIDATE_INT), and name[] makes an array.
    ["page=01", invalid("page", "The page field must be an integer.")],
    ["page[]=1", invalid("page", "The page field must be an integer.")],
    ["page=2&page[]=1", invalid("page", "The page field must be an integer.")],
    ["perPage[size]=5", invalid("perPage", "The per page field must be an integer.")],
    ["page=9007199254740993", invalid("page", "The page field must not be greater than 9007199254740991.")],
  ])("rejects %s with 422 naming the parameter", async (query, expected) => {
    const response = await callApi(baseUrl, `/api/payments?${query}`, { token: tokens.badInput });
    expect(response.status).toBe(422);
    expect(response.body).toEqual(expected);
  });
});

describe("POST /api/payments with bad input writes nothing", () => {
  const invalid = (errors: Record<string, string[]>) => ({ message: "The given data was invalid.", errors });
  const amountError = (message: string) => invalid({ amount: [message] });
  const cases: Array<
    [string, { json?: unknown; raw?: string; headers?: Record<string, string> }, number, unknown]
  > = [
    ["empty object", { json: {} }, 422, amountError("The amount field is required.")],
    ["empty body", { raw: "" }, 422, amountError("The amount field is required.")],
    ["null amount", { json: { amount: null } }, 422, amountError("The amount field is required.")],
    ["empty-string amount", { json: { amount: "" } }, 422, amountError("The amount field is required.")],
    ["text amount", { json: { amount: "abc" } }, 422, amountError("The amount field must be a number.")],
    ["exponent string", { json: { amount: "1e3" } }, 422, amountError("The amount field must be a number.")],
    ["signed string", { json: { amount: "+1.00" } }, 422, amountError("The amount field must be a number.")],
    ["boolean amount", { json: { amount: true } }, 422, amountError("The amount field must be a number.")],
    ["array amount", { json: { amount: [1] } }, 422, amountError("The amount field must be a number.")],
    [
      "object amount",
      { json: { amount: { value: 1 } } },
      422,
      amountError("The amount field must be a number."),
    ],
    ["negative amount", { json: { amount: -1 } }, 422, amountError("The amount field must be at least 0.")],
    [
      "negative string",
      { json: { amount: "-0.01" } },
      422,
      amountError("The amount field must be at least 0."),
    ],
    [
      "three decimals",
      { json: { amount: 1.234 } },
      422,
      amountError("The amount field must have at most 2 decimal places."),
    ],
    [
      "three decimals string",
      { json: { amount: "1.234" } },
      422,
      amountError("The amount field must have at most 2 decimal places."),
    ],
    [
      "too large",
      { json: { amount: 1000000000000 } },
      422,
      amountError("The amount field must not be greater than 999999999999.99."),
    ],
    [
      "too large string",
      { json: { amount: "999999999999.999" } },
      422,
      amountError("The amount field must have at most 2 decimal places."),
    ],
    // Each prints as a two-decimal number once parsed into a double; the digits sent say otherwise.
    ...[
      "12.3400000000000001",
      "999999999999.9900001",
      "1.50000000000000000000000001",
      "0.10000000000000001",
    ].map(
      (numeral) =>
        [
          `JSON number ${numeral}`,
          { raw: `{"amount": ${numeral}}` },
          422,
          amountError("The amount field must have at most 2 decimal places."),
        ] as (typeof cases)[number],
    ),
    [
      "31-digit JSON number",
      { raw: `{"amount": ${"9".repeat(31)}}` },
      422,
      amountError("The amount field must not be greater than 999999999999.99."),
    ],
    [
      "huge number",
      { json: { amount: 1e21 } },
      422,
      amountError("The amount field must not be greater than 999999999999.99."),
    ],
    [
      "numeric external_id",
      { json: { amount: 1, external_id: 123 } },
      422,
      invalid({ external_id: ["The external id field must be a string."] }),
    ],
    [
      "long external_id",
      { json: { amount: 1, external_id: "x".repeat(256) } },
      422,
      invalid({ external_id: ["The external id field must not be greater than 255 characters."] }),
    ],
    [
      "object customer_id",
      { json: { amount: 1, customer_id: {} } },
      422,
      invalid({ customer_id: ["The customer id field must be a string."] }),
    ],
    [
      "several fields",
      { json: { external_id: 5, customer_id: "y".repeat(300) } },
      422,
      invalid({
        amount: ["The amount field is required."],
        external_id: ["The external id field must be a string."],
        customer_id: ["The customer id field must not be greater than 255 characters."],
      }),
    ],
    ["malformed JSON", { raw: '{"amount": 1' }, 400, { message: "The request body is not valid JSON." }],
    ["JSON array", { raw: "[1]" }, 400, { message: "The request body must be a JSON object." }],
    ["JSON string", { raw: '"12"' }, 400, { message: "The request body must be a JSON object." }],
    [
      "body over 16 KiB",
      { json: { amount: 1, external_id: "x".repeat(17_000) } },
      413,
      { message: "The request body must not be larger than 16 KiB." },
    ],
    [
      "bad Idempotency-Key",
      { json: { amount: 1 }, headers: { "Idempotency-Key": "x".repeat(256) } },
      422,
      invalid({
        "Idempotency-Key": [
          "The Idempotency-Key header must be 1 to 255 visible ASCII characters, such as a UUID.",
        ],
      }),
    ],
  ];

  it("cuts off a body streamed in chunks past 16 KiB with no Content-Length: 413, nothing written", async () => {
    const before = await paymentTotal(baseUrl, tokens.badInput);
    const response = await rawRequest(`${baseUrl}/api/payments`, {
      method: "POST",
      headers: {
        Authorization: `Bearer ${tokens.badInput}`,
        "Content-Type": "application/json",
        "Transfer-Encoding": "chunked",
      },
      chunks: ['{"amount": 1, "external_id": "', ...Array<string>(20).fill("x".repeat(1024)), '"}'],
    });
    expect(response.status).toBe(413);
    expect(JSON.parse(response.text)).toEqual({
      message: "The request body must not be larger than 16 KiB.",
    });
    expect(await paymentTotal(baseUrl, tokens.badInput)).toBe(before);
    // Cutting the stream off left no trace: the old bridge threw "Controller is already closed" each time.
    const log = readServerLog(baseUrl);
    expect(log).not.toMatch(/uncaughtException|Controller is already closed/);
  });

  it.each(cases)("%s", async (_name, request, status, expected) => {
    const before = await paymentTotal(baseUrl, tokens.badInput);
    const response = await callApi(baseUrl, "/api/payments", {
      token: tokens.badInput,
      method: "POST",
      ...request,
    });
    expect(response.status).toBe(status);
    expect(response.body).toEqual(expected);
    expect(response.headers.get("content-type")).toContain("application/json");
    expect(response.headers.get("location")).toBeNull();
    expect(await paymentTotal(baseUrl, tokens.badInput)).toBe(before);
  });
});
