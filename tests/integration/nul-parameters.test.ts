// A NUL (%00) anywhere a client can put one in a URL: a 422 naming the query parameter, a 404 for an id, never
// a 500 and never PostgreSQL's 22021. The API's routes and parameters are read from the served OpenAPI
// document (which api-auth.test.ts holds to the router's table), so a new route or filter is covered as it
// is documented, without editing this file.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { callApi } from "../support/api-client";
import { logInOverHttp } from "../support/http-session";
import { readServerLog } from "../support/test-server";

const baseUrl = inject("baseUrl");
const { tokens, seed } = inject("data");

type Parameter = { name: string; in: string };
type Operation = { parameters?: Parameter[] };
type PathItem = { parameters?: Parameter[] } & Partial<Record<Method, Operation>>;
type Method = "get" | "post" | "put" | "patch" | "delete";
const METHODS: Method[] = ["get", "post", "put", "patch", "delete"];

/** Every operation of the served document, with its path's and its own parameters. */
async function operations(): Promise<Array<{ method: Method; path: string; parameters: Parameter[] }>> {
  const document = (await callApi(baseUrl, "/api/openapi.json")).body as { paths: Record<string, PathItem> };
  return Object.entries(document.paths).flatMap(([path, item]) =>
    METHODS.filter((method) => item[method]).map((method) => ({
      method,
      path,
      parameters: [...(item.parameters ?? []), ...(item[method]!.parameters ?? [])],
    })),
  );
}

/** The key each route serves: the account's routes take only an account key, every other route any key. */
const keyFor = (path: string) => (path.startsWith("/api/sandboxes") ? tokens.account : tokens.api);

/** The path with every `{param}` filled: a real-looking id, or the spelling under test. */
const fill = (path: string, value: string) => path.replace(/\{[^}]+\}/g, value);

const nulRefusal = (field: string) => ({
  message: "The given data was invalid.",
  errors: { [field]: [`The ${field.replaceAll("_", " ")} field must not contain NUL characters.`] },
});

let logFrom = 0;
beforeAll(() => {
  logFrom = readServerLog(baseUrl).length;
});

/** What the server logged while this file ran: no database error, no unhandled one. */
afterAll(() => {
  const logged = readServerLog(baseUrl).slice(logFrom);
  // SQLSTATE 22021 (a NUL sent to PostgreSQL), never the digits inside a timestamp (…1795997422021…).
  expect(logged).not.toMatch(/(?<!\d)22021(?!\d)/);
  expect(logged).not.toContain("Unhandled API error");
});

describe("the API: a NUL in any parameter of any route", () => {
  it("a query parameter, declared or not: 422 naming it, on every operation", async () => {
    const answers: unknown[] = [];
    const expected: unknown[] = [];
    for (const { method, path, parameters } of await operations()) {
      const names = [
        ...parameters.filter((parameter) => parameter.in === "query").map((parameter) => parameter.name),
        "not_a_parameter",
      ];
      for (const name of names)
        for (const value of ["%00", "x%00", "%00x"]) {
          const url = `${fill(path, "1")}?${name}=${value}`;
          const response = await callApi(baseUrl, url, {
            method: method.toUpperCase(),
            token: keyFor(path),
            ...(method === "get" ? {} : { json: {} }),
          });
          answers.push([method, url, response.status, response.body]);
          expected.push([method, url, 422, nulRefusal(name)]);
        }
    }
    expect(answers).toEqual(expected);
  });

  it("names the parameter PHP would (`name[]` is `name`), each one once", async () => {
    const response = await callApi(
      baseUrl,
      "/api/payments?status[]=%00&customer_id=ok&external_id=a%00&external_id=b%00",
      { token: tokens.api },
    );
    expect([response.status, response.body]).toEqual([
      422,
      {
        message: "The given data was invalid.",
        errors: { ...nulRefusal("status").errors, ...nulRefusal("external_id").errors },
      },
    ]);
  });

  it("nothing is written: a create with a NUL in its query makes no payment", async () => {
    const total = async () =>
      (
        (await callApi(baseUrl, "/api/payments?perPage=1", { token: tokens.api })).body as {
          meta: { total: number };
        }
      ).meta.total;
    const before = await total();
    const response = await callApi(baseUrl, "/api/payments?source=%00", {
      token: tokens.api,
      json: { amount: 1 },
    });
    expect([response.status, response.body]).toEqual([422, nulRefusal("source")]);
    expect(await total()).toBe(before);
  });

  it("without a valid token it is still the 401: nothing is read before the token is", async () => {
    const response = await callApi(baseUrl, "/api/payments?customer_id=%00", { token: "pay_nobody" });
    expect(response.status).toBe(401);
  });

  it("a path id, on every operation that takes one: 404 Not Found", async () => {
    const answers: unknown[] = [];
    const expected: unknown[] = [];
    for (const { method, path } of await operations()) {
      if (!path.includes("{")) continue;
      for (const id of ["%00", "1%00", "%001", "cus_%00"]) {
        const url = fill(path, id);
        const response = await callApi(baseUrl, url, {
          method: method.toUpperCase(),
          token: keyFor(path),
          ...(method === "get" ? {} : { json: {} }),
        });
        answers.push([method, url, response.status, response.body]);
        expected.push([method, url, 404, { message: "Not Found" }]);
      }
    }
    expect(answers.length).toBeGreaterThan(0);
    expect(answers).toEqual(expected);
  });
});

