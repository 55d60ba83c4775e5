import { randomUUID } from "node:crypto";
import { describe, expect, inject, it } from "vitest";
import { callApi, paymentTotal } from "../support/api-client";
import { startServerProcess } from "../support/test-server";

const baseUrl = inject("baseUrl");
const serverEnv = inject("serverEnv");
const { tokens } = inject("data");

describe("Idempotency-Key", () => {
  it("gives one payment for concurrent duplicates and replays the first response", async () => {
    const key = randomUUID();
    const before = await paymentTotal(baseUrl, tokens.idempotency);
    const body = { amount: "42.10", external_id: `idem_${key}` };
    const responses = await Promise.all(
      Array.from({ length: 10 }, () =>
        callApi(baseUrl, "/api/payments", {
          token: tokens.idempotency,
          json: body,
          headers: { "Idempotency-Key": key },
        }),
      ),
    );
    expect(responses.map((response) => response.status)).toEqual(Array(10).fill(201));
    expect(new Set(responses.map((response) => response.headers.get("location"))).size).toBe(1);
    expect(
      responses.filter((response) => response.headers.get("idempotent-replayed") === "true"),
    ).toHaveLength(9);
    expect(
      responses.every(
        (response) => JSON.stringify(response.body) === '{"message":"Payment created successfully"}',
      ),
    ).toBe(true);
    expect(await paymentTotal(baseUrl, tokens.idempotency)).toBe(before + 1);

    // The same body written differently is the same request.
    const replay = await callApi(baseUrl, "/api/payments", {
      token: tokens.idempotency,
      raw: `{ "external_id": "idem_${key}", "amount": 42.1 }`,
      headers: { "Idempotency-Key": key },
    });
    expect(replay.status).toBe(201);
    expect(replay.headers.get("location")).toBe(responses[0]!.headers.get("location"));
  });

  it("refuses the same key with another body with 409 and writes nothing", async () => {
    const key = randomUUID();
    expect(
      (
        await callApi(baseUrl, "/api/payments", {
          token: tokens.idempotency,
          json: { amount: 1 },
          headers: { "Idempotency-Key": key },
        })
      ).status,
    ).toBe(201);
    const before = await paymentTotal(baseUrl, tokens.idempotency);
    const conflict = await callApi(baseUrl, "/api/payments", {
      token: tokens.idempotency,
      json: { amount: 2 },
      headers: { "Idempotency-Key": key },
    });
    expect(conflict.status).toBe(409);
    expect(conflict.body).toEqual({
      message: "This Idempotency-Key was already used with a different request body.",
    });
    expect(await paymentTotal(baseUrl, tokens.idempotency)).toBe(before);
  });

  it("scopes keys per merchant", async () => {
    const key = randomUUID();
    const mine = await callApi(baseUrl, "/api/payments", {
      token: tokens.idempotency,
      json: { amount: 1 },
      headers: { "Idempotency-Key": key },
    });
    const theirs = await callApi(baseUrl, "/api/payments", {
      token: tokens.other,
      json: { amount: 1 },
      headers: { "Idempotency-Key": key },
    });
    expect(theirs.status).toBe(201);
    expect(theirs.headers.get("location")).not.toBe(mine.headers.get("location"));
  });
});

async function burst(urls: string[], token: string) {
  const responses = await Promise.all(urls.map((url) => callApi(url, "/api/payments?perPage=1", { token })));
  const accepted = responses.filter((response) => response.status === 200);
  const limited = responses.filter((response) => response.status === 429);
  return { responses, accepted, limited };
}

describe("rate limit: 30 a minute per token, counted in the database", () => {
  it("accepts exactly 30 of 40 concurrent requests; the rest get 429 with Retry-After", async () => {
    const { responses, accepted, limited } = await burst(Array<string>(40).fill(baseUrl), tokens.rateLimit);
    expect(accepted).toHaveLength(30);
    expect(limited).toHaveLength(10);
    for (const response of limited) {
      expect(response.body).toEqual({ message: "Too Many Attempts." });
      expect(Number(response.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      expect(response.headers.get("x-ratelimit-remaining")).toBe("0");
      expect(response.headers.get("x-request-id")).toMatch(/^req_/);
    }
    for (const response of responses) expect(response.headers.get("x-ratelimit-limit")).toBe("30");
    const remaining = accepted
      .map((response) => Number(response.headers.get("x-ratelimit-remaining")))
      .sort((a, b) => a - b);
    // Counted down from 29 to 0 (requests landing a moment later may see the same figure: the bucket refills
    // continuously, one request every 2 s).
    expect(remaining[0]).toBe(0);
    expect(remaining.at(-1)).toBe(29);
    expect(remaining.every((value) => value >= 0 && value <= 29)).toBe(true);
  });

  it.skipIf(!process.env.DATABASE_URL)("records the key's first 429 once, for the dashboard", async () => {
    const { db } = await import("../support/direct-db");
    const { selectRows } = await import("@/db/client");
    const { hashToken } = await import("@/lib/tokens/format");
    const { sql } = await import("drizzle-orm");
    const firstLimited = async () =>
      (
        await selectRows<{ at: string | null }>(
          db,
          sql`select first_limited_at::text as at from api_tokens where token_hash = ${hashToken(tokens.rateLimit)}`,
        )
      )[0]?.at;
    // Written after the answer: a moment later.
    await expect.poll(firstLimited, { timeout: 10_000 }).not.toBeNull();
    const first = await firstLimited();
    // The bucket refills one request every 2 s, and a loaded machine may take seconds to get here: a burst
    // larger than any refill is sure to be limited again.
    const { limited } = await burst(Array<string>(20).fill(baseUrl), tokens.rateLimit);
    expect(limited.length).toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await firstLimited()).toBe(first);
  });

  it.skipIf(!process.env.DATABASE_URL)("shares one count across two server processes", async () => {
    const second = await startServerProcess(
      Number(new URL(baseUrl).port) + 1,
      serverEnv as NodeJS.ProcessEnv,
    );
    try {
      const { accepted, limited } = await burst(
        [...Array<string>(20).fill(baseUrl), ...Array<string>(20).fill(second.baseUrl)],
        tokens.rateLimitShared,
      );
      expect(accepted).toHaveLength(30);
      expect(limited).toHaveLength(10);
    } finally {
      await second.stop();
    }
  });
});
