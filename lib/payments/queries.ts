import "server-only";
import { and, eq, sql, type SQL } from "drizzle-orm";
import { selectStatement, type Executor } from "@/db/client";
import { checkouts, paymentLinks, payments } from "@/db/schema";
import { Statement } from "@/db/statement";
import { inMinorUnits } from "@/lib/money/amount";
import { checkoutUrlOf } from "./checkout-token";
import { hasPaymentFilter, listFilteredPayments, type PaymentFilter } from "./list";
import { toPaymentListItem, toPaymentResource, type PaymentRow } from "./resource";
import type { PaymentListItem, PaymentResource, RetrievedPayment } from "./schemas";

export type PaymentPage = { items: PaymentListItem[]; total: number };

/**
 * The list statement, exported so the benchmark's bare baseline runs exactly the same SQL. The dashboard
 * also asks for the customer and the refunded sum, which the API's list item does not carry.
 */
export function listPaymentsQuery(
  merchantId: number,
  offset: number,
  perPage: number,
  forDashboard = false,
): SQL {
  return offset === 0
    ? firstPageQuery(merchantId, perPage, forDashboard)
    : laterPageQuery(merchantId, offset, perPage, forDashboard);
}

const dashboardColumns = (forDashboard: boolean) =>
  forDashboard ? sql`, customer_id, amount_refunded` : sql``;

/**
 * Page 1 reads one table: sequence numbers are dense and payments are never deleted, so the newest payment's
 * number is the count. A single-table statement is also one Citus plans on its fast path (docs/scaling.md).
 */
function firstPageQuery(merchantId: number, perPage: number, forDashboard: boolean): SQL {
  return sql`
      select id, external_id${dashboardColumns(forDashboard)}, status, amount, currency, created_at,
        merchant_seq as total
      from payments where merchant_id = ${merchantId}
      order by merchant_seq desc
      limit ${perPage}`;
}

/** A later page: the count from the merchant's sequence row, then the index range below it. */
function laterPageQuery(merchantId: number, offset: number, perPage: number, forDashboard: boolean): SQL {
  return sql`
      select p.*, coalesce(s.payments_count, 0) as total
      from (select ${merchantId}::bigint as merchant_id) m
      left join payment_sequences s on s.merchant_id = m.merchant_id
      left join lateral (
        select id, external_id${dashboardColumns(forDashboard)}, status, amount, currency, created_at from payments
        where merchant_id = m.merchant_id and merchant_seq <= s.payments_count - ${offset}
        order by merchant_seq desc
        limit ${perPage}
      ) p on true`;
}

type ListRow = PaymentRow & { total: number | string; id: number | string | null };

type ListValues = { merchantId: number; offset: number; perPage: number };

/** The API's list statements, compiled once (page 1 reads no offset). */
const listPaymentsStatements = {
  firstPage: new Statement<ListValues, ListRow>((values) =>
    firstPageQuery(values.merchantId, values.perPage, false),
  ),
  laterPage: new Statement<ListValues, ListRow>((values) =>
    laterPageQuery(values.merchantId, values.offset, values.perPage, false),
  ),
};

/** The statement for the page at `offset`; the benchmark's bare baseline runs it too. */
export function listPageStatement(offset: number): Statement<ListValues, ListRow> {
  return offset === 0 ? listPaymentsStatements.firstPage : listPaymentsStatements.laterPage;
}

/**
 * Lists a merchant's payments newest first. Unfiltered, sequence numbers are dense, so page N is an index
 * range on (merchant_id, merchant_seq), not an OFFSET scan: page 10,000 costs what page 1 costs, and total
 * and page come back in one round trip. Filtered, the daily totals find the page (lib/payments/list.ts).
 */
export async function listPayments(
  db: Executor,
  merchantId: number,
  page: number,
  perPage: number,
  filter: PaymentFilter = {},
): Promise<PaymentPage> {
  const offset = (page - 1) * perPage;
  if (hasPaymentFilter(filter)) {
    const { rows, total } = await listFilteredPayments<PaymentRow>(
      db,
      merchantId,
      filter,
      { offset, limit: perPage },
      sql`id, external_id, status, amount, currency, created_at`,
    );
    return { items: rows.map(toPaymentListItem), total };
  }
  const rows = await selectStatement(db, listPageStatement(offset), { merchantId, offset, perPage });
  const total = Number(rows[0]?.total ?? 0);
  return { items: rows.filter((row) => row.id !== null).map(toPaymentListItem), total };
}

export type PaymentLookup = { payment: RetrievedPayment; merchantId: number } | undefined;

/**
 * What refunds have taken from a payment, as text (numeric arithmetic in PostgreSQL, never a float). Nothing
 * is refundable while a dispute is open or lost: the bank has the money (DESIGN.md, "Disputed money").
 */
