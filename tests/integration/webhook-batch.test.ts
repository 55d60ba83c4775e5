import { randomBytes } from "node:crypto";
import { eq, inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { webhookAttempts, webhookDeliveries } from "@/db/schema";
import { createMerchantWithOwner } from "@/lib/accounts/accounts";
import { createPayment } from "@/lib/payments/create-payment";
import { recordAttempts, type AttemptOutcome } from "@/lib/webhooks/delivery-queue";
import { createWebhookEndpoint, deleteWebhookEndpoint } from "@/lib/webhooks/endpoints";
import { db } from "../support/direct-db";

async function merchantWithDeliveries(label: string, payments: number) {
  const account = await createMerchantWithOwner(db, {
    name: label,
    email: `${label}-${randomBytes(5).toString("hex")}@example.test`,
    password: "long enough pw",
  });
  const endpoint = await createWebhookEndpoint(db, account.merchantId, {
    url: `https://${label}.example.com/hooks`,
    events: ["payment.pending"],
  });
  for (let index = 0; index < payments; index++)
    await createPayment(db, account.merchantId, { amount: 1 }, { source: "cli", autoSettleMs: 0 });
  const deliveries = await db
    .select()
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.merchantId, account.merchantId));
  return { merchantId: account.merchantId, endpointId: endpoint.id, deliveries };
}

function succeeded(delivery: typeof webhookDeliveries.$inferSelect): AttemptOutcome {
  return {
    delivery: {
      id: delivery.id,
      merchantId: delivery.merchantId,
      endpointId: delivery.endpointId,
      eventId: delivery.eventId,
      eventType: "payment.pending",
      data: {},
      attemptCount: delivery.attemptCount,
      kind: "url",
      url: "https://example.com",
      secrets: [],
      problem: null,
    },
    attemptedAt: new Date(),
    status: 200,
    latencyMs: 5,
    error: null,
    excerpt: null,
    deliveryStatus: "succeeded",
    nextAttemptAt: new Date(),
    gone: false,
  };
}

describe("recording a batch of delivery attempts", () => {
  it("an endpoint deleted while its deliveries were being sent loses only its own results", async () => {
    const doomed = await merchantWithDeliveries("doomed", 3);
    const kept = await merchantWithDeliveries("kept", 4);
    // The worker claimed both merchants' deliveries into one batch; the first merchant deletes its endpoint
    // (cascading to its deliveries) before the batch's results are recorded.
    const batch = [...doomed.deliveries, ...kept.deliveries].map(succeeded);
    await deleteWebhookEndpoint(db, doomed.merchantId, doomed.endpointId);

    await expect(recordAttempts(db, batch)).resolves.toBeUndefined();

    // Every other delivery is recorded once, as succeeded: none of them is due to be sent again.
    const keptIds = kept.deliveries.map((delivery) => delivery.id);
    const rows = await db.select().from(webhookDeliveries).where(inArray(webhookDeliveries.id, keptIds));
    expect(rows.map((row) => [row.status, row.attemptCount])).toEqual(keptIds.map(() => ["succeeded", 1]));
    const attempts = await db
      .select({ deliveryId: webhookAttempts.deliveryId })
      .from(webhookAttempts)
      .where(inArray(webhookAttempts.deliveryId, [...keptIds, ...doomed.deliveries.map((row) => row.id)]));
    expect(attempts.map((attempt) => attempt.deliveryId).sort()).toEqual([...keptIds].sort());
  });
});
