import "server-only";
import { eq, sql } from "drizzle-orm";
import { z } from "zod";
import type { Executor } from "@/db/client";
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
  updated_at: z.string().describe("UTC, `YYYY-MM-DDTHH:mm:ss.SSSZ`."),
});
export type PayoutAccount = z.infer<typeof payoutAccountSchema>;

const toPayoutAccount = (row: { accountHolder: string; ibanLast4: string; updatedAt: Date | string }) => ({
  account_holder: row.accountHolder,
  iban_last4: row.ibanLast4,
  updated_at: isoTimestamp(row.updatedAt),
});

export async function getPayoutAccount(db: Executor, merchantId: number): Promise<PayoutAccount | null> {
  const [row] = await db
    .select({
      accountHolder: payoutAccounts.accountHolder,
      ibanLast4: payoutAccounts.ibanLast4,
      updatedAt: payoutAccounts.updatedAt,
    })
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
  const values = {
    accountHolder: account_holder,
    ibanCiphertext: encryptSecret(iban),
    ibanLast4: iban.slice(-4),
  };
  const [row] = await db
    .insert(payoutAccounts)
    .values({ merchantId, ...values })
    // The inserted row's own time: Citus refuses a clock read in DO UPDATE (it is not immutable).
    .onConflictDoUpdate({
      target: payoutAccounts.merchantId,
      set: { ...values, updatedAt: sql`excluded.updated_at` },
    })
    .returning({
      accountHolder: payoutAccounts.accountHolder,
      ibanLast4: payoutAccounts.ibanLast4,
      updatedAt: payoutAccounts.updatedAt,
    });
  return toPayoutAccount(row!);
}
