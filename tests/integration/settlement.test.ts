import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { events, payments } from "@/db/schema";
import { createPayment } from "@/lib/payments/create-payment";
import { settleDuePayments, settlePayment } from "@/lib/payments/settlement";
import { DomainError } from "@/lib/platform/errors";
import { db, newMerchant } from "../support/direct-db";

/** A payment left pending until settled by hand. */
async function pendingPayment(merchantId: number): Promise<number> {
  const { paymentId } = await createPayment(
    db,
    merchantId,
    { amount: 5 },
    { source: "cli", autoSettleMs: 0 },
  );
  return paymentId;
}

async function eventTypes(paymentId: number) {
  const rows = await db
    .select({ type: events.type })
    .from(events)
    .where(eq(events.paymentId, paymentId))
    .orderBy(events.createdAt);
  return rows.map((row) => row.type);
}

describe("settlePayment", () => {
  it("gives exactly one transition and one event under concurrent settles", async () => {
    const merchantId = await newMerchant("Settlement");
    const paymentId = await pendingPayment(merchantId);
    const results = await Promise.allSettled(
      Array.from({ length: 12 }, (_, index) =>
        settlePayment(db, paymentId, { outcome: index % 2 ? "failed" : "completed" }),
      ),
    );
    const settled = results.filter((result) => result.status === "fulfilled");
    const refused = results.filter((result): result is PromiseRejectedResult => result.status === "rejected");
    expect(settled).toHaveLength(1);
    expect(refused).toHaveLength(11);
    for (const result of refused) expect((result.reason as DomainError).kind).toBe("conflict");
    const events = await eventTypes(paymentId);
    expect(events).toHaveLength(2);
    expect(events[0]).toBe("payment.pending");
  });

  it("treats completed and failed as final, and names unknown payments and bad outcomes", async () => {
    const merchantId = await newMerchant("Settlement");
    const paymentId = await pendingPayment(merchantId);
    await settlePayment(db, paymentId, { outcome: "failed" });
    await expect(settlePayment(db, paymentId, { outcome: "completed" })).rejects.toThrow(
      `Payment ${paymentId} is already failed; completed and failed are final.`,
    );
    await expect(settlePayment(db, 999_999_999, { outcome: "completed" })).rejects.toThrow(
      "Payment 999999999 was not found.",
    );
    await expect(settlePayment(db, paymentId, { outcome: "refunded" })).rejects.toMatchObject({
      kind: "validation",
      fieldErrors: { outcome: ["The selected outcome is invalid."] },
    });
    // Absent, it is required, as Laravel's `required|in:…` says it.
    await expect(settlePayment(db, paymentId, {})).rejects.toMatchObject({
      kind: "validation",
      fieldErrors: { outcome: ["The outcome field is required."] },
    });
    expect(await eventTypes(paymentId)).toEqual(["payment.pending", "payment.failed"]);
  });

  it("will not settle another merchant's payment when scoped", async () => {
    const owner = await newMerchant("Settlement");
    const intruder = await newMerchant("Settlement");
    const paymentId = await pendingPayment(owner);
    await expect(settlePayment(db, paymentId, { outcome: "completed" }, intruder)).rejects.toMatchObject({
      kind: "not_found",
    });
    const [row] = await db
      .select({ status: payments.status })
      .from(payments)
      .where(eq(payments.id, paymentId));
    expect(row!.status).toBe("pending");
  });
});

describe("automatic settlement by the simulated processor", () => {
  it("completes most amounts and fails 2000.00 to 2999.99, once each", async () => {
    const merchantId = await newMerchant("Settlement");
    const ids: Record<string, number> = {};
    for (const amount of ["1999.99", "2000.00", "2999.99", "3000.00"]) {
      ids[amount] = (
        await createPayment(db, merchantId, { amount }, { source: "cli", autoSettleMs: 1 })
      ).paymentId;
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
    while ((await settleDuePayments(db)) > 0);
    const statuses: Record<string, string> = {};
    const reasons: Record<string, string | null> = {};
    for (const [amount, id] of Object.entries(ids)) {
      const [row] = await db
        .select({ status: payments.status, failureReason: payments.failureReason })
        .from(payments)
        .where(eq(payments.id, id));
      statuses[amount] = row!.status;
      reasons[amount] = row!.failureReason;
    }
    expect(statuses).toEqual({
      "1999.99": "completed",
      "2000.00": "failed",
      "2999.99": "failed",
      "3000.00": "completed",
    });
    // A failure says why, in the merchant's words; a completion has no reason.
    const testRange =
      "Declined by the test processor: the amount is in the 2000.00–2999.99 test range, which always fails.";
    expect(reasons).toEqual({ "1999.99": null, "2000.00": testRange, "2999.99": testRange, "3000.00": null });
    // Another pass settles nothing of these again. (It may settle other suites' payments that fell due
    // meanwhile: the database is shared, so the count it returns says nothing about this test's.)
    await settleDuePayments(db);
    for (const [amount, id] of Object.entries(ids)) {
      expect(await eventTypes(id)).toEqual(["payment.pending", `payment.${statuses[amount]}`]);
    }
  });
});
