import "server-only";
import { eq, sql } from "drizzle-orm";
import { z } from "zod";
import type { Executor } from "@/db/client";
import { PAYOUT_ACCOUNT_STATUSES } from "@/db/enums";
import { payoutAccounts } from "@/db/schema";
import { encryptSecret } from "@/lib/platform/encryption";
import { isoTimestamp } from "@/lib/platform/timestamps";
import { parseInput, stringField } from "@/lib/platform/validation";
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
  updated_at: z.string().describe("UTC, `YYYY-MM-DDTHH:mm:ss.SSSZ`."),
});
export type PayoutAccount = z.infer<typeof payoutAccountSchema>;

const ACCOUNT_COLUMNS = {
  accountHolder: payoutAccounts.accountHolder,
  ibanLast4: payoutAccounts.ibanLast4,
  status: payoutAccounts.status,
  failureReason: payoutAccounts.failureReason,
  updatedAt: payoutAccounts.updatedAt,
};

const toPayoutAccount = (row: {
  accountHolder: string;
  ibanLast4: string;
  status: PayoutAccount["status"];
  failureReason: string | null;
  updatedAt: Date | string;
}): PayoutAccount => ({
  account_holder: row.accountHolder,
  iban_last4: row.ibanLast4,
  status: row.status,
  failure_reason: row.failureReason,
  updated_at: isoTimestamp(row.updatedAt),
});

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

/** PUT /api/payout-account and Settings → Payouts: sets (or replaces) where payouts go. */
export async function setPayoutAccount(
  db: Executor,
  merchantId: number,
  input: unknown,
): Promise<PayoutAccount> {
  const { account_holder, iban } = parseInput(payoutAccountInputSchema, input);
  // A new account is active whatever the last one was: saving is how an errored account is replaced.
  const values = {
    accountHolder: account_holder,
    ibanCiphertext: encryptSecret(iban),
    ibanLast4: iban.slice(-4),
    status: "active" as const,
    failureReason: null,
  };
  const [row] = await db
    .insert(payoutAccounts)
    .values({ merchantId, ...values })
    // The inserted row's own time: Citus refuses a clock read in DO UPDATE (it is not immutable).
    .onConflictDoUpdate({
      target: payoutAccounts.merchantId,
      set: { ...values, updatedAt: sql`excluded.updated_at` },
    })
    .returning(ACCOUNT_COLUMNS);
  return toPayoutAccount(row!);
}
