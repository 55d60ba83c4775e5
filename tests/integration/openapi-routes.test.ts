// The one list of routes (lib/api/routes.ts) against what the server does with it: the served document
// describes every route the router serves and nothing else, and the router serves every route the document
// describes and nothing else. /api/openapi.json itself is served beside the list, not described in it.
import { describe, expect, inject, it } from "vitest";
import { routes } from "@/lib/api/routes";
import { callApi } from "../support/api-client";

const baseUrl = inject("baseUrl");

type Operation = { parameters?: Array<{ name: string; in: string; schema: { type?: string } }> };
type Document = { paths: Record<string, Record<string, Operation>> };
const METHODS = ["get", "post", "put", "patch", "delete"];

/** `METHOD /path` for each operation of the served document. */
async function documentedOperations(): Promise<Map<string, Operation>> {
  const document = (await callApi(baseUrl, "/api/openapi.json")).body as Document;
  return new Map(
    Object.entries(document.paths).flatMap(([path, item]) =>
      METHODS.filter((method) => item[method]).map((method) => [
        `${method.toUpperCase()} ${path}`,
        item[method]!,
      ]),
    ),
  );
}

/** The methods the list declares on each path, as the router's Allow lists them. */
function declaredAllow(): Map<string, string> {
  const byPath = new Map<string, Set<string>>();
  for (const route of routes) byPath.set(route.path, (byPath.get(route.path) ?? new Set()).add(route.method));
  return new Map(
    [...byPath].map(([path, methods]) => [
      path,
      [
        ...["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"].filter((m) =>
          methods.has(m === "HEAD" ? "GET" : m),
        ),
        "OPTIONS",
      ].join(", "),
    ]),
  );
}

describe("the routes declared once", () => {
  it("are the document's operations, each way", async () => {
    const documented = await documentedOperations();
    const declared = routes.map((route) => `${route.method} ${route.path}`);
    expect(new Set(declared).size).toBe(declared.length);
    expect([...documented.keys()].sort()).toEqual([...declared].sort());
  });

  it("are what the router serves on each path, and no more methods", async () => {
    for (const [path, allow] of declaredAllow()) {
      const response = await callApi(baseUrl, path.replaceAll(/\{\w+\}/g, "1"), { method: "OPTIONS" });
      expect({ path, status: response.status, allow: response.headers.get("allow") }).toEqual({
        path,
        status: 204,
        allow,
      });
    }
  });

  it("serve no path the list does not declare, but the document's own", async () => {
    const declaredPaths = new Set(routes.map((route) => route.path));
    for (const path of [
      "/api",
      "/api/payment",
      "/api/payments/1/refunds/1",
      "/api/tokens",
      "/api/events/1/x",
    ]) {
      expect(declaredPaths.has(path)).toBe(false);
      expect((await callApi(baseUrl, path, { method: "OPTIONS" })).status).toBe(404);
    }
    expect((await callApi(baseUrl, "/api/openapi.json", { method: "OPTIONS" })).headers.get("allow")).toBe(
      "GET, HEAD, OPTIONS",
    );
  });

  it("document the very query keys the API validates", async () => {
    const documented = await documentedOperations();
    for (const route of routes) {
      const operation = documented.get(`${route.method} ${route.path}`)!;
      const shown = (operation.parameters ?? [])
        .filter((each) => each.in === "query")
        .map((each) => each.name);
      expect({ route: `${route.method} ${route.path}`, query: shown }).toEqual({
        route: `${route.method} ${route.path}`,
        query: Object.keys(route.query?.shape ?? {}),
      });
    }
  });

  it("give every query parameter a type, as the query's field declares it (a transform's in its .meta())", async () => {
    for (const [operation, { parameters = [] }] of await documentedOperations())
      for (const parameter of parameters.filter((each) => each.in === "query"))
        expect([operation, parameter.name, ["string", "integer"].includes(parameter.schema.type!)]).toEqual([
          operation,
          parameter.name,
          true,
        ]);
  });

  it("answer a malformed integer id with 404 before reading the query, as before the list", async () => {
    const { tokens } = inject("data");
    const checked = routes.filter(
      (route) => route.method === "GET" && route.query && /\{\w+\}/.test(route.path),
    );
    expect(checked.length).toBeGreaterThan(0);
    for (const route of checked) {
      const integers = Object.entries(route.params ?? {}).filter(
        ([, param]) => param.schema.type === "integer",
      );
      if (integers.length === 0) continue;
      const path = route.path.replace(/\{(\w+)\}/g, "abc");
      const response = await callApi(baseUrl, `${path}?page=x&perPage=x&limit=x&status=x&after=x`, {
        token: tokens.api,
      });
      expect({ path, status: response.status }).toEqual({ path, status: 404 });
    }
  });
});
