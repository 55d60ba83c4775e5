import "server-only";
import { sql, type SQL } from "drizzle-orm";
import { getDb, selectRows, type Executor } from "@/db/client";
import type { DisputeReason } from "@/db/enums";
import type { BackgroundService } from "@/lib/platform/background-service";
import { DomainError } from "@/lib/platform/errors";
import { forEachDueMerchant, type MerchantScope } from "@/lib/platform/merchant-claims";
import { periodicService } from "@/lib/platform/periodic-service";
import { parseInput } from "@/lib/platform/validation";
import { REAL_TIME, type WorkClock } from "@/lib/platform/work-clock";
import { DISPUTE_COLUMNS, decideDispute, openDispute, type DisputeRow } from "./disputes";
import { decideDisputeSchema, openDisputeSchema, type Dispute } from "./schemas";

// The simulated bank's side of disputes: the test cards' disputes opened a few seconds after their payment,
// the verdict on magic evidence, and the deadline. One background service; each step one row per transaction.

/** How long after a test card's payment its dispute opens. */
export const DISPUTE_OPEN_DELAY_MS = 3_000;

/** Opens the disputes scheduled and due, each in its own transaction; how many it opened. */
export async function openDueDisputes(
  db: Executor,
  limit = 20,
  clock: WorkClock = REAL_TIME,
): Promise<number> {
  const isDue = sql`open_at <= ${clock.now} and ${clock.covers()}`;
  return forEachDueMerchant(db, { table: "scheduled_disputes", where: isDue }, (merchant) =>
    openClaimed(db, sql`${isDue} ${merchant.and()}`, clock, limit),
  );
}

async function openClaimed(db: Executor, isDue: SQL, clock: WorkClock, limit: number): Promise<number> {
  let opened = 0;
  for (; opened < limit; opened++) {
    const done = await db.transaction(async (tx) => {
      const [due] = await selectRows<{
        merchant_id: string;
        payment_id: string;
        reason: DisputeReason;
        inquiry: boolean;
      }>(
        tx,
        sql`delete from scheduled_disputes where (merchant_id, payment_id) = (
              select merchant_id, payment_id from scheduled_disputes where ${isDue}
              order by open_at limit 1 for update skip locked) and ${clock.covers()}
            returning merchant_id, payment_id, reason, inquiry`,
      );
      if (!due) return false;
      // A payment refunded in full or disputed meanwhile opens none (a savepoint undoes the attempt); the
      // schedule's row goes all the same.
      await tx
        .transaction((attempt) => openDispute(attempt, Number(due.merchant_id), Number(due.payment_id), due))
        .catch((error: unknown) => {
          if (!(error instanceof DomainError)) throw error;
        });
      return true;
    });
    if (!done) break;
  }
  return opened;
}

/** Decides what is due: submitted magic evidence (its verdict), and disputes past their deadline (lost). */
export async function decideDueDisputes(
  db: Executor,
  limit = 20,
  clock: WorkClock = REAL_TIME,
): Promise<number> {
  const isDue = sql`(decide_at <= ${clock.now} or (${pastDeadline(clock)})) and ${clock.covers()}`;
  return forEachDueMerchant(db, { table: "disputes", where: isDue }, (merchant) =>
    decideClaimed(db, merchant, clock, limit),
  );
}

const pastDeadline = (clock: WorkClock) =>
  sql`status in ('needs_response', 'warning_needs_response') and evidence_due_by <= ${clock.now}`;

async function decideClaimed(
  db: Executor,
  merchant: MerchantScope,
  clock: WorkClock,
  limit: number,
): Promise<number> {
  let decided = 0;
  for (; decided < limit; decided++) {
    const done = await db.transaction(async (tx) => {
      // A verdict due first, else a deadline passed (FOR UPDATE cannot sit under a UNION: two statements).
      const pick = (condition: SQL, order: SQL) =>
        selectRows<DisputeRow>(
          tx,
          sql`select ${DISPUTE_COLUMNS} from disputes where ${condition} and ${clock.covers()} ${merchant.and()}
              order by ${order} limit 1 for update skip locked`,
        );
      const [due] = await pick(sql`decide_at <= ${clock.now}`, sql`decide_at`).then(async (verdicts) =>
        verdicts.length > 0 ? verdicts : pick(pastDeadline(clock), sql`evidence_due_by`),
      );
      if (!due) return false;
      await decideDispute(tx, Number(due.merchant_id), Number(due.id), due.decision ?? "lost");
      return true;
    });
    if (!done) break;
  }
  return decided;
}

export const startDisputeSimulator: BackgroundService = periodicService(
  "Dispute simulator",
  1_000,
  async () => {
    const db = getDb();
    const busy = (await openDueDisputes(db)) + (await decideDueDisputes(db));
    return busy >= 20;
  },
);

/** POST /api/test-helpers/disputes/{id}/close `{outcome}`: the bank decides now. */
export async function decideDisputeNow(db: Executor, merchantId: number, disputeId: number, input: unknown) {
  const { outcome } = parseInput(decideDisputeSchema, input ?? {});
  return decideDispute(db, merchantId, disputeId, outcome);
}

/** POST /api/test-helpers/payments/{id}/dispute `{reason?, inquiry?}`: the payer's bank disputes it now. */
export async function disputePaymentNow(
  db: Executor,
  merchantId: number,
  paymentId: number,
  input: unknown,
): Promise<Dispute> {
  const { reason = "fraudulent", inquiry = false } = parseInput(openDisputeSchema, input ?? {});
  return openDispute(db, merchantId, paymentId, { reason, inquiry });
}
