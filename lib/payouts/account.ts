import "server-only";
import { eq, sql } from "drizzle-orm";
import { z } from "zod";
import { selectRows, type Executor } from "@/db/client";
import { PAYOUT_ACCOUNT_STATUSES } from "@/db/enums";
import { payoutAccounts } from "@/db/schema";
import { decryptSecret, encryptSecret } from "@/lib/platform/encryption";
import { appOrigin, getEnv } from "@/lib/platform/env";
import { isoTimestamp, readableTime } from "@/lib/platform/timestamps";
import { parseInput, stringField } from "@/lib/platform/validation";
import { recordSecurityEvent, remedyFor, type SecurityActor } from "@/lib/security/history";
import { mailOwners } from "@/lib/security/owner-mail";
import { ibanField } from "./iban";

export const payoutAccountInputSchema = z.object({
  account_holder: stringField("account_holder", { required: true, max: 255 }),
  iban: ibanField,
});

/** The payout account as the API shows it: never the IBAN, only its last 4. */
export const payoutAccountSchema = z.object({
  account_holder: z.string(),
  iban_last4: z.string().describe("The IBAN's last four characters: the rest is never shown again."),
  status: z
    .enum(PAYOUT_ACCOUNT_STATUSES)
    .describe(
      "`errored` once a payout failed because of the account (closed): payouts wait until another account is saved (`active` again).",
    ),
  failure_reason: z
    .string()
    .nullable()
    .describe("Why it errored, the failed payout's reason; null while active."),
  payouts_start_at: z
    .string()
    .nullable()
    .describe(
      "When payouts to it may start, UTC: set when it replaced another account (PAYOUT_ACCOUNT_CHANGE_HOLD later); null for a first account.",
    ),
  updated_at: z.string().describe("UTC, `YYYY-MM-DDTHH:mm:ss.SSSZ`."),
});
export type PayoutAccount = z.infer<typeof payoutAccountSchema>;

const ACCOUNT_COLUMNS = {
  accountHolder: payoutAccounts.accountHolder,
  ibanLast4: payoutAccounts.ibanLast4,
  status: payoutAccounts.status,
  failureReason: payoutAccounts.failureReason,
  payoutsStartAt: payoutAccounts.payoutsStartAt,
  updatedAt: payoutAccounts.updatedAt,
};

const toPayoutAccount = (row: {
  accountHolder: string;
  ibanLast4: string;
  status: PayoutAccount["status"];
  failureReason: string | null;
  payoutsStartAt: Date | string | null;
  updatedAt: Date | string;
}): PayoutAccount => ({
  account_holder: row.accountHolder,
  iban_last4: row.ibanLast4,
  status: row.status,
  failure_reason: row.failureReason,
  payouts_start_at: row.payoutsStartAt === null ? null : isoTimestamp(row.payoutsStartAt),
  updated_at: isoTimestamp(row.updatedAt),
});

/** Whether payouts to the account still wait for its hold to end (it replaced another lately). */
export const payoutsHeld = (account: Pick<PayoutAccount, "payouts_start_at">) =>
  account.payouts_start_at !== null && Date.parse(account.payouts_start_at) > Date.now();

/** The refusal of a payout while the account is errored: it names what went wrong. */
export const accountNeedsReplacing = (reason: string | null) =>
  `The payout account needs replacing: ${reason ?? "a payout to it failed."}`;

export async function getPayoutAccount(db: Executor, merchantId: number): Promise<PayoutAccount | null> {
  const [row] = await db
    .select(ACCOUNT_COLUMNS)
    .from(payoutAccounts)
    .where(eq(payoutAccounts.merchantId, merchantId));
  return row ? toPayoutAccount(row) : null;
}

