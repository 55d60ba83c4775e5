import "server-only";
import { sql, type SQL } from "drizzle-orm";
import { onCitus } from "@/db/citus";
import { selectRows, type Executor } from "@/db/client";
import type { PayoutStatus } from "@/db/enums";
import { isIdempotencyKeyReused, onceMoreOnConflict, writeRefusal } from "@/db/errors";
import { amountRefusal, inMinorUnits, maxAmount } from "@/lib/money/amount";
import { IDEMPOTENCY_KEY_REUSED, keyCutoff, requestHash, sameAmount } from "@/lib/payments/idempotency";
import { decryptSecret } from "@/lib/platform/encryption";
import { appOrigin } from "@/lib/platform/env";
import { DomainError, validationError } from "@/lib/platform/errors";
import { publicId } from "@/lib/platform/ids";
import { forEachDueMerchant } from "@/lib/platform/merchant-claims";
import { isoDate, isoTimestamp } from "@/lib/platform/timestamps";
import { messages, parseInput } from "@/lib/platform/validation";
import { REAL_TIME, type WorkClock } from "@/lib/platform/work-clock";
import { recordSecurityEvent, type SecurityActor } from "@/lib/security/history";
import { mailOwners } from "@/lib/security/owner-mail";
import { accountNeedsReplacing } from "./account";
import { CLOSED_ACCOUNT, TEST_IBANS } from "./iban";
import { createPayoutSchema, settlePayoutSchema, type Payout } from "./schemas";

export type PayoutRow = {
  merchant_id: number | string;
  id: number | string;
  amount: string;
  currency: string;
  status: PayoutStatus;
  arrival_date: Date | string;
  destination_last4: string;
  destination_closed: boolean;
  failure_reason: string | null;
  created_at: Date | string;
};

export const PAYOUT_COLUMNS = sql.raw(
  "merchant_id, id, amount, currency, status, arrival_date, " +
    "destination_last4, destination_closed, failure_reason, created_at",
);

export function toPayout(row: PayoutRow): Payout {
  return {
    id: Number(row.id),
    amount: inMinorUnits(row.amount, row.currency),
    currency: row.currency,
    status: row.status,
    arrival_date: isoDate(row.arrival_date),
    destination_last4: row.destination_last4,
    failure_reason: row.failure_reason,
    created_at: isoTimestamp(row.created_at),
  };
}

/** One of the merchant's payouts; another merchant's is none (404), as for balance transactions. */
export async function findPayout(
  db: Executor,
  merchantId: number,
  payoutId: number,
): Promise<Payout | undefined> {
  const [row] = await selectRows<PayoutRow>(
    db,
    sql`select ${PAYOUT_COLUMNS} from payouts where merchant_id = ${merchantId} and id = ${payoutId}`,
  );
  return row && toPayout(row);
}

export type CreatePayoutOptions = {
  autoSettleMs: number;
  idempotencyKey?: string;
  /** Who pays out (a member, or a key and its maker): the payout, or its refusal during a hold, is recorded. */
  by?: SecurityActor;
};

/**
 * POST /api/payouts: all that is available in the currency (or `amount` of it) to the payout account. A payout
 * of all of it carries the balance transactions it pays out (they add up to it); one of part carries none.
 * With an Idempotency-Key, a retry returns the first payout (`replayed`) instead of paying out twice. One call
 * of the database's `create_payout` (db/functions/payouts.sql), after the account's IBAN is read here (it is encrypted).
 * With `by`, the payout is recorded in the security history in the same transaction (a replay is not recorded
 * again), and a refusal while a new account is held is recorded too: it is what a takeover attempt looks like.
 */
export async function createPayout(
  db: Executor,
  merchantId: number,
  input: unknown,
  { by, ...options }: CreatePayoutOptions,
): Promise<{ payout: Payout; replayed: boolean }> {
  if (!by) return makePayout(db, merchantId, input, options);
  let heldUntil: string | undefined;
  try {
    return await db.transaction(async (tx) => {
      const made = await makePayout(tx, merchantId, input, options, (until) => (heldUntil = until));
      const { payout } = made;
      if (!made.replayed)
        await recordSecurityEvent(
          tx,
          merchantId,
          by,
          "payout.created",
          `payout ${payout.id}: ${payout.amount} ${payout.currency} to the account ending ${payout.destination_last4}`,
        );
      return made;
    });
  } catch (error) {
    if (heldUntil !== undefined)
      await recordSecurityEvent(
        db,
        merchantId,
        by,
        "payout.refused",
        `during the hold, which ends at ${heldUntil}`,
      );
    throw error;
  }
}

