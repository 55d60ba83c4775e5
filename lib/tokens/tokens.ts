import "server-only";
import { and, desc, eq, sql } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { ACCOUNT_KEY_SCOPE, type KeyScope } from "@/db/enums";
import { apiTokens, merchants } from "@/db/schema";
import { DomainError } from "@/lib/platform/errors";
import { parseInput } from "@/lib/platform/validation";
import {
  OPERATOR,
  recordSecurityEvent,
  recorded,
  remedyFor,
  tokenLabel,
  type SecurityActor,
} from "@/lib/security/history";
import { mailOwners } from "@/lib/security/owner-mail";
import { generateToken, hashToken, tokenDisplayHint } from "./format";
import { createTokenSchema, ROLL_GRACE_CHOICES, rollTokenSchema, scopeList } from "./schemas";

export type TokenStatus = "active" | "expired" | "revoked";

export type ApiTokenSummary = {
  id: number;
  name: string;
  displayHint: string;
  scope: KeyScope;
  /** Carries the `payout_account` scope too. */
  payoutAccount: boolean;
  /** Who made it: a member's email, `operator`, or null for a key made before that was kept. */
  createdBy: string | null;
  createdAt: Date;
  lastUsedAt: Date | null;
  expiresAt: Date | null;
  revokedAt: Date | null;
  /** Its first 429 (rate limited), if it ever had one. */
  firstLimitedAt: Date | null;
  status: TokenStatus;
  /** The token a roll issued in this one's place; this one stops at `revokedAt`. */
  replacedBy: { id: number; displayHint: string } | null;
};

/** Returned once, at creation: the only time the plaintext exists outside the merchant's hands. */
export type CreatedApiToken = {
  id: number;
  name: string;
  scope: KeyScope;
  payoutAccount: boolean;
  token: string;
  expiresAt: Date | null;
};

export function tokenStatus(
  token: { revokedAt: Date | null; expiresAt: Date | null },
  now = new Date(),
): TokenStatus {
  if (token.revokedAt && token.revokedAt <= now) return "revoked";
  if (token.expiresAt && token.expiresAt <= now) return "expired";
  return "active";
}

/** What a list of keys calls each one: a key rolled and still in its grace period is "rolled". */
export function tokenState(token: ApiTokenSummary): TokenStatus | "rolled" {
  return token.status === "active" && token.replacedBy ? "rolled" : token.status;
}

/** A new key in its merchant's environment, its prefix saying which (`pay_live_`, `pay_test_`, `pay_acct_`). */
export async function insertToken(
  db: Executor,
  values: {
    merchantId: number;
    name: string;
    scope: KeyScope;
    payoutAccount: boolean;
    createdBy: string | null;
    expiresAt: Date | null;
    rolledFromId?: number;
  },
): Promise<CreatedApiToken> {
  const [merchant] = await db
    .select({ environment: merchants.environment })
    .from(merchants)
    .where(eq(merchants.id, values.merchantId));
  const token = generateToken(values.scope === ACCOUNT_KEY_SCOPE ? "account" : merchant!.environment);
  const [row] = await db
    .insert(apiTokens)
    .values({ ...values, tokenHash: hashToken(token), displayHint: tokenDisplayHint(token) })
    .returning({ id: apiTokens.id });
  const { name, scope, payoutAccount, expiresAt } = values;
  return { id: row!.id, name, scope, payoutAccount, token, expiresAt };
}

/** Who makes a key: their name for the key's records, and whether they may grant `payout_account` (owners). */
export type TokenMaker = { createdBy: string | null; mayGrantPayoutAccount: boolean };

/**
 * The maker when none is named: an operator's command or a seed (no actor, or OPERATOR) may grant every scope;
 * anyone else named only by `by` may not.
 */
const makerOf = (by: SecurityActor | undefined): TokenMaker => ({
  createdBy: by?.actor ?? null,
  mayGrantPayoutAccount: by === undefined || by.actor === OPERATOR.actor,
});