/**
 * PUT /api/payout-account and Settings → Payouts: sets (or replaces) where payouts go. Under the merchant's row
 * lock, so concurrent changes take turns and each knows the account it replaced. Replacing one (not the first)
 * holds payouts for PAYOUT_ACCOUNT_CHANGE_HOLD (create_payout refuses until `payouts_start_at`); with `by`, the
 * change is recorded in the security history in the same transaction. The caller tells the owners
 * (notifyOwnersOfChange) once it has committed. The same holder and IBAN saved again change nothing (`unchanged`):
 * no new hold, no record, no mail.
 */
export async function setPayoutAccount(
  db: Executor,
  merchantId: number,
  input: unknown,
  by?: SecurityActor,
): Promise<PayoutAccount & { replaced_last4: string | null; unchanged?: true }> {
  const { account_holder, iban } = parseInput(payoutAccountInputSchema, input);
  // A new account is active whatever the last one was: saving is how an errored account is replaced.
  const values = {
    accountHolder: account_holder,
    ibanCiphertext: encryptSecret(iban),
    ibanLast4: iban.slice(-4),
    status: "active" as const,
    failureReason: null,
  };
  return db.transaction(async (tx) => {
    // From the merchant's time (a sandbox's test clock), computed here: Citus refuses a clock read in DO UPDATE.
    const [merchant] = await selectRows<{ now: Date | string }>(
      tx,
      sql`select coalesce(clock_at, now()) as now from merchants where id = ${merchantId} for update`,
    );
    const heldUntil = new Date(new Date(merchant!.now).getTime() + getEnv().PAYOUT_ACCOUNT_CHANGE_HOLD);
    const [previous] = await tx
      .select({ ...ACCOUNT_COLUMNS, ibanCiphertext: payoutAccounts.ibanCiphertext })
      .from(payoutAccounts)
      .where(eq(payoutAccounts.merchantId, merchantId));
    if (
      previous?.status === "active" &&
      previous.accountHolder === account_holder &&
      decryptSecret(previous.ibanCiphertext) === iban
    )
      return { ...toPayoutAccount(previous), replaced_last4: null, unchanged: true as const };
    const [row] = await tx
      .insert(payoutAccounts)
      .values({ merchantId, ...values, payoutsStartAt: null })
      // The inserted row's own time: Citus refuses a clock read in DO UPDATE (it is not immutable).
      .onConflictDoUpdate({
        target: payoutAccounts.merchantId,
        set: { ...values, payoutsStartAt: heldUntil, updatedAt: sql`excluded.updated_at` },
      })
      .returning(ACCOUNT_COLUMNS);
    const replaced = previous?.ibanLast4 ?? null;
    if (by)
      await recordSecurityEvent(
        tx,
        merchantId,
        by,
        "payout_account.changed",
        replaced === null
          ? `IBAN ending ${values.ibanLast4}, held by ${account_holder} (the first account)`
          : `IBAN ending ${replaced} → IBAN ending ${values.ibanLast4}, held by ${account_holder}; payouts start at ${heldUntil.toISOString()}`,
      );
    return { ...toPayoutAccount(row!), replaced_last4: replaced };
  });
}

/**
 * After a replacement commits: every owner is told by email where the money now goes, who changed it, from
 * where, and when payouts start (DESIGN.md, "Changing the payout account"). Sent after the commit, so a
 * rolled-back change mails nobody.
 */
export async function notifyOwnersOfChange(
  db: Executor,
  merchantId: number,
  account: PayoutAccount,
  by: SecurityActor,
): Promise<void> {
  const from = by.ip ? `, from ${by.ip}` : "";
  const starts = account.payouts_start_at
    ? `Payouts to it start at ${readableTime(account.payouts_start_at)}.`
    : "Payouts to it start now.";
  await mailOwners(db, merchantId, {
    subject: "Your payout account was changed",
    text: `The payout account was changed to IBAN ending ${account.iban_last4}, held by ${account.account_holder}, by ${by.actor}${from}.\n\n${starts}\n\nIf you did not make this change: ${remedyFor(by)} Then change your password and replace the account in Settings → Payouts (${appOrigin()}/dashboard/settings/payouts): the payouts wait until then.\n`,
  });
}
