// A dispute left unanswered past `evidence_due_by` (DESIGN.md, "Disputes"): evidence is then refused with a
// conflict, and the background service closes it as lost: the amount and the fee stay withdrawn (no
// `dispute_won`), `dispute.closed` is recorded, and an answered dispute or one still in time is left alone.
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { selectRows } from "@/db/client";
import { saveEvidence } from "@/lib/disputes/evidence";
import { findDispute } from "@/lib/disputes/queries";
import { decideDueDisputes, disputePaymentNow } from "@/lib/disputes/simulator";
import { createPayment } from "@/lib/payments/create-payment";
import { settlePayment } from "@/lib/payments/settlement";
import { DomainError } from "@/lib/platform/errors";
import { db, newMerchant } from "../support/direct-db";

async function disputedPayment(merchantId: number, amount: string) {
  const { paymentId } = await createPayment(
    db,
    merchantId,
    { amount, currency: "EUR" },
    { source: "cli", autoSettleMs: 0 },
  );
  await settlePayment(db, paymentId, { outcome: "completed" }, merchantId);
  return disputePaymentNow(db, merchantId, paymentId, { reason: "fraudulent" });
}

/** As if its deadline had passed: the clock is the one thing a test cannot wait 7 days for. */
async function lapse(merchantId: number, disputeId: number) {
  await selectRows(
    db,
    sql`update disputes set evidence_due_by = now() - interval '1 second'
        where merchant_id = ${merchantId} and id = ${disputeId}`,
  );
}

async function movesOf(merchantId: number, disputeId: number) {
  const rows = await selectRows<{ type: string; amount: string }>(
    db,
    sql`select type, amount::text from balance_transactions
        where merchant_id = ${merchantId} and source_id = ${disputeId} and type like 'dispute%' order by id`,
  );
  return rows.map((row) => [row.type, row.amount]);
}

describe("a dispute past its deadline", () => {
  it("refuses evidence with a conflict, then closes as lost with the money kept withdrawn", async () => {
    const merchantId = await newMerchant("Deadline");
    const late = await disputedPayment(merchantId, "30.00");
    const inTime = await disputedPayment(merchantId, "20.00");
    const answered = await disputedPayment(merchantId, "10.00");
    await saveEvidence(db, merchantId, answered.id, { uncategorized_text: "Order 12", submit: true });
    await lapse(merchantId, late.id);

    const refused = await saveEvidence(db, merchantId, late.id, { receipt: "too late" }).catch(
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(DomainError);
    expect(refused).toMatchObject({ kind: "conflict" });
    expect((refused as DomainError).message).toMatch(/past its deadline/);

    // Other merchants' due disputes may be decided in the same pass: at least this one.
    expect(await decideDueDisputes(db)).toBeGreaterThanOrEqual(1);
    const closed = await findDispute(db, merchantId, late.id);
    expect([closed?.status, closed?.evidence.receipt]).toEqual(["lost", null]);
    expect(closed?.closed_at).not.toBeNull();
    expect(await movesOf(merchantId, late.id)).toEqual([["dispute", "-30.00"]]);
    const [closedEvent] = await selectRows<{ count: string }>(
      db,
      sql`select count(*)::text as count from events
          where merchant_id = ${merchantId} and type = 'dispute.closed' and data->>'id' = ${String(late.id)}`,
    );
    expect(closedEvent?.count).toBe("1");

    // Still in time, and answered before its deadline: neither is touched.
    expect((await findDispute(db, merchantId, inTime.id))?.status).toBe("needs_response");
    expect((await findDispute(db, merchantId, answered.id))?.status).toBe("under_review");
    // A second pass finds nothing more of this merchant's to decide.
    await decideDueDisputes(db);
    expect(await movesOf(merchantId, late.id)).toEqual([["dispute", "-30.00"]]);
  });
});
