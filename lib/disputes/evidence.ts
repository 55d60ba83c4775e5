import "server-only";
import { sql } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { DISPUTE_EVIDENCE_FIELDS } from "@/db/enums";
import { DomainError } from "@/lib/platform/errors";
import { parseInput } from "@/lib/platform/validation";
import {
  decideDispute,
  lockDispute,
  recordDisputeEvent,
  refuseClosed,
  toDispute,
  updateDispute,
} from "./disputes";
import { disputeEvidenceInputSchema, type Dispute } from "./schemas";

/** In test, submitted `uncategorized_text` with one of these is decided so, this long after submission. */
const MAGIC_EVIDENCE = { winning_evidence: "won", losing_evidence: "lost" } as const;
export const DECISION_DELAY_MS = 3_000;

/**
 * POST /api/disputes/{id}/evidence and the dispute page's form: the texts given are saved over the draft (null
 * clears one); `submit: true` sends it to the bank (`under_review`), final. Submitted evidence is a 409 after.
 */
export async function saveEvidence(
  db: Executor,
  merchantId: number,
  disputeId: number,
  input: unknown,
): Promise<Dispute> {
  const { submit, ...texts } = parseInput(disputeEvidenceInputSchema, input ?? {});
  return db.transaction(async (tx) => {
    const row = await lockDispute(tx, merchantId, disputeId);
    refuseClosed(row);
    if (row.status.endsWith("under_review"))
      throw new DomainError(
        "conflict",
        `Dispute ${disputeId}'s evidence has been submitted: the bank is reviewing it.`,
      );
    // Past its deadline it is lost, whether or not the simulator has closed it yet.
    if (new Date(row.evidence_due_by).getTime() <= Date.now())
      throw new DomainError(
        "conflict",
        `Dispute ${disputeId} is past its deadline: it can no longer be answered.`,
      );
    const given = DISPUTE_EVIDENCE_FIELDS.filter((field) => texts[field] !== undefined);
    const set = Object.fromEntries(
      given.filter((field) => texts[field] !== null).map((field) => [field, texts[field]]),
    );
    const cleared = given.filter((field) => texts[field] === null);
    const evidence = sql`(evidence - ${`{${cleared.join(",")}}`}::text[]) || ${JSON.stringify(set)}::jsonb`;
    if (!submit) {
      const saved = await updateDispute(tx, row, sql`evidence = ${evidence}`);
      await recordDisputeEvent(tx, "dispute.updated", saved);
      return toDispute(saved);
    }
    const status = row.status === "warning_needs_response" ? "warning_under_review" : "under_review";
    const merged: Record<string, string | null> = {
      ...toDispute(row).evidence,
      ...Object.fromEntries(given.map((field) => [field, texts[field] ?? null])),
    };
    const decision = MAGIC_EVIDENCE[merged.uncategorized_text as keyof typeof MAGIC_EVIDENCE] ?? null;
    const submitted = await updateDispute(
      tx,
      row,
      sql`evidence = ${evidence}, status = ${status}, evidence_submitted_at = now(), decision = ${decision},
          decide_at = case when ${decision}::text is null then null
                           else now() + ${DECISION_DELAY_MS}::int * interval '1 millisecond' end`,
    );
    await recordDisputeEvent(tx, "dispute.updated", submitted);
    return toDispute(submitted);
  });
}

/** POST /api/disputes/{id}/close: the merchant accepts it, and loses (an inquiry just closes). */
export async function acceptDispute(db: Executor, merchantId: number, disputeId: number): Promise<Dispute> {
  return decideDispute(db, merchantId, disputeId, "lost");
}
