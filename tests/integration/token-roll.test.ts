import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { createMerchantWithOwner } from "@/lib/accounts/accounts";
import type { DomainError } from "@/lib/platform/errors";
import { createApiToken, listApiTokens, rollApiToken } from "@/lib/tokens/tokens";
import { db } from "../support/direct-db";

async function merchantWithToken() {
  const { merchantId } = await createMerchantWithOwner(db, {
    name: "Roll",
    email: `roll-${randomBytes(5).toString("hex")}@example.test`,
    password: "long enough pw",
  });
  const token = await createApiToken(db, merchantId, { name: "Backend" });
  return { merchantId, tokenId: token.id };
}

describe("rollApiToken", () => {
  it("marks the old key as replaced, and refuses to roll it a second time", async () => {
    const { merchantId, tokenId } = await merchantWithToken();
    const rolled = await rollApiToken(db, merchantId, tokenId, { grace: "24h" });
    const [replacement, old] = await listApiTokens(db, merchantId);
    expect(old).toMatchObject({ id: tokenId, status: "active", replacedBy: { id: rolled.id } });
    expect(replacement).toMatchObject({ id: rolled.id, status: "active", replacedBy: null });
    await expect(rollApiToken(db, merchantId, tokenId, { grace: "24h" })).rejects.toThrow(
      `API token ${tokenId} was already rolled; roll its replacement instead.`,
    );
    expect(await listApiTokens(db, merchantId)).toHaveLength(2);
  });

  it("lets exactly one of several concurrent rolls of one key through", async () => {
    const { merchantId, tokenId } = await merchantWithToken();
    const results = await Promise.allSettled(
      Array.from({ length: 6 }, () => rollApiToken(db, merchantId, tokenId, { grace: "1h" })),
    );
    expect(results.filter((result) => result.status === "fulfilled")).toHaveLength(1);
    for (const result of results) {
      if (result.status === "rejected") expect((result.reason as DomainError).kind).toBe("conflict");
    }
    expect(await listApiTokens(db, merchantId)).toHaveLength(2);
  });
});
