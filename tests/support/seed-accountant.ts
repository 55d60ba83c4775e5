// A merchant whose last UTC month is closed, for the accountant's reports (tests/integration/reports.test.ts):
// every kind of balance transaction made through the domain functions (payments, a refund, a dispute lost and
// one won, a payout that fails and one that is paid), then its balance transactions and their daily totals moved
// back into the previous month, as if made then. Returns that month's first day.
import { sql } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { decideDisputeNow, disputePaymentNow } from "@/lib/disputes/simulator";
import { releaseMerchantBalance } from "@/lib/ledger/release";
import { createPayment } from "@/lib/payments/create-payment";
import { settlePayment } from "@/lib/payments/settlement";
import { setPayoutAccount } from "@/lib/payouts/account";
import { createPayout, settlePayout } from "@/lib/payouts/payouts";
import { createRefund } from "@/lib/refunds/create-refund";
import { settleRefund } from "@/lib/refunds/settlement";

export async function seedAccountant(db: Executor, merchantId: number): Promise<{ month: string }> {
  const completed = async (amount: string) => {
    const { paymentId } = await createPayment(
      db,
      merchantId,
      { amount, currency: "EUR", external_id: `order-${amount}`, customer_id: "cus_accountant" },
      { source: "api", autoSettleMs: 0 },
    );
    await settlePayment(db, paymentId, { outcome: "completed" }, merchantId);
    return paymentId;
  };
  const refunded = await completed("100.00");
  await completed("40.00");
  const lost = await completed("25.00");
  const won = await completed("10.00");
  const { refundId } = await createRefund(db, merchantId, refunded, { amount: "30.00" }, { autoSettleMs: 0 });
  await settleRefund(db, refundId, { outcome: "succeeded" }, merchantId);
  for (const [paymentId, outcome] of [
    [lost, "lost"],
    [won, "won"],
  ] as const) {
    const dispute = await disputePaymentNow(db, merchantId, paymentId, {});
    await decideDisputeNow(db, merchantId, dispute.id, { outcome });
  }
  await releaseMerchantBalance(db, merchantId);
  // To the closed-account test IBAN: part of it fails and the money comes back; then all that is available to
  // one that pays, which carries the transactions it pays out (a payout's reconciliation).
  const payOut = async (iban: string, amount?: string) => {
    await setPayoutAccount(db, merchantId, { account_holder: "Accountant Ltd", iban });
    const made = await createPayout(
      db,
      merchantId,
      { currency: "EUR", ...(amount ? { amount } : {}) },
      { autoSettleMs: 0 },
    );
    await settlePayout(db, merchantId, made.payout.id, {});
  };
  await payOut("GB33 BUKB 2020 1555 5555 55", "20.00");
  await payOut("DE89 3704 0044 0532 0130 00");

  // Into the previous UTC month: back one day more than today's day of the month. In UTC, where a day is 24
  // hours: immutable arithmetic, which Citus lets an UPDATE apply to a column.
  const now = new Date();
  const days = now.getUTCDate() + 1;
  const back = (column: string) =>
    sql`${sql.identifier(column)} = timezone('UTC', timezone('UTC', ${sql.identifier(column)}) - ${days} * interval '1 day')`;
  await db.execute(
    sql`update balance_transactions set ${back("created_at")}, ${back("available_on")}
        where merchant_id = ${merchantId}`,
  );
  await db.execute(
    sql`update balance_transaction_daily_totals set day = day - ${days}::int where merchant_id = ${merchantId}`,
  );
  await db.execute(
    sql`update balance_transaction_quarter_hour_totals set ${back("quarter_hour")} where merchant_id = ${merchantId}`,
  );
  // The payouts too, so the month's reconciliation lists them.
  await db.execute(
    sql`update payouts set ${back("created_at")}, ${back("updated_at")} where merchant_id = ${merchantId}`,
  );
  const month = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
  return { month: month.toISOString().slice(0, 10) };
}
