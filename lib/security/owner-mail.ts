import "server-only";
import { and, eq, sql } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { users } from "@/db/schema";
import { sendMail } from "@/lib/platform/mailer";

/**
 * Mails every owner of the environment's account (and `also`, e.g. an owner just demoted or removed, who is one no longer):
 * what a stolen session did must reach the people who can undo it. Sent after the change commits, so a
 * rolled-back change mails nobody.
 */
export async function mailOwners(
  db: Executor,
  merchantId: number,
  message: { subject: string; text: string },
  also: string[] = [],
): Promise<void> {
  const owners = await db
    .select({ email: users.email })
    .from(users)
    // The team is the account's: a payout failing in live or in another sandbox reaches the same owners.
    .where(
      and(
        eq(users.merchantId, sql`(select coalesce(account_id, id) from merchants where id = ${merchantId})`),
        eq(users.role, "owner"),
      ),
    );
  const recipients = new Set([...owners.map((owner) => owner.email), ...also]);
  for (const to of recipients) await sendMail({ to, ...message });
}
