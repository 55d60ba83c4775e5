// The Overview's 429 notice (lib/tokens/rate-limited.ts) against the database: it shows while a key's run of
// 429s lasts, goes once the merchant's limit is raised or 24 hours pass without a 429, can be dismissed for
// the team (the key's next run shows it again), and never crosses merchants. The state is in the database.
import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { selectRows } from "@/db/client";
import { createMerchantWithOwner } from "@/lib/accounts/accounts";
import { setMerchantRateLimit } from "@/lib/accounts/merchants";
import { dismissRateLimitNotice, noteRateLimited, rateLimitNotice } from "@/lib/tokens/rate-limited";
import { createApiToken } from "@/lib/tokens/tokens";
import { db } from "../support/direct-db";

const DEFAULT_PER_MINUTE = 30;

async function limitedKey() {
  const merchant = await createMerchantWithOwner(db, {
    name: "Notice",
    email: `notice-${Date.now()}-${randomBytes(3).toString("hex")}@example.test`,
    password: "notice password 123",
  });
  const token = await createApiToken(db, merchant.merchantId, { name: "busy key" });
  return { merchantId: merchant.merchantId, tokenId: token.id };
}

const notice = (merchantId: number) => rateLimitNotice(db, merchantId, DEFAULT_PER_MINUTE);

let clockShift = 0;

/** A 429 as the API records it (after its answer): waits for the write. */
async function hitLimit(merchantId: number, tokenId: number, perMinute = DEFAULT_PER_MINUTE) {
  // The API skips a write within a minute of the last; a test moves the last one back instead of waiting.
  await shiftBack(tokenId, 61_000);
  const before = await lastLimited(tokenId);
  // The process skips a note within a minute of its last: its clock reads a minute on for each call.
  clockShift += 61_000;
  const clock = vi.spyOn(Date, "now").mockReturnValue(Date.now() + clockShift);
  try {
    noteRateLimited(db, merchantId, tokenId, perMinute);
  } finally {
    clock.mockRestore();
  }
  await expect.poll(() => lastLimited(tokenId)).not.toBe(before);
}

async function lastLimited(tokenId: number) {
  const [row] = await selectRows<{ at: string | null }>(
    db,
    sql`select last_limited_at::text as at from api_tokens where id = ${tokenId}`,
  );
  return row?.at ?? null;
}

/**
 * Moves a key's 429s `ms` back in time. The new times are computed here and written as values: Citus refuses
 * an UPDATE that computes a time from the column it sets.
 */
async function shiftBack(tokenId: number, ms: number) {
  const [row] = await selectRows<{ last: number | null; since: number | null }>(
    db,
    sql`select extract(epoch from last_limited_at)::float8 as last, extract(epoch from limited_since)::float8 as since
        from api_tokens where id = ${tokenId}`,
  );
  const moved = (epoch: number | null) =>
    epoch === null ? null : new Date(Number(epoch) * 1000 - ms).toISOString();
  await selectRows(
    db,
    sql`update api_tokens set last_limited_at = ${moved(row!.last)}::timestamptz,
          limited_since = ${moved(row!.since)}::timestamptz
        where id = ${tokenId}`,
  );
}

/** As if `hours` had passed since the key's 429s. */
const ageBy = (tokenId: number, hours: number) => shiftBack(tokenId, hours * 3_600_000);

describe("the Overview's 429 notice", () => {
  it("shows after a 429, names the key, and goes after 24 hours without one", async () => {
    const { merchantId, tokenId } = await limitedKey();
    expect(await notice(merchantId)).toBeNull();
    await hitLimit(merchantId, tokenId);
    expect(await notice(merchantId)).toMatchObject({ tokenId, name: "busy key" });
    await ageBy(tokenId, 23);
    expect(await notice(merchantId)).not.toBeNull();
    await ageBy(tokenId, 1.1);
    expect(await notice(merchantId)).toBeNull();
    // A new run of 429s starts the notice again, from its own start.
    await hitLimit(merchantId, tokenId);
    const again = await notice(merchantId);
    expect(Date.now() - again!.limitedSince.getTime()).toBeLessThan(60_000);
  });

  it("goes once the merchant's limit is raised, and comes back when the new limit is hit", async () => {
    const { merchantId, tokenId } = await limitedKey();
    await hitLimit(merchantId, tokenId);
    expect(await notice(merchantId)).not.toBeNull();
    await setMerchantRateLimit(db, merchantId, { per_minute: 100 });
    expect(await notice(merchantId)).toBeNull();
    await hitLimit(merchantId, tokenId, 100);
    expect(await notice(merchantId)).toMatchObject({ tokenId });
  });

  it("dismissed, stays gone through more 429s of the same run; the next run shows it", async () => {
    const { merchantId, tokenId } = await limitedKey();
    await hitLimit(merchantId, tokenId);
    await dismissRateLimitNotice(db, merchantId, tokenId);
    expect(await notice(merchantId)).toBeNull();
    await hitLimit(merchantId, tokenId);
    expect(await notice(merchantId)).toBeNull();
    await ageBy(tokenId, 25);
    await hitLimit(merchantId, tokenId);
    expect(await notice(merchantId)).toMatchObject({ tokenId });
  });

  it("another merchant's key can be neither seen nor dismissed", async () => {
    const mine = await limitedKey();
    const theirs = await limitedKey();
    await hitLimit(theirs.merchantId, theirs.tokenId);
    expect(await notice(mine.merchantId)).toBeNull();
    await expect(dismissRateLimitNotice(db, mine.merchantId, theirs.tokenId)).rejects.toMatchObject({
      kind: "not_found",
    });
    expect(await notice(theirs.merchantId)).toMatchObject({ tokenId: theirs.tokenId });
  });
});