async function makePayout(
  db: Executor,
  merchantId: number,
  input: unknown,
  { autoSettleMs, idempotencyKey }: Omit<CreatePayoutOptions, "by">,
  onHeld?: (until: string) => void,
): Promise<{ payout: Payout; replayed: boolean }> {
  const { currency, amount } = parseInput(createPayoutSchema, input);
  // zod skips an absent key whose schema takes undefined (currencyField's does): required is checked here.
  if (currency === undefined) throw validationError({ currency: [messages.required("currency")] });
  const refusal = amount === undefined ? null : amountRefusal(amount, currency);
  if (refusal) throw validationError({ amount: [refusal] });
  const [account] = await selectRows<{ iban_ciphertext: string; iban_last4: string }>(
    db,
    sql`select iban_ciphertext, iban_last4 from payout_accounts where merchant_id = ${merchantId}`,
  );
  const hash = requestHash({ payout: { currency, amount: sameAmount(amount) } });
  const [row] = await onceMoreOnConflict(() =>
    selectRows<{ made: { payout: Payout; replayed: boolean } }>(
      db,
      sql`select create_payout(${merchantId}::bigint, ${publicId("evt")}::text, ${currency}::text,
        ${amount ?? null}::numeric, ${maxAmount(currency)}::numeric, ${account?.iban_last4 ?? ""}::text,
        ${account !== undefined && decryptSecret(account.iban_ciphertext) === TEST_IBANS.closed}::boolean,
        ${autoSettleMs}::int, ${!onCitus()}::boolean, ${idempotencyKey ?? null}::text, ${hash}::text,
        ${keyCutoff()}::timestamptz) as made`,
    ).catch((error: unknown) => {
      if (isIdempotencyKeyReused(error)) throw new DomainError("conflict", IDEMPOTENCY_KEY_REUSED);
      const refusal = writeRefusal(error);
      if (refusal?.detail === "held") onHeld?.(refusal.hint ?? "");
      if (refusal) throw explainPayoutRefusal(refusal, currency);
      throw error;
    }),
  );
  return row!.made;
}

/** create_payout's refusal (its field, why, and the figure or reason it gives) in the API's words. */
function explainPayoutRefusal(
  { message, detail, hint }: { message: string; detail?: string; hint?: string },
  currency: string,
) {
  if (detail === "no_account")
    return validationError({ payout_account: ["Add a payout account (PUT /api/payout-account) first."] });
  if (detail === "errored") return validationError({ payout_account: [accountNeedsReplacing(hint || null)] });
  if (detail === "held")
    return validationError({ payout_account: [`Payouts to the new account start at ${hint}.`] });
  const balance = inMinorUnits(hint ?? "0", currency);
  // A balance at or below zero (a refund or dispute took more than came in) has nothing to offer: say so.
  if (detail === "exceeds" && Number(hint ?? "0") > 0)
    return validationError({ amount: [messages.max("amount", balance)] });
  if (detail === "exceeds")
    return validationError({ amount: [`Nothing is available to pay out in ${currency} (${balance}).`] });
  return validationError({ [message]: [`Nothing is available to pay out in ${currency} (${balance}).`] });
}

/**
 * Moves one payout on with the database's `move_payout` (db/functions/payouts.sql), in the caller's
 * transaction or as one call: to in_transit, or to its end (paid, failed, canceled; null: as the simulator
 * would), posting what that moves. Returns the payout as it is now, or undefined when it was not in `from`.
 */
async function movePayout(
  db: Executor,
  merchantId: number,
  payoutId: number,
  from: readonly PayoutStatus[],
  to: "in_transit" | "paid" | "failed" | "canceled" | null,
  nextMoveMs = 0,
): Promise<Payout | undefined> {
  const [row] = await selectRows<{ moved: Payout | null }>(
    db,
    sql`select move_payout(${merchantId}::bigint, ${payoutId}::bigint, ${publicId("evt")}::text,
      ${`{${from.join(",")}}`}::text[], ${to}::text, ${CLOSED_ACCOUNT}::text, ${nextMoveMs}::int,
      ${!onCitus()}::boolean) as moved`,
  );
  return row?.moved ?? undefined;
}

