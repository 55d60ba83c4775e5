import type { Executor } from "@/db/client";
import { onceMoreOnConflict } from "@/db/errors";
import { onceForKey, requestHash, type IdempotentTarget } from "@/lib/payments/idempotency";
import { validationError } from "@/lib/platform/errors";
import type { ApiRequest } from "./types";

const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

/** The optional `Idempotency-Key` header: 1 to 255 visible ASCII characters (a UUID is typical). */
export function readIdempotencyKey(request: ApiRequest): string | undefined {
  const key = request.headers.get("idempotency-key");
  if (key === null) return undefined;
  if (!KEY_PATTERN.test(key)) {
    throw validationError({
      "Idempotency-Key": [
        "The Idempotency-Key header must be 1 to 255 visible ASCII characters, such as a UUID.",
      ],
    });
  }
  return key;
}

/** The OpenAPI header parameter of a create that takes an Idempotency-Key. */
export function idempotencyKeyParameter(description: string) {
  return {
    name: "Idempotency-Key",
    in: "header" as const,
    required: false,
    description,
    schema: { type: "string" as const, maxLength: 255 },
  };
}

/**
 * A state-changing request that takes an Idempotency-Key (DESIGN.md, "Idempotency"): acted on once; a retry
 * with the same key and the same meaning answers with the object as it is now and `Idempotent-Replayed`;
 * another meaning, 409. `meaning` is what was asked after parsing (amounts by value), with the action and
 * the object it concerns, so one key never serves two actions.
 */
export async function actOnce<T extends { id: number }>(
  { db, merchantId, request }: { db: Executor; merchantId: number; request: ApiRequest },
  action: { target: IdempotentTarget; meaning: unknown },
  act: (executor: Executor) => Promise<T>,
  current: (executor: Executor, id: number) => Promise<T | undefined>,
): Promise<{ result: T; replayedHeader: Record<string, string> }> {
  const key = readIdempotencyKey(request);
  const hash = requestHash(action.meaning);
  const { result, replayed } = await onceMoreOnConflict(() =>
    onceForKey(db, merchantId, key, { target: action.target, hash }, act, current),
  );
  return { result, replayedHeader: replayed ? { "Idempotent-Replayed": "true" } : {} };
}

/** The OpenAPI header of an action (cancel, evidence, close, …) that takes an Idempotency-Key. */
export const actionKeyParameter = idempotencyKeyParameter(
  "Optional: the same key and the same request within 24 h answers with the object as it is now (Idempotent-Replayed: true) without acting again, so a retry after a timeout is safe; another request with the key, 409.",
);
