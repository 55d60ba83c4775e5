// Card data goes nowhere: a payer pays with 4242 on a server of this file's own, then the whole database
// (every table, the request log included, and on PGlite its raw files), the server's log and the request log
// are searched for the card number, and none holds it. On PostgreSQL, the card-testing limits hold across
// two server processes: they are counted in the database.
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { callApi } from "../support/api-client";
import { CARDS, card, newClientAddress, paymentWithCheckout, postCheckout } from "../support/checkout-client";
import { separateDatabase } from "../support/test-database";
import { startServerProcess, startTestServer, type TestServer } from "../support/test-server";

const NUMBER = "4242424242424242";
const SPACED = "4242 4242 4242 4242";
/** A CVC seen nowhere else in the run: it must not be stored either. */
const CVC = "739";
const leaked = (text: string) =>
  [NUMBER, SPACED, `"${CVC}"`, `cvc=${CVC}`].filter((needle) => text.includes(needle));

let server: TestServer;
let database: Awaited<ReturnType<typeof separateDatabase>> | undefined;
beforeAll(async () => {
  database = await separateDatabase("card_data");
  server = await startTestServer("card-data", Number(new URL(inject("baseUrl")).port) + 37, {
    WORKER_MODE: "inline",
    ...(database.url ? { DATABASE_URL: database.url } : {}),
  });
});
afterAll(async () => {
  await database?.drop();
});

/** Every row of every table, as text: PostgreSQL's own dump, or on PGlite each table read whole. */
async function dumpDatabase(): Promise<string> {
  if (database?.url) return execFileSync("pg_dump", ["--data-only", database.url], { encoding: "utf8" });
  const { PGlite } = await import("@electric-sql/pglite");
  const db = new PGlite(server.env.PGLITE_DATA_DIR);
  try {
    const tables = await db.query<{ name: string }>(
      "select format('%I.%I', schemaname, tablename) as name from pg_tables where schemaname not in ('pg_catalog', 'information_schema')",
    );
    let text = "";
    for (const { name } of tables.rows) {
      const rows = await db.query<{ row: string }>(`select row_to_json(t)::text as row from ${name} t`);
      text += rows.rows.map((row) => row.row).join("\n");
    }
    return text;
  } finally {
    await db.close();
  }
}

/** The raw bytes of every file under a directory (PGlite's data files and WAL). */
function rawFiles(directory: string): string {
  let text = "";
  for (const name of readdirSync(directory)) {
    const file = path.join(directory, name);
    text += statSync(file).isDirectory() ? rawFiles(file) : readFileSync(file).toString("latin1");
  }
  return text;
}

describe("card data after a payment with 4242", () => {
  it("is in no table, no raw database file, no server log line and no request log entry", async () => {
    const { id, checkoutUrl } = await paymentWithCheckout(server.baseUrl, server.data.tokens.api);
    const paid = await postCheckout(server.baseUrl, checkoutUrl, "attempts", card(SPACED, { cvc: CVC }));
    expect(paid.body.status).toBe("completed");
    // A refused attempt carries the number in its body too.
    const { checkoutUrl: other } = await paymentWithCheckout(server.baseUrl, server.data.tokens.api);
    await postCheckout(server.baseUrl, other, "attempts", card(NUMBER, { cvc: CVC, expiry: "01 / 20" }));
    const payment = await callApi(server.baseUrl, `/api/payments/${id}`, { token: server.data.tokens.api });
    expect(payment.text).toContain('"last4":"4242"');
    const logged = await callApi(server.baseUrl, "/api/request-logs?limit=100", {
      token: server.data.tokens.api,
    });
    await server.stop({ keepData: true });
    try {
      const dump = await dumpDatabase();
      expect(dump).toContain('"last4":"4242"');
      expect(leaked(dump)).toEqual([]);
      if (server.env.PGLITE_DATA_DIR) expect(leaked(rawFiles(server.env.PGLITE_DATA_DIR))).toEqual([]);
      expect(leaked(server.output())).toEqual([]);
      expect(leaked(logged.text)).toEqual([]);
    } finally {
      if (server.env.PGLITE_DATA_DIR)
        rmSync(path.dirname(server.env.PGLITE_DATA_DIR), { recursive: true, force: true });
    }
  });
});

describe.skipIf(!process.env.DATABASE_URL)("card-testing limits across two server processes", () => {
  it("attempts from one address and declines on one checkout are counted together", async () => {
    const baseUrl = inject("baseUrl");
    const { tokens } = inject("data");
    const second = await startServerProcess(
      Number(new URL(baseUrl).port) + 39,
      inject("serverEnv") as NodeJS.ProcessEnv,
    );
    try {
      const servers = [baseUrl, second.baseUrl];
      // Five refused cards, alternating processes: the checkout is locked on both.
      const { checkoutUrl } = await paymentWithCheckout(baseUrl, tokens.api);
      const path = new URL(checkoutUrl).pathname;
      for (let index = 0; index < 5; index++) {
        const at = servers[index % 2]!;
        expect((await postCheckout(at, `${at}${path}`, "attempts", card(CARDS.real))).status).toBe(422);
      }
      for (const at of servers)
        expect((await postCheckout(at, `${at}${path}`, "attempts", card(CARDS.success))).body).toEqual({
          message: "Too many attempts.",
        });
      // Twenty refused card numbers from one address (four on each of five checkouts, so none is locked),
      // alternating processes: then that address is refused by either, even with a test card, and another
      // address is not.
      const ip = newClientAddress();
      const checkouts = await Promise.all(
        Array.from({ length: 5 }, () => paymentWithCheckout(baseUrl, tokens.api)),
      );
      for (let index = 0; index < 20; index++) {
        const at = servers[index % 2]!;
        const each = new URL(checkouts[Math.floor(index / 4)]!.checkoutUrl).pathname;
        expect((await postCheckout(at, `${at}${each}`, "attempts", card(CARDS.real), { ip })).status).toBe(
          422,
        );
      }
      const fresh = await paymentWithCheckout(baseUrl, tokens.api);
      const freshPath = new URL(fresh.checkoutUrl).pathname;
      for (const at of servers)
        expect(
          (await postCheckout(at, `${at}${freshPath}`, "attempts", card(CARDS.success), { ip })).status,
        ).toBe(429);
      expect((await postCheckout(baseUrl, fresh.checkoutUrl, "attempts", card(CARDS.success))).status).toBe(
        200,
      );
    } finally {
      await second.stop();
    }
  });
});
