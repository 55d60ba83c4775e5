// A merchant with history: payments and refunds made through the domain functions, then the older ones moved
// back 40 days (their rows and the daily totals that count them), as if made then. The Overview's ranges and
// the CSV's date filter are checked against it (e2e/dashboard-details.spec.ts).
import { sql } from "drizzle-orm";
import { selectRows, type Executor } from "@/db/client";
import { createPayment } from "@/lib/payments/create-payment";
import { settlePayment } from "@/lib/payments/settlement";
import { createRefund } from "@/lib/refunds/create-refund";
import { settleRefund } from "@/lib/refunds/settlement";
import { createWebhookEndpoint } from "@/lib/webhooks/endpoints";
import { captureInboxDelivery } from "@/lib/webhooks/inbox";
import { webhookBody } from "@/lib/webhooks/send";

type Made = { amount: string; outcome?: "completed" | "failed"; refund?: string };

async function make(db: Executor, merchantId: number, payments: Made[]) {
  for (const { amount, outcome, refund } of payments) {
    const { paymentId } = await createPayment(db, merchantId, { amount }, { source: "api", autoSettleMs: 0 });
    if (outcome) await settlePayment(db, paymentId, { outcome }, merchantId);
    if (refund) {
      const { refundId } = await createRefund(
        db,
        merchantId,
        paymentId,
        { amount: refund },
        { autoSettleMs: 0 },
      );
      await settleRefund(db, refundId, { outcome: "succeeded" }, merchantId);
    }
  }
}

/** Moves every row of the merchant's payments, refunds and their daily totals `days` back. */
async function moveBack(db: Executor, merchantId: number, days: number) {
  // In UTC, where a day is 24 hours: immutable arithmetic, which Citus lets an UPDATE apply to a column.
  const back = (column: string) =>
    sql`${sql.identifier(column)} = timezone('UTC', timezone('UTC', ${sql.identifier(column)}) - ${days} * interval '1 day')`;
  await db.execute(
    sql`update payments set ${back("created_at")}, ${back("settled_at")}, ${back("updated_at")}
        where merchant_id = ${merchantId}`,
  );
  await db.execute(
    sql`update refunds set ${back("created_at")}, ${back("settled_at")} where merchant_id = ${merchantId}`,
  );
  for (const table of ["payment_daily_totals", "refund_daily_totals", "refund_daily_counts"])
    await db.execute(
      sql`update ${sql.identifier(table)} set day = day - ${days}::int where merchant_id = ${merchantId}`,
    );
}

/**
 * An inbox holding one capture of the newest payment.completed, signed and received 10 minutes ago (through
 * the worker's own capture function): the signature debugger must judge it as it was received.
 */
async function oldInboxCapture(db: Executor, merchantId: number) {
  const inbox = await createWebhookEndpoint(db, merchantId, { kind: "inbox", description: "History" });
  const [event] = await selectRows<{ id: string; data: unknown }>(
    db,
    sql`select id, data from events where merchant_id = ${merchantId} and type = 'payment.completed'
        order by created_at desc limit 1`,
  );
  const delivery = {
    id: 0,
    merchantId,
    endpointId: inbox.id,
    eventId: event!.id,
    eventType: "payment.completed" as const,
    data: event!.data,
    attemptCount: 0,
    kind: "inbox" as const,
    url: "",
    secrets: [inbox.secret],
    problem: null,
  };
  const message = {
    url: "",
    eventId: event!.id,
    timestamp: new Date(Date.now() - 10 * 60_000),
    body: webhookBody("payment.completed", event!.data),
    secrets: [inbox.secret],
  };
  // Verified on arrival as the worker would have 10 minutes ago: the library reads the clock through Date.now.
  const realNow = Date.now;
  Date.now = () => message.timestamp.getTime();
  try {
    await captureInboxDelivery(db, delivery, message, 10_000);
  } finally {
    Date.now = realNow;
  }
  // Received when it was signed. Set, not shifted: the embedded database reads its clock through Date.now
  // too, so there the capture already carries the mocked time, and a shift made it 20 minutes old.
  await db.execute(
    sql`update webhook_inbox_captures set received_at = ${message.timestamp.toISOString()}::timestamptz
        where merchant_id = ${merchantId} and endpoint_id = ${inbox.id}`,
  );
}

/**
 * 40 days ago: 100.00 completed (20.00 of it refunded) and 2500.00 failed. Today: 12.50 completed, 7.25
 * completed (2.25 refunded), 5.00 completed and refunded, and 3.00 pending. So 7 days: gross 24.75, refunded
 * 7.25, net 17.50; 90 days: gross 124.75, refunded 27.25, net 97.50. And an inbox with a 10-minute-old capture.
 */
export async function seedHistory(db: Executor, merchantId: number) {
  await make(db, merchantId, [
    { amount: "100.00", outcome: "completed", refund: "20.00" },
    { amount: "2500.00", outcome: "failed" },
  ]);
  await moveBack(db, merchantId, 40);
  await make(db, merchantId, [
    { amount: "12.50", outcome: "completed" },
    { amount: "7.25", outcome: "completed", refund: "2.25" },
    { amount: "5.00", outcome: "completed", refund: "5.00" },
    { amount: "3.00" },
  ]);
  await oldInboxCapture(db, merchantId);
}
