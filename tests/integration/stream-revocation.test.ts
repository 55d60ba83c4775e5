// An event stream ends with its key: revoked, expired, rolled past its grace, or deleted with its merchant,
// it sends no event written after that, and it ends within one heartbeat (15 s) even when no event comes.
// A key revoked with its stream open once kept streaming for 203 s (22 more events), its lease renewed.
// The key is changed straight in the database, where the suite's server reads it: PostgreSQL (on PGlite
// the server holds the database alone; e2e/api-keys.spec.ts revokes a streaming key from the dashboard).
import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterEach, describe, expect, inject, it } from "vitest";
import { selectRows } from "@/db/client";
import { createMerchantWithOwner } from "@/lib/accounts/accounts";
import { createApiToken, revokeApiToken, rollApiToken } from "@/lib/tokens/tokens";
import { callApi } from "../support/api-client";
import { openSse, type OpenedSse } from "../support/sse-client";

const baseUrl = inject("baseUrl");
const postgres = Boolean(process.env.DATABASE_URL);
const { db } = postgres ? await import("../support/direct-db") : { db: undefined };
const opened: OpenedSse[] = [];
afterEach(() => {
  for (const stream of opened.splice(0)) stream.close();
});

/** A merchant with a key that streams and another that writes payments. */
async function streamingMerchant() {
  const { merchantId } = await createMerchantWithOwner(db!, {
    name: "Streams",
    email: `streams-${randomBytes(5).toString("hex")}@example.test`,
    password: "long enough pw",
  });
  const streaming = await createApiToken(db!, merchantId, { name: "Listener", scope: "read" });
  const writer = await createApiToken(db!, merchantId, { name: "Backend" });
  const stream = await openSse(`${baseUrl}/api/events/stream`, streaming.token);
  opened.push(stream);
  expect(stream.status).toBe(200);
  const create = async () => {
    const created = await callApi(baseUrl, "/api/payments", {
      token: writer.token,
      json: { amount: "2.00" },
    });
    expect(created.status).toBe(201);
    return Number(created.headers.get("location")!.split("/").at(-1));
  };
  // The stream works before the key changes.
  const first = await create();
  await stream.waitFor((events) => events.some((event) => event.data.includes(`"id":${first}`)));
  return { merchantId, tokenId: streaming.id, stream, create };
}

/** Whether a promise settles within `ms`. */
const settlesWithin = (promise: Promise<unknown>, ms: number) =>
  Promise.race([promise.then(() => true), new Promise<boolean>((resolve) => setTimeout(resolve, ms, false))]);

const changes: Array<[string, (merchantId: number, tokenId: number) => Promise<unknown>]> = [
  ["revoked", (merchantId, tokenId) => revokeApiToken(db!, merchantId, tokenId)],
  [
    "expired",
    (_merchantId, tokenId) =>
      db!.execute(sql`update api_tokens set expires_at = now() where id = ${tokenId}`),
  ],
  [
    "rolled, its grace over",
    async (merchantId, tokenId) => {
      await rollApiToken(db!, merchantId, tokenId, { grace: "1h" });
      // The hour passes.
      await db!.execute(sql`update api_tokens set revoked_at = now() where id = ${tokenId}`);
    },
  ],
  [
    "deleted with its merchant",
    (merchantId) => db!.execute(sql`delete from merchants where id = ${merchantId}`),
  ],
];

describe.skipIf(!postgres)("a stream whose key stops authenticating", () => {
  it.each(changes.slice(0, 3))("%s: ends, with none of the events written after", async (_name, change) => {
    const { merchantId, tokenId, stream, create } = await streamingMerchant();
    await change(merchantId, tokenId);
    const after = [await create(), await create(), await create()];
    expect(await settlesWithin(stream.ended, 20_000)).toBe(true);
    const sent = stream.events.map((event) => event.data);
    for (const id of after) expect(sent.some((data) => data.includes(`"id":${id}`))).toBe(false);
  });

  it("deleted with its merchant: ends at the next lease renewal (no event comes)", async () => {
    const { merchantId, tokenId, stream } = await streamingMerchant();
    const [, change] = changes[3]!;
    await change(merchantId, tokenId);
    // One heartbeat (15 s) re-checks the key; the margin is for a loaded machine.
    expect(await settlesWithin(stream.ended, 25_000)).toBe(true);
  });

  it("revoked while idle: the lease renewal ends it, and frees its slot", async () => {
    const { merchantId, tokenId, stream } = await streamingMerchant();
    await revokeApiToken(db!, merchantId, tokenId);
    expect(await settlesWithin(stream.ended, 25_000)).toBe(true);
    // The lease is deleted as the stream closes, beside the end of the response: free within a second.
    const leases = async () =>
      (
        await selectRows<{ count: number }>(
          db!,
          sql`select count(*)::int as count from event_stream_leases where token_id = ${tokenId}`,
        )
      )[0]!.count;
    await expect.poll(leases, { timeout: 5_000, interval: 100 }).toBe(0);
  });
});
