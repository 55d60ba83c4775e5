// Every statement the app sends that touches a tenant table (one with merchant_id) constrains merchant_id, so
// the schema can be distributed by merchant (Citus, docs/scaling.md) without a query fanning out to every
// shard. The statements are the ones the app really sent during this run: db/client.ts records each distinct
// statement text and the app frames that sent it when DATABASE_STATEMENT_CAPTURE is set, and
// tests/support/global-setup.ts turns that on for every process test-server.ts starts (the seed, the
// servers and their inline worker and settler, worker processes, the admin CLI); the test processes' own
// assertions are left out. Dynamic capture rather than reading the source: most SQL is drizzle
// query-builder output that exists only once it runs, and the rest is `sql` templates built from pieces.
// What no test runs is not seen, so this file runs last (vitest.config.ts) and drives the API once itself,
// which keeps it meaningful when run alone. tests/support/tenant-scoping.ts has the rules;
// cross-tenant-statements.ts the statements that may cross tenants, why, and what each becomes on Citus.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { is } from "drizzle-orm";
import { getTableConfig, PgTable } from "drizzle-orm/pg-core";
import { beforeAll, describe, expect, inject, it } from "vitest";
import * as schema from "@/db/schema";
import type { CapturedStatement } from "@/db/statement-capture";
import { callApi } from "../support/api-client";
import { crossTenantEntry } from "../support/cross-tenant-statements";
import { ScopingChecker } from "../support/tenant-scoping";

const baseUrl = inject("baseUrl");
const { tokens } = inject("data");
const captureDir = inject("statementCaptureDir");

/** Tables with a merchant_id column, read from the drizzle schema (so a new table is checked at once). */
const tenantTables = new Set(
  (Object.values(schema) as unknown[])
    .filter((value): value is PgTable => is(value, PgTable))
    .map((table) => getTableConfig(table))
    .filter((config) => config.columns.some((column) => column.name === "merchant_id"))
    .map((config) => config.name),
);

let checker: ScopingChecker;
beforeAll(async () => {
  checker = await ScopingChecker.create({
    tenantTables,
    crossTenant: (sql, table, pinnedBy) => crossTenantEntry(sql, table, pinnedBy) !== undefined,
  });
});

/** Each distinct statement every process recorded, with every place that sent it. */
function capturedStatements(): Map<string, Set<string>> {
  const statements = new Map<string, Set<string>>();
  for (const file of readdirSync(captureDir).filter((name) => name.endsWith(".jsonl"))) {
    for (const line of readFileSync(path.join(captureDir, file), "utf8").split("\n")) {
      if (!line) continue;
      const { sql, callers } = JSON.parse(line) as CapturedStatement;
      const sites = statements.get(sql) ?? new Set<string>();
      sites.add(
        callers.join(" < ") || "(no app frame: a drizzle query awaited directly; search for its columns)",
      );
      statements.set(sql, sites);
    }
  }
  return statements;
}

const shorten = (sql: string) => {
  const flat = sql.replace(/\s+/g, " ").trim();
  return flat.length > 240 ? `${flat.slice(0, 240)}…` : flat;
};

/** One request of each kind a merchant's backend makes, so a run of this file alone sends them all. */
async function driveTheApi(): Promise<void> {
  const token = tokens.api;
  const post = (url: string, json: unknown, headers: Record<string, string> = {}) =>
    callApi(baseUrl, url, { token, json, headers });
  const created = await post(
    "/api/payments",
    { amount: "10.00" },
    { "Idempotency-Key": `scope-${Date.now()}` },
  );
  expect(created.status).toBe(201);
  const paymentId = created.headers.get("location")!.split("/").at(-1)!;
  await callApi(baseUrl, "/api/payments?perPage=5&page=2", { token });
  await callApi(baseUrl, `/api/payments/${paymentId}`, { token });
  // Another merchant's payment: the 403-or-404 ownership lookup.
  await callApi(baseUrl, `/api/payments/${paymentId}`, { token: tokens.other });
  await post(`/api/test-helpers/payments/${paymentId}/settle`, { outcome: "completed" });
  const refund = await post(`/api/payments/${paymentId}/refunds`, { amount: "1.00" });
  const refundId = (refund.body as { data?: { id: number } }).data?.id;
  await callApi(baseUrl, `/api/payments/${paymentId}/refunds`, { token });
  await callApi(baseUrl, `/api/refunds/${refundId}`, { token });
  await callApi(baseUrl, `/api/refunds/${refundId}`, { token: tokens.other });
  const pending = await post("/api/payments", { amount: "2.00" });
  await post(`/api/payments/${pending.headers.get("location")!.split("/").at(-1)}/cancel`, {});
  const events = (await callApi(baseUrl, "/api/events?perPage=3", { token })).body as {
    data: { id: string }[];
  };
  const eventId = events.data[0]!.id;
  await callApi(baseUrl, `/api/events/${eventId}`, { token });
  await callApi(baseUrl, `/api/events/${eventId}`, { token: tokens.other });
  await callApi(baseUrl, "/api/events?types=payment.completed&perPage=2&page=3", { token });
  const endpoint = await post("/api/webhook-endpoints", {
    url: "https://example.com/hooks",
    event_types: ["payment.completed"],
  });
  const endpointId = (endpoint.body as { data?: { id: number } }).data?.id;
  await callApi(baseUrl, "/api/webhook-endpoints", { token });
  await callApi(baseUrl, `/api/webhook-endpoints/${endpointId}`, { token: tokens.other });
  await callApi(baseUrl, `/api/webhook-endpoints/${endpointId}`, {
    token,
    method: "PATCH",
    json: { description: "scoping" },
  });
  await post(`/api/webhook-endpoints/${endpointId}/rotate-secret`, {});
  await callApi(baseUrl, `/api/webhook-endpoints/${endpointId}/deliveries`, { token });
  await post(`/api/events/${eventId}/resend`, {});
  await post("/api/webhooks/verify", { endpoint_id: endpointId, headers: {}, body: "{}" });
  await callApi(baseUrl, `/api/webhook-endpoints/${endpointId}`, { token, method: "DELETE" });
  await callApi(baseUrl, "/api/request-logs?perPage=5", { token });
}