describe("the dashboard: a NUL in an id or a filter", () => {
  let cookie = "";
  let endpointId = 0;
  beforeAll(async () => {
    ({ cookie } = await logInOverHttp(baseUrl, seed.email, seed.password, {
      "X-Forwarded-For": "192.0.2.70",
    }));
    // An endpoint of the seed merchant's for its page, on an event no other suite makes it send.
    const created = await callApi(baseUrl, "/api/webhook-endpoints", {
      token: tokens.api,
      json: { url: "https://example.com/nul-parameters", events: ["refund.failed"] },
    });
    endpointId = (created.body as { data: { id: number } }).data.id;
  });
  afterAll(async () => {
    await callApi(baseUrl, `/api/webhook-endpoints/${endpointId}`, { method: "DELETE", token: tokens.api });
  });
  const visit = async (path: string) => {
    const response = await fetch(`${baseUrl}${path}`, { headers: { cookie }, redirect: "manual" });
    const html = await response.text();
    return [path, response.status, html.includes("Something went wrong")];
  };

  it.each(["customers", "payments", "events", "webhooks"])(
    "/dashboard/%s/{id}: its 404 page for an id with a NUL",
    async (area) => {
      const paths = ["%00", "x%00", "%00x"].map((id) => `/dashboard/${area}/${id}`);
      const answers = await Promise.all(paths.map(visit));
      expect(answers).toEqual(paths.map((path) => [path, 404, false]));
    },
  );

  // Each list page's filters as its URL carries them: a NUL in one is ignored, and the page still answers.
  const filters: Array<[string, string[]]> = [
    ["/dashboard", ["range"]],
    ["/dashboard/payments", ["q", "status", "refund", "from", "to", "page", "pageSize"]],
    ["/dashboard/payments/export", ["q", "status", "refund", "from", "to"]],
    ["/dashboard/refunds", ["page", "status"]],
    ["/dashboard/customers", ["page"]],
    ["/dashboard/events", ["type", "payment_id", "page"]],
    ["/dashboard/logs", ["status", "method", "path", "token", "request_id", "after", "before", "last"]],
    ["/dashboard/payment-links", ["page"]],
    ["/dashboard/api-keys", ["show"]],
    ["/dashboard/webhooks/debugger", ["capture"]],
    ["/dashboard/webhooks/{id}", ["status", "after", "before", "last", "capture_page"]],
  ];
  it.each(filters)("%s: a NUL in any filter is ignored", async (page, names) => {
    const path = page.replace("{id}", String(endpointId));
    const paths = names.flatMap((name) => [`${path}?${name}=%00`, `${path}?${name}=cus_1%00`]);
    const answers = await Promise.all(paths.map(visit));
    expect(answers).toEqual(paths.map((each) => [each, 200, false]));
  });
});

describe("the payer's and sign-in pages: a NUL in a token or a slug", () => {
  it.each([
    ["/pay/%00", 404],
    ["/pay/x%00?error=%00&fields=%00", 404],
    ["/l/%00", 404],
    ["/l/x%00/unavailable", 404],
    ["/invite/%00", 200],
    ["/login?next=%00", 200],
  ])("%s: %i, never a 500", async (path, status) => {
    // A client address of its own: opening links is limited per address.
    const response = await fetch(`${baseUrl}${path}`, {
      redirect: "manual",
      headers: { "X-Forwarded-For": "192.0.2.72" },
    });
    expect([path, response.status]).toEqual([path, status]);
  });
});