const payoutAccountRefused = () =>
  new DomainError("forbidden", "Only an owner can make a key with the payout_account scope.");

/**
 * A new token, recorded as made by `maker`; with `by`, recorded in the security history in the same
 * transaction. A key with `payout_account` from anyone but an owner (or an operator) is refused.
 */
export async function createApiToken(
  db: Executor,
  merchantId: number,
  input: unknown,
  by?: SecurityActor,
  maker: TokenMaker = makerOf(by),
): Promise<CreatedApiToken> {
  const { name, scope: scopes, expires_in_days } = parseInput(createTokenSchema, input);
  if (scopes.payoutAccount && !maker.mayGrantPayoutAccount) throw payoutAccountRefused();
  const expiresAt = expires_in_days ? new Date(Date.now() + expires_in_days * 86_400_000) : null;
  return recorded(
    db,
    merchantId,
    by,
    "api_token.created",
    (tx) => insertToken(tx, { merchantId, name, ...scopes, createdBy: maker.createdBy, expiresAt }),
    (created) =>
      `${tokenLabel({ name, displayHint: tokenDisplayHint(created.token) })}, ${scopeList(scopes)}`,
  );
}

export async function listApiTokens(db: Executor, merchantId: number): Promise<ApiTokenSummary[]> {
  const rows = await db
    .select({
      id: apiTokens.id,
      name: apiTokens.name,
      displayHint: apiTokens.displayHint,
      scope: apiTokens.scope,
      payoutAccount: apiTokens.payoutAccount,
      createdBy: apiTokens.createdBy,
      createdAt: apiTokens.createdAt,
      lastUsedAt: apiTokens.lastUsedAt,
      expiresAt: apiTokens.expiresAt,
      revokedAt: apiTokens.revokedAt,
      firstLimitedAt: apiTokens.firstLimitedAt,
      rolledFromId: apiTokens.rolledFromId,
    })
    .from(apiTokens)
    .where(eq(apiTokens.merchantId, merchantId))
    .orderBy(desc(apiTokens.createdAt), desc(apiTokens.id));
  const now = new Date();
  const successors = new Map(
    rows.filter((row) => row.rolledFromId !== null).map((row) => [row.rolledFromId, row]),
  );
  return rows.map(({ rolledFromId: _rolledFromId, ...row }) => {
    const successor = successors.get(row.id);
    return {
      ...row,
      status: tokenStatus(row, now),
      replacedBy: successor ? { id: successor.id, displayHint: successor.displayHint } : null,
    };
  });
}

/** The token, locked for the rest of the transaction (so two rolls of one token cannot both pass), if active. */
async function findActiveToken(db: Executor, merchantId: number, tokenId: number) {
  const [token] = await db
    .select({
      id: apiTokens.id,
      name: apiTokens.name,
      displayHint: apiTokens.displayHint,
      scope: apiTokens.scope,
      payoutAccount: apiTokens.payoutAccount,
      expiresAt: apiTokens.expiresAt,
      revokedAt: apiTokens.revokedAt,
    })
    .from(apiTokens)
    .where(and(eq(apiTokens.id, tokenId), eq(apiTokens.merchantId, merchantId)))
    .limit(1)
    .for("update");
  if (!token) throw new DomainError("not_found", `API token ${tokenId} was not found.`);
  const status = tokenStatus(token);
  if (status !== "active") throw new DomainError("conflict", `API token ${tokenId} is already ${status}.`);
  return token;
}

/**
 * Revokes a token; the very next request with it gets 401 (auth reads revoked_at on every request). In one
 * transaction, so the row lock holds from the check to the update (and its record, with `by`).
 */