async function explainUnmoved(
  db: Executor,
  merchantId: number,
  payoutId: number,
  want: string,
): Promise<never> {
  const [row] = await selectRows<{ status: string }>(
    db,
    sql`select status from payouts where merchant_id = ${merchantId} and id = ${payoutId}`,
  );
  if (!row) throw new DomainError("not_found", `Payout ${payoutId} was not found.`);
  throw new DomainError("conflict", `Payout ${payoutId} is ${row.status}: ${want}`);
}

/** POST /api/payouts/{id}/cancel: only while pending; the money is available again. */
export async function cancelPayout(db: Executor, merchantId: number, payoutId: number): Promise<Payout> {
  const payout = await movePayout(db, merchantId, payoutId, ["pending"], "canceled");
  return payout ?? explainUnmoved(db, merchantId, payoutId, "only a pending payout can be canceled.");
}

/**
 * POST /api/test-helpers/payouts/{id}/settle: to its end now; without `outcome` as the simulator would (the
 * closed-account test IBAN fails, any other is paid).
 */
export async function settlePayout(db: Executor, merchantId: number, payoutId: number, input: unknown) {
  const { outcome } = parseInput(settlePayoutSchema, input ?? {});
  const payout = await movePayout(db, merchantId, payoutId, ["pending", "in_transit"], outcome ?? null);
  if (payout?.status === "failed") await notifyOwnersOfFailedPayout(db, merchantId, payout);
  return payout ?? explainUnmoved(db, merchantId, payoutId, "paid, failed and canceled are final.");
}

/**
 * A payout failed: its money is back in the balance, and the owners must act (usually replace the account), so
 * every owner is mailed why. Sent after the failure commits.
 */
async function notifyOwnersOfFailedPayout(db: Executor, merchantId: number, payout: Payout): Promise<void> {
  await mailOwners(db, merchantId, {
    subject: `A payout of ${payout.amount} ${payout.currency} failed`,
    text: `Payout ${payout.id} of ${payout.amount} ${payout.currency} to the account ending ${payout.destination_last4} failed: ${payout.failure_reason ?? "the bank returned it"}.\n\nThe money is back in your balance. Payouts wait until the account is replaced in Settings → Payouts (${appOrigin()}/dashboard/settings/payouts).\n`,
  });
}

/**
 * The simulator: payouts whose move_at has come go one step on (pending → in_transit → paid or failed), a
 * batch per transaction. Returns how many it looked at.
 */
export async function moveDuePayouts(
  db: Executor,
  stepMs: number,
  limit = 50,
  clock: WorkClock = REAL_TIME,
): Promise<number> {
  const isDue = sql`status in ('pending', 'in_transit') and move_at <= ${clock.now} and ${clock.covers()}`;
  return forEachDueMerchant(db, { table: "payouts", where: isDue }, (merchant) =>
    moveClaimedPayouts(db, sql`${isDue} ${merchant.and()}`, stepMs, limit),
  );
}

async function moveClaimedPayouts(db: Executor, isDue: SQL, stepMs: number, limit: number) {
  return db
    .transaction(async (tx) => {
      const due = await selectRows<{ merchant_id: string; id: string; status: PayoutStatus }>(
        tx,
        sql`select merchant_id, id, status from payouts where ${isDue}
          order by move_at limit ${limit} for update skip locked`,
      );
      const failed: Array<{ merchantId: number; payout: Payout }> = [];
      for (const payout of due) {
        const to = payout.status === "pending" ? "in_transit" : null;
        const merchantId = Number(payout.merchant_id);
        const moved = await movePayout(tx, merchantId, Number(payout.id), [payout.status], to, stepMs);
        if (moved?.status === "failed") failed.push({ merchantId, payout: moved });
      }
      return { count: due.length, failed };
    })
    .then(async ({ count, failed }) => {
      // Once committed: a rolled-back batch mails nobody.
      for (const { merchantId, payout } of failed) await notifyOwnersOfFailedPayout(db, merchantId, payout);
      return count;
    });
}