describe("tenant scoping of the statements the app sends", () => {
  it("flags a tenant query without a merchant_id filter, so an empty list below means something", () => {
    expect(checker.check("select * from payments where id = $1")).toEqual([
      { table: "payments", as: "payments", crossTenant: false },
    ]);
    expect(checker.check("select * from payments where merchant_id = $1 and id = $2")).toEqual([]);
    expect(checker.check("insert into refunds (payment_id, amount) values ($1, $2)")).toHaveLength(1);
    expect(checker.check("select * from payments where merchant_id = $1 or id = $2")).toHaveLength(1);
    // A join reaches refunds by payment id only: on Citus that is a cross-shard join.
    const joined = "select * from payments p join refunds r on r.payment_id = p.id where p.merchant_id = $1";
    expect(checker.check(joined)).toEqual([{ table: "refunds", as: "r", crossTenant: false }]);
    expect(checker.check(`${joined} and r.merchant_id = p.merchant_id`)).toEqual([]);
    // The list lets an identity table through only when the row is pinned by its key, never a scan.
    expect(checker.check("select * from users where email = $1")).toEqual([
      { table: "users", as: "users", crossTenant: true },
    ]);
    expect(checker.check("select * from users where name = $1")).toEqual([
      { table: "users", as: "users", crossTenant: false },
    ]);
    expect(tenantTables).toContain("payments");
    expect(tenantTables).not.toContain("rate_limit_buckets");
  });

  it("finds no statement on a tenant table that skips merchant_id, apart from the listed cross-tenant ones", async () => {
    await driveTheApi();
    const statements = capturedStatements();
    // Kept in test-results/ (beside the server's log) to read after a failure; the capture dir is removed.
    mkdirSync("test-results", { recursive: true });
    const kept = [...statements].map(([sql, sites]) => JSON.stringify({ sql, callers: [...sites] }));
    writeFileSync("test-results/captured-statements.jsonl", `${kept.join("\n")}\n`);
    const offenders: string[] = [];
    let tenantStatements = 0;
    for (const [sql, sites] of statements) {
      // A test's own SQL (counting rows to assert on) is not the app's.
      if ([...sites].every((site) => /^(\S+ \()?tests\//.test(site))) continue;
      let unscoped;
      try {
        unscoped = checker.check(sql);
      } catch (error) {
        offenders.push(
          `could not check (${String(error)}): ${shorten(sql)}\n    from ${[...sites].join("\n    from ")}`,
        );
        continue;
      }
      if ([...tenantTables].some((table) => sql.includes(table))) tenantStatements += 1;
      const left = unscoped.filter((reference) => !reference.crossTenant);
      if (left.length === 0) continue;
      const tables = [...new Set(left.map((reference) => reference.table))].join(", ");
      offenders.push(`${tables}: ${shorten(sql)}\n    from ${[...sites].join("\n    from ")}`);
    }
    // Guards against a capture that silently recorded nothing (a renamed setting, a driver change), and
    // proves the server itself recorded: only it authenticates API requests.
    expect(tenantStatements, `statements captured in ${captureDir}`).toBeGreaterThan(30);
    const sites = [...statements.values()].flatMap((set) => [...set]);
    // On Citus the token check is authenticateOnCitus's two statements.
    expect(sites.some((site) => /^authenticate(ApiToken|OnCitus)/.test(site))).toBe(true);
    expect(
      offenders.length,
      `Statements on tenant tables without a merchant_id filter. Add the filter, or (only if it must ` +
        `cross tenants) list it in tests/support/cross-tenant-statements.ts and docs/scaling.md:\n\n` +
        `${offenders.join("\n\n")}\n`,
    ).toBe(0);
  });
});
