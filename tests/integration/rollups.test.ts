// The rollups the lists and Overview read instead of scanning payments, against the payments themselves: after
// creates with and without customers, settles both ways, cancels, refunds that succeed (part, then the rest)
// and fail (and one left pending), the daily totals (the merchant's and each customer's, by status and refund state) and the
// customers table say exactly what an aggregate over payments says, and the refunds' daily counts what one over
// the refunds says; the balance transactions' daily totals what one over the balance transactions says.
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { selectRows } from "@/db/client";
import { createPayment } from "@/lib/payments/create-payment";
import { cancelPayment, settlePayment } from "@/lib/payments/settlement";
import { createRefund } from "@/lib/refunds/create-refund";
import { settleRefund } from "@/lib/refunds/settlement";
import { db, newMerchant } from "../support/direct-db";

const REFUND_STATE = sql`case when amount_refunded = 0 then 'none' when amount_refunded < amount then 'partial' else 'full' end`;

async function rollupsOf(merchantId: number) {
  const totals = await selectRows<Record<string, string>>(
    db,
    sql`select customer_id, to_char(day, 'YYYY-MM-DD') as day, status, refund_state, currency, count::text,
               volume::text
        from payment_daily_totals where merchant_id = ${merchantId} and count <> 0 order by 1, 2, 3, 4, 5`,
  );
  const expected = await selectRows<Record<string, string>>(
    db,
    sql`select scope as customer_id, to_char((created_at at time zone 'UTC')::date, 'YYYY-MM-DD') as day, status,
               ${REFUND_STATE} as refund_state, currency, count(*)::text as count, sum(amount)::text as volume
        from payments, lateral (values (''), (nullif(customer_id, ''))) as scopes (scope)
        where merchant_id = ${merchantId} and scope is not null group by 1, 2, 3, 4, 5 order by 1, 2, 3, 4, 5`,
  );
  const customers = await selectRows<Record<string, string>>(
    db,
    sql`select c.customer_id, c.payments_count::text, v.currency,
               coalesce(v.completed, 0)::numeric(20, 2)::text as completed_volume,
               coalesce(v.refunded, 0)::numeric(20, 2)::text as refunded
        from customers c
        left join customer_volumes v on v.merchant_id = c.merchant_id and v.customer_id = c.customer_id
        where c.merchant_id = ${merchantId} order by 1, 3`,
  );
  const expectedCustomers = await selectRows<Record<string, string>>(
    db,
    sql`select customer_id, (select count(*) from payments c where c.merchant_id = p.merchant_id
                                   and c.customer_id = p.customer_id)::text as payments_count,
               currency,
               coalesce(sum(amount) filter (where status = 'completed'), 0)::numeric(20, 2)::text as completed_volume,
               sum(amount_refunded)::numeric(20, 2)::text as refunded
        from payments p where merchant_id = ${merchantId} and customer_id <> ''
        group by merchant_id, customer_id, currency
        having sum(amount) filter (where status = 'completed') > 0 or sum(amount_refunded) > 0
        order by 1, 3`,
  );
  const refundCounts = await selectRows<Record<string, string>>(
    db,
    sql`select customer_id, to_char(day, 'YYYY-MM-DD') as day, status, count::text
        from refund_daily_counts where merchant_id = ${merchantId} and count <> 0 order by 1, 2, 3`,
  );
  const expectedRefundCounts = await selectRows<Record<string, string>>(
    db,
    sql`select scope as customer_id, to_char((created_at at time zone 'UTC')::date, 'YYYY-MM-DD') as day, status,
               count(*)::text as count
        from refunds, lateral (values (''), (nullif(customer_id, ''))) as scopes (scope)
        where merchant_id = ${merchantId} and scope is not null group by 1, 2, 3 order by 1, 2, 3`,
  );
  const ledgerTotals = await selectRows<Record<string, string>>(
    db,
    sql`select to_char(day, 'YYYY-MM-DD') as day, type, currency, sum(count)::text as count,
               sum(amount)::text as amount, sum(fee)::text as fee, sum(net)::text as net
        from balance_transaction_daily_totals where merchant_id = ${merchantId}
        group by 1, 2, 3 having sum(count) <> 0 order by 1, 2, 3`,
  );
  const expectedLedgerTotals = await selectRows<Record<string, string>>(
    db,
    sql`select to_char((created_at at time zone 'UTC')::date, 'YYYY-MM-DD') as day, type, currency,
               count(*)::text as count, sum(amount)::text as amount, sum(fee)::text as fee, sum(net)::text as net
        from balance_transactions where merchant_id = ${merchantId} group by 1, 2, 3 order by 1, 2, 3`,
  );
  return {
    totals,
    expected,
    customers,
    expectedCustomers,
    refundCounts,
    expectedRefundCounts,
    ledgerTotals,
    expectedLedgerTotals,
  };
}