export const refundSums = {
  amount_refunded: sql<string>`${payments.amountRefunded}::text`,
  amount_refundable: sql<string>`(case when ${payments.status} = 'completed'
      and coalesce(${payments.disputeStatus} in ('won', 'warning_closed'), true)
    then ${payments.amount} - ${payments.amountRefunded} - ${payments.amountRefundPending} else 0 end)::text`,
};

/** One of the merchant's payments by id; undefined when it has none with the id (see refuseUnowned). */
export async function findPayment(
  db: Executor,
  merchantId: number,
  paymentId: number,
): Promise<PaymentLookup> {
  const [row] = await db
    .select({
      id: payments.id,
      merchantId: payments.merchantId,
      external_id: payments.externalId,
      status: payments.status,
      amount: payments.amount,
      currency: payments.currency,
      metadata: payments.metadata,
      customer_id: payments.customerId,
      created_at: payments.createdAt,
      payment_method: payments.paymentMethod,
      failure_code: payments.failureCode,
      failure_reason: payments.failureReason,
      fee: payments.fee,
      net: payments.net,
      processor: payments.processor,
      processor_payment_id: payments.processorPaymentId,
      checkoutToken: checkouts.tokenCiphertext,
      hostedUrl: checkouts.hostedUrlCiphertext,
      ...refundSums,
    })
    .from(payments)
    .leftJoin(
      checkouts,
      and(eq(checkouts.paymentId, payments.id), eq(checkouts.merchantId, payments.merchantId)),
    )
    .where(and(eq(payments.merchantId, merchantId), eq(payments.id, paymentId)))
    .limit(1);
  if (!row) return undefined;
  const amount_refunded = inMinorUnits(row.amount_refunded, row.currency);
  const amount_refundable = inMinorUnits(row.amount_refundable, row.currency);
  const checkoutUrl = row.status === "pending" ? checkoutUrlOf(row.checkoutToken, row.hostedUrl) : null;
  return {
    payment: { ...toPaymentResource(row, checkoutUrl), amount_refunded, amount_refundable },
    merchantId: row.merchantId,
  };
}

export type PaymentDetail = PaymentResource & {
  returnUrl: string | null;
  /** The payment link it was opened from, if any. */
  paymentLink: { id: number; name: string } | null;
  /** Succeeded refunds, and what is left to refund (0 unless completed); decimal strings. */
  amountRefunded: string;
  amountRefundable: string;
  customerId: string | null;
  source: string;
  settledAt: Date | null;
  failureReason: string | null;
  updatedAt: Date;
};

/** One of the merchant's payments with everything the dashboard shows; undefined for another merchant's. */
export async function getMerchantPayment(
  db: Executor,
  merchantId: number,
  paymentId: number,
): Promise<PaymentDetail | undefined> {
  const [row] = await db
    .select({
      id: payments.id,
      external_id: payments.externalId,
      status: payments.status,
      amount: payments.amount,
      currency: payments.currency,
      metadata: payments.metadata,
      created_at: payments.createdAt,
      customer_id: payments.customerId,
      source: payments.source,
      settledAt: payments.settledAt,
      failure_code: payments.failureCode,
      failure_reason: payments.failureReason,
      fee: payments.fee,
      net: payments.net,
      processor: payments.processor,
      processor_payment_id: payments.processorPaymentId,
      updatedAt: payments.updatedAt,
      amountRefunded: refundSums.amount_refunded,
      amountRefundable: refundSums.amount_refundable,
      payment_method: payments.paymentMethod,
      checkoutToken: checkouts.tokenCiphertext,
      hostedUrl: checkouts.hostedUrlCiphertext,
      returnUrl: checkouts.returnUrl,
      paymentLinkId: paymentLinks.id,
      paymentLinkName: paymentLinks.name,
    })
    .from(payments)
    .leftJoin(checkouts, and(eq(checkouts.paymentId, payments.id), eq(checkouts.merchantId, merchantId)))
    .leftJoin(
      paymentLinks,
      and(eq(paymentLinks.id, checkouts.paymentLinkId), eq(paymentLinks.merchantId, merchantId)),
    )
    .where(and(eq(payments.id, paymentId), eq(payments.merchantId, merchantId)))
    .limit(1);
  if (!row) return undefined;
  const { source, settledAt, updatedAt, amountRefunded, amountRefundable } = row;
  const checkoutUrl = row.status === "pending" ? checkoutUrlOf(row.checkoutToken, row.hostedUrl) : null;
  return {
    ...toPaymentResource(row, checkoutUrl),
    returnUrl: row.returnUrl,
    paymentLink:
      row.paymentLinkId === null ? null : { id: row.paymentLinkId, name: row.paymentLinkName ?? "" },
    amountRefunded: inMinorUnits(amountRefunded, row.currency),
    amountRefundable: inMinorUnits(amountRefundable, row.currency),
    customerId: row.customer_id,
    source,
    settledAt,
    failureReason: row.failure_reason,
    updatedAt,
  };
}
