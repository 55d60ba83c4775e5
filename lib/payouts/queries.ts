import "server-only";
import { sql } from "drizzle-orm";
import { selectRows, type Executor } from "@/db/client";
import type { PayoutSchedule } from "@/db/enums";
import { isoTimestamp } from "@/lib/platform/timestamps";
import { PAYOUT_COLUMNS, toPayout, type PayoutRow } from "./payouts";
import type { Payout } from "./schemas";

/** GET /api/payouts: the merchant's, newest first (a merchant has a payout a day at most, by schedule). */
export async function listPayouts(
  db: Executor,
  merchantId: number,
  page: number,
  perPage: number,
): Promise<{ items: Payout[]; total: number }> {
  const [rows, [count]] = await Promise.all([
    selectRows<PayoutRow>(
      db,
      sql`select ${PAYOUT_COLUMNS} from payouts where merchant_id = ${merchantId}
          order by created_at desc, id desc offset ${(page - 1) * perPage} limit ${perPage}`,
    ),
    selectRows<{ total: number | string }>(
      db,
      sql`select count(*) as total from payouts where merchant_id = ${merchantId}`,
    ),
  ]);
  return { items: rows.map(toPayout), total: Number(count!.total) };
}

export type PayoutOutlook = {
  /** The payouts on their way (pending or in transit), the soonest to arrive first. */
  moving: Payout[];
  schedule: PayoutSchedule;
  hasAccount: boolean;
  /** Where payouts go, and whether a failed payout left it needing replacement. */
  account: {
    last4: string;
    errored: boolean;
    failureReason: string | null;
    /** Until when payouts wait after the account was replaced (PAYOUT_ACCOUNT_CHANGE_HOLD); null when not held. */
    heldUntil: string | null;
  } | null;
};

/** What the Balance page and the Overview say of the next payout: those moving, the schedule, the account. */
export async function payoutOutlook(db: Executor, merchantId: number): Promise<PayoutOutlook> {
  const [moving, [merchant], [account]] = await Promise.all([
    selectRows<PayoutRow>(
      db,
      sql`select ${PAYOUT_COLUMNS} from payouts
          where merchant_id = ${merchantId} and status in ('pending', 'in_transit')
          order by arrival_date, id limit 5`,
    ),
    selectRows<{ payout_schedule: PayoutOutlook["schedule"] }>(
      db,
      sql`select payout_schedule from merchants where id = ${merchantId}`,
    ),
    selectRows<{
      iban_last4: string;
      status: string;
      failure_reason: string | null;
      held_until: Date | string | null;
    }>(
      db,
      sql`select iban_last4, status, failure_reason,
                 case when payouts_start_at > now() then payouts_start_at end as held_until
          from payout_accounts where merchant_id = ${merchantId}`,
    ),
  ]);
  return {
    moving: moving.map(toPayout),
    schedule: merchant?.payout_schedule ?? "daily",
    hasAccount: account !== undefined,
    account: account
      ? {
          last4: account.iban_last4,
          errored: account.status === "errored",
          failureReason: account.failure_reason,
          heldUntil: account.held_until === null ? null : isoTimestamp(account.held_until),
        }
      : null,
  };
}