describe("the payment rollups", () => {
  it("match an aggregate over the payments after every kind of write", async () => {
    const merchantId = await newMerchant("Rollups");
    const create = async (amount: string, customer_id?: string) =>
      (await createPayment(db, merchantId, { amount, customer_id }, { source: "cli", autoSettleMs: 0 }))
        .paymentId;
    const ids = {
      plain: await create("10.00"),
      alice: await create("20.00", "alice"),
      aliceAgain: await create("5.00", "alice"),
      bob: await create("7.00", "bob"),
      bobFailed: await create("3.00", "bob"),
      canceled: await create("4.00", "alice"),
    };
    await settlePayment(db, ids.plain, { outcome: "completed" }, merchantId);
    await settlePayment(db, ids.alice, { outcome: "completed" }, merchantId);
    await settlePayment(db, ids.aliceAgain, { outcome: "completed" }, merchantId);
    await settlePayment(db, ids.bob, { outcome: "completed" }, merchantId);
    await settlePayment(db, ids.bobFailed, { outcome: "failed" }, merchantId);
    await cancelPayment(db, ids.canceled, merchantId);
    const refund = async (paymentId: number, amount: string, outcome: "succeeded" | "failed") => {
      const { refundId } = await createRefund(db, merchantId, paymentId, { amount }, { autoSettleMs: 0 });
      await settleRefund(db, refundId, { outcome }, merchantId);
    };
    await refund(ids.alice, "5.00", "succeeded"); // partial
    await refund(ids.alice, "15.00", "succeeded"); // then full
    await refund(ids.bob, "2.00", "failed"); // nothing taken
    await refund(ids.plain, "1.00", "succeeded"); // partial, no customer
    await refund(ids.aliceAgain, "5.00", "succeeded"); // full at once
    // Still pending: counted as pending in the refunds list's daily counts.
    await createRefund(db, merchantId, ids.bob, { amount: "1.00" }, { autoSettleMs: 0 });

    const { totals, expected, customers, expectedCustomers, refundCounts, expectedRefundCounts, ...ledger } =
      await rollupsOf(merchantId);
    expect(totals).toEqual(expected);
    // The balance transactions' daily totals: 4 payments, 6 refunds (made, so posted) and 1 refund's failure.
    expect(ledger.ledgerTotals).toEqual(ledger.expectedLedgerTotals);
    expect(ledger.ledgerTotals.map(({ type, count }) => [type, count])).toEqual([
      ["payment", "4"],
      ["refund", "6"],
      ["refund_failure", "1"],
    ]);
    expect(refundCounts).toEqual(expectedRefundCounts);
    expect(refundCounts.map(({ customer_id, status, count }) => [customer_id, status, count])).toEqual([
      ["", "failed", "1"],
      ["", "pending", "1"],
      ["", "succeeded", "4"],
      ["alice", "succeeded", "3"],
      ["bob", "failed", "1"],
      ["bob", "pending", "1"],
    ]);
    expect(customers).toEqual(expectedCustomers);
    expect(customers).toEqual([
      {
        customer_id: "alice",
        payments_count: "3",
        currency: "USD",
        completed_volume: "25.00",
        refunded: "25.00",
      },
      {
        customer_id: "bob",
        payments_count: "2",
        currency: "USD",
        completed_volume: "7.00",
        refunded: "0.00",
      },
    ]);
  });
});
