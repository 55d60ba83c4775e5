import "server-only";
import { createHash } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { selectRows, type Executor, type Transaction } from "@/db/client";
import { isIdempotencyKeyReused } from "@/db/errors";
import { idempotencyKeys } from "@/db/schema";
import { DomainError } from "@/lib/platform/errors";

/** The 409 for an Idempotency-Key sent again with another body. */
export const IDEMPOTENCY_KEY_REUSED = "This Idempotency-Key was already used with a different request body.";

/** How long a key is remembered (the contract's 24 hours). */
const KEY_LIFETIME_MS = 24 * 60 * 60 * 1000;

/**
 * The time before which a key is free to reuse, as an ISO value: a value, not now(), since Citus takes only
 * immutable functions in an upsert's DO UPDATE. The write functions (create_payment, create_refund) take it too.
 */
export function keyCutoff(): string {
  return new Date(Date.now() - KEY_LIFETIME_MS).toISOString();
}

/**
 * What a key's request answered with: a payment, a refund or a payout in a column of its own (a creation, or
 * a cancel of one); a dispute (evidence, close), a payment link or the payout account in `resource_id`.
 */
const TARGET_FIELDS = {
  payment: "paymentId",
  refund: "refundId",
  payout: "payoutId",
  dispute: "resourceId",
  payment_link: "resourceId",
  payout_account: "resourceId",
} as const;
export type IdempotentTarget = keyof typeof TARGET_FIELDS;

/**
 * The fingerprint a replay must match: what was asked, by meaning (the validated input, its amounts as
 * `sameAmount` writes them, and the action and object it concerns), never the raw body.
 */
export function requestHash(request: unknown): string {
  return createHash("sha256").update(JSON.stringify(request)).digest("hex");
}

/** An amount numeral by value, for a request's hash: "10.5", "10.50" and "010.500" are all "10.5". */
export function sameAmount(numeral: string | undefined): string | null {
  if (numeral === undefined) return null;
  return numeral.includes(".") ? numeral.replace(/0+$/, "").replace(/\.$/, "") : numeral;
}

/**
 * Runs `create` once per Idempotency-Key of a merchant, for 24 hours: the same key with the same request
 * returns the first result's id (`replayed`), concurrent duplicates included (the second waits on the unique
 * index until the first commits); with another request, or for another kind of resource, a 409. One key space
 * per merchant, as Stripe's. The claim is the database's `claim_idempotency_key`
 * (db/functions/idempotency.sql), the one the write functions make theirs with.
 */
export async function runOnceForKey(
  db: Executor,
  merchantId: number,
  key: string,
  request: { target: IdempotentTarget; hash: string },
  create: (tx: Transaction) => Promise<number>,
): Promise<{ id: number; replayed: boolean }> {
  const field = TARGET_FIELDS[request.target];
  return db.transaction(async (tx) => {
    const [claim] = await selectRows<{ key_id: string | null; replay_id: string | null }>(
      tx,
      sql`select key_id, replay_id from claim_idempotency_key(${merchantId}::bigint, ${key}::text,
            ${request.hash}::text, ${keyCutoff()}::timestamptz, ${idempotencyKeys[field].name}::text)`,
    ).catch((error: unknown) => {
      throw isIdempotencyKeyReused(error) ? new DomainError("conflict", IDEMPOTENCY_KEY_REUSED) : error;
    });
    if (claim!.replay_id !== null) return { id: Number(claim!.replay_id), replayed: true };
    const id = await create(tx);
    await tx
      .update(idempotencyKeys)
      .set({ [field]: id })
      .where(and(eq(idempotencyKeys.merchantId, merchantId), eq(idempotencyKeys.id, Number(claim!.key_id))));
    return { id, replayed: false };
  });
}

/**
 * A state-changing request run once per Idempotency-Key (DESIGN.md, "Idempotency"): without a key, `act` runs
 * as it is; with one, inside the key's transaction, and a retry of the same request answers with the object
 * as it is now (`current`), `replayed`, instead of acting twice (a submitted evidence is not a 409 on retry).
 * A refusal thrown by `act` rolls the key back with it: the retry is judged afresh.
 */
export async function onceForKey<T extends { id: number }>(
  db: Executor,
  merchantId: number,
  key: string | undefined,
  request: { target: IdempotentTarget; hash: string },
  act: (executor: Executor) => Promise<T>,
  current: (executor: Executor, id: number) => Promise<T | undefined>,
): Promise<{ result: T; replayed: boolean }> {
  if (key === undefined) return { result: await act(db), replayed: false };
  let made: T | undefined;
  const { id, replayed } = await runOnceForKey(db, merchantId, key, request, async (tx) => {
    made = await act(tx);
    return made.id;
  });
  const result = made ?? (await current(db, id));
  if (!result) throw new DomainError("not_found", "The object this Idempotency-Key answered with is gone.");
  return { result, replayed };
}

/**
 * What a key already answered, read before work outside the database (a processor's payment): the payment a
 * same request made (a replay, nothing more to make); a 409 for another request; undefined when the key is
 * free or its first request is still under way (the processor's own idempotency and the claim then decide).
 */
export async function paymentMadeForKey(
  db: Executor,
  merchantId: number,
  key: string,
  hash: string,
): Promise<number | undefined> {
  const [used] = await selectRows<{ payment_id: number | string | null; request_hash: string }>(
    db,
    sql`select payment_id, request_hash from idempotency_keys
        where merchant_id = ${merchantId} and key = ${key} and created_at >= ${keyCutoff()}::timestamptz`,
  );
  if (!used || used.payment_id === null) return undefined;
  if (used.request_hash !== hash) throw new DomainError("conflict", IDEMPOTENCY_KEY_REUSED);
  return Number(used.payment_id);
}
