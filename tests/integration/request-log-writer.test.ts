import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { selectRows } from "@/db/client";
import { flushRequestLog, recordApiRequest, startRequestLogWriter } from "@/lib/logs/request-log";
import { metricsRegistry } from "@/lib/platform/metrics";
import { db } from "../support/direct-db";

// The writer runs in this process against a real database (PGlite of its own, or the PostgreSQL DATABASE_URL
// names). A statement trigger refuses the batches that carry a test's marker the first `refusals` times,
// with the SQLSTATE the test chooses: a sequence counts the tries, as it is not rolled back with them.
beforeAll(async () => {
  await db.execute(sql`create table if not exists test_log_refusals (
      marker text primary key, refusals int not null, code text not null)`);
  await db.execute(sql`create or replace function test_refuse_log_batch() returns trigger language plpgsql as $$
    declare rule record;
    begin
      for rule in select * from test_log_refusals r
                  where exists (select 1 from inserted where path like '%' || r.marker || '%') loop
        if nextval(rule.marker) <= rule.refusals then
          raise exception 'refused for the test' using errcode = rule.code;
        end if;
      end loop;
      return null;
    end $$`);
  await db.execute(sql`drop trigger if exists test_refuse_log_batch on api_request_logs`);
  await db.execute(sql`create trigger test_refuse_log_batch after insert on api_request_logs
    referencing new table as inserted for each statement execute function test_refuse_log_batch()`);
});
const markers: string[] = [];
afterAll(async () => {
  await db.execute(sql`drop trigger if exists test_refuse_log_batch on api_request_logs`);
  await db.execute(sql`drop function if exists test_refuse_log_batch()`);
  await db.execute(sql`drop table if exists test_log_refusals`);
  for (const marker of markers) await db.execute(sql`drop sequence ${sql.identifier(marker)}`);
});

/** A marker whose batches the database refuses `refusals` times with SQLSTATE `code`. */
async function refuse(refusals: number, code: string): Promise<string> {
  const marker = `log_${randomBytes(5).toString("hex")}`;
  await db.execute(sql`create sequence ${sql.identifier(marker)}`);
  markers.push(marker);
  await db.execute(sql`insert into test_log_refusals values (${marker}, ${refusals}, ${code})`);
  return marker;
}

function record(marker: string, count: number): void {
  for (let index = 0; index < count; index++)
    recordApiRequest({
      merchantId: 1,
      tokenId: 1,
      requestId: `req_${marker}_${index}`,
      method: "GET",
      path: `/api/payments?test=${marker}`,
      status: 200,
      latencyMs: 1.5,
      clientIp: "192.0.2.1",
      idempotencyKey: null,
      responseBody: null,
      createdAtMs: Date.now(),
    });
}

const written = async (marker: string) =>
  Number(
    (
      await selectRows<{ n: number | string }>(
        db,
        sql`select count(*) as n from api_request_logs where path = ${`/api/payments?test=${marker}`}`,
      )
    )[0]!.n,
  );

/** `api_request_log_dropped_total` by reason, as /metrics serves it. */
async function droppedTotals(): Promise<Record<string, number>> {
  const text = await metricsRegistry.getSingleMetricAsString("api_request_log_dropped_total");
  return Object.fromEntries(
    [...text.matchAll(/^api_request_log_dropped_total\{reason="(\w+)"\} (\d+)$/gm)].map(([, reason, n]) => [
      reason!,
      Number(n),
    ]),
  );
}

/** What a stopping web process does: the writer's stop, from its background services. */
const stopWriter = async () => (await startRequestLogWriter())();

const diff = (after: Record<string, number>, before: Record<string, number>) =>
  Object.fromEntries(Object.entries(after).map(([reason, n]) => [reason, n - (before[reason] ?? 0)]));
const NOTHING_DROPPED = { buffer_full: 0, refused: 0, stopped: 0 };

describe("the request log's writer when a batch fails", () => {
  it.each([
    // SQLSTATE 57P01: the server is shutting down (a restart); P0001: any error a database answers with.
    ["refused once", 1, "P0001", 2, 5, NOTHING_DROPPED],
    ["refused twice, written at the third try", 2, "P0001", 3, 5, NOTHING_DROPPED],
    ["unreachable for 6 tries (a restart): tried for as long as it lasts", 6, "57P01", 7, 5, NOTHING_DROPPED],
    [
      "refused for good: dropped after 3 tries, and counted",
      1_000,
      "P0001",
      4,
      0,
      { ...NOTHING_DROPPED, refused: 5 },
    ],
  ] as const)("%s", async (_name, refusals, code, flushes, expectedWritten, expectedDropped) => {
    const marker = await refuse(refusals, code);
    const before = await droppedTotals();
    record(marker, 5);
    for (let flush = 0; flush < flushes; flush++) await flushRequestLog();
    expect(await written(marker)).toBe(expectedWritten);
    expect(diff(await droppedTotals(), before)).toEqual(expectedDropped);
  });

  it("a batch refused for good does not hold back the entries recorded after it", async () => {
    const refused = await refuse(1_000, "P0001");
    const fine = await refuse(0, "P0001");
    record(refused, 3);
    await flushRequestLog();
    record(fine, 4);
    for (let flush = 0; flush < 4; flush++) await flushRequestLog();
    expect([await written(refused), await written(fine)]).toEqual([0, 4]);
  });

  it("keeps at most 20,000 entries while the database is unreachable, counts the rest, then writes what it kept", async () => {
    const marker = await refuse(1_000_000, "57P01");
    const before = await droppedTotals();
    record(marker, 20_005);
    await flushRequestLog();
    expect(diff(await droppedTotals(), before)).toEqual({ ...NOTHING_DROPPED, buffer_full: 5 });
    await db.execute(sql`update test_log_refusals set refusals = 0 where marker = ${marker}`);
    // At stop the writer writes everything it holds.
    await stopWriter();
    expect(await written(marker)).toBe(20_000);
    expect(diff(await droppedTotals(), before)).toEqual({ ...NOTHING_DROPPED, buffer_full: 5 });
  });

  it("counts what a stopping process could not write", async () => {
    const marker = await refuse(1_000_000, "57P01");
    const before = await droppedTotals();
    record(marker, 7);
    await stopWriter();
    expect(diff(await droppedTotals(), before)).toEqual({ ...NOTHING_DROPPED, stopped: 7 });
    // Given up on: a later write (were the process to go on) does not write them after all.
    await db.execute(sql`update test_log_refusals set refusals = 0 where marker = ${marker}`);
    await flushRequestLog();
    expect(await written(marker)).toBe(0);
  });
});