export async function revokeApiToken(
  db: Executor,
  merchantId: number,
  tokenId: number,
  by?: SecurityActor,
): Promise<{ id: number; name: string; displayHint: string; revokedAt: Date }> {
  return db.transaction(async (tx) => {
    const { name, displayHint } = await findActiveToken(tx, merchantId, tokenId);
    const [row] = await tx
      .update(apiTokens)
      .set({ revokedAt: sql`now()` })
      .where(and(eq(apiTokens.id, tokenId), eq(apiTokens.merchantId, merchantId)))
      .returning({ revokedAt: apiTokens.revokedAt });
    if (by)
      await recordSecurityEvent(tx, merchantId, by, "api_token.revoked", tokenLabel({ name, displayHint }));
    return { id: tokenId, name, displayHint, revokedAt: row!.revokedAt! };
  });
}

/**
 * Issues a new token with the same name, scopes and expiry, made by `maker`, and schedules the old one's
 * revocation after the chosen grace period, so a deploy can switch tokens without a window of failures. Only
 * an owner rolls a key with `payout_account`: a roll must not hand that scope to someone who could not grant it.
 */
export async function rollApiToken(
  db: Executor,
  merchantId: number,
  tokenId: number,
  input: unknown,
  by?: SecurityActor,
  maker: TokenMaker = makerOf(by),
): Promise<CreatedApiToken & { previousRevokedAt: Date }> {
  const { grace } = parseInput(rollTokenSchema, input);
  return db.transaction(async (tx) => {
    const old = await findActiveToken(tx, merchantId, tokenId);
    if (old.payoutAccount && !maker.mayGrantPayoutAccount) throw payoutAccountRefused();
    // A revocation in the future is a roll's grace period: its replacement is the token to roll next.
    if (old.revokedAt) {
      throw new DomainError(
        "conflict",
        `API token ${tokenId} was already rolled; roll its replacement instead.`,
      );
    }
    const previousRevokedAt = new Date(Date.now() + ROLL_GRACE_CHOICES[grace].seconds * 1000);
    await tx
      .update(apiTokens)
      .set({ revokedAt: previousRevokedAt })
      .where(and(eq(apiTokens.id, tokenId), eq(apiTokens.merchantId, merchantId)));
    const created = await insertToken(tx, {
      merchantId,
      name: old.name,
      scope: old.scope,
      payoutAccount: old.payoutAccount,
      createdBy: maker.createdBy,
      expiresAt: old.expiresAt,
      rolledFromId: old.id,
    });
    if (by)
      await recordSecurityEvent(
        tx,
        merchantId,
        by,
        "api_token.rolled",
        `${tokenLabel(old)} → ${tokenDisplayHint(created.token)}, the old key revoked at ${previousRevokedAt.toISOString()}`,
      );
    return { ...created, previousRevokedAt };
  });
}

/** The active keys made in the last `hours`: what to look at after a password change (a thief's key, maybe). */
export async function listRecentApiTokens(
  db: Executor,
  merchantId: number,
  hours = 24,
): Promise<Array<Pick<ApiTokenSummary, "id" | "name" | "displayHint" | "createdBy" | "createdAt">>> {
  const since = new Date(Date.now() - hours * 3_600_000);
  const tokens = await listApiTokens(db, merchantId);
  return tokens
    .filter((token) => token.status === "active" && token.createdAt >= since)
    .map(({ id, name, displayHint, createdBy, createdAt }) => ({
      id,
      name,
      displayHint,
      createdBy,
      createdAt,
    }));
}

/**
 * A key that can replace the payout account was made: every owner is told who made it and how to undo it
 * (the key's revocation), once it has committed.
 */
export async function notifyOwnersOfPayoutAccountKey(
  db: Executor,
  merchantId: number,
  token: CreatedApiToken,
  by: SecurityActor,
): Promise<void> {
  const key = tokenLabel({ name: token.name, displayHint: tokenDisplayHint(token.token) });
  const from = by.ip ? `, from ${by.ip}` : "";
  await mailOwners(db, merchantId, {
    subject: "An API key that can change your payout account was made",
    text: `${by.actor}${from} made the API key ${key} with the payout_account scope: it can replace the bank account your payouts go to.\n\nIf you did not expect this: ${remedyFor({ ...by, tokenId: token.id, actor: key })}\n`,
  });
}
