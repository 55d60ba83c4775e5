import "server-only";
import { createHash } from "node:crypto";
import { and, eq, sql, type SQL } from "drizzle-orm";
import { selectRows, type Executor } from "@/db/client";
import { idempotencyKeys, payments } from "@/db/schema";
import { DomainError } from "./errors";
import { recordPaymentEvent } from "./events";
import { createPaymentSchema, type PaymentListItem, type PaymentResource, type PaymentStatus } from "./payment-schemas";
import { parseInput } from "./validation";

type PaymentRow = {
  id: number | string;
  external_id: string | null;
  status: string;
  amount: string;
  metadata?: string | null;
  created_at: Date | string;
};

function isoTimestamp(value: Date | string): string {
  return (value instanceof Date ? value : new Date(value)).toISOString();
}

/**
 * Exactly the fields of a list item (paymentListItemSchema, which documents them), built field by field so
 * nothing else a row carries can leak; no per-row validation on the hot path, the database's constraints
 * already guarantee the values.
 */
export function toPaymentListItem(row: PaymentRow): PaymentListItem {
  return {
    id: Number(row.id),
    external_id: row.external_id,
    type: "payment",
    status: row.status as PaymentStatus,
    amount: row.amount,
    created_at: isoTimestamp(row.created_at),
  };
}

/** A full payment (paymentSchema): the list fields, then metadata, in the contract's field order. */
export function toPaymentResource(row: PaymentRow): PaymentResource {
  const { created_at, ...listFields } = toPaymentListItem(row);
  return { ...listFields, metadata: row.metadata ?? null, created_at };
}

export type CreatePaymentOptions = {
  source: "api" | "dashboard" | "cli";
  /** Delay before the simulated processor settles it; 0 leaves it pending until settled by hand. */
  autoSettleMs: number;
  /** Optional Idempotency-Key: a replay returns the first payment's id instead of creating another. */
  idempotencyKey?: string;
};

export type NewPayment = {
  amount: string;
  external_id: string | null;
  customer_id: string | null;
  metadata: string | null;
  source: CreatePaymentOptions["source"];
  autoSettleMs: number;
};

/**
 * Takes the next sequence number from the merchant's counter and inserts the payment, in one round trip:
 * the merchant row lock orders creations, so the count is the payment's dense sequence number, and
 * clock_timestamp() read under the lock keeps created_at in the same order. No row when the merchant does
 * not exist. Exported so the benchmark's bare baseline runs the same SQL.
 */
export function paymentInsertQuery(merchantId: number, payment: NewPayment): SQL {
  return sql`
      with sequence as (
        update merchants set payments_count = payments_count + 1 where id = ${merchantId}
        returning payments_count as seq, clock_timestamp() as at
      )
      insert into payments (merchant_id, merchant_seq, external_id, customer_id, amount, metadata, source, settle_at, created_at, updated_at)
      select ${merchantId}::bigint, seq, ${payment.external_id}::text, ${payment.customer_id}::text, ${payment.amount}::numeric,
             ${payment.metadata}::text, ${payment.source}::text,
             case when ${payment.autoSettleMs}::int > 0 then at + ${payment.autoSettleMs}::int * interval '1 millisecond' end,
             at, at
      from sequence
      returning id, created_at`;
}

export type CreatePaymentResult = { paymentId: number; replayed: boolean };

/**
 * Creates a payment and its `payment.pending` event (with deliveries) in one transaction. The one domain
 * function behind the API, the dashboard's test payments and the CLI.
 */
export async function createPayment(
  db: Executor,
  merchantId: number,
  input: unknown,
  options: CreatePaymentOptions,
): Promise<CreatePaymentResult> {
  const data = parseInput(createPaymentSchema, input);
  const metadata = data.customer_id === null ? null : JSON.stringify({ customer_id: data.customer_id });
  const requestHash = createHash("sha256").update(JSON.stringify(data)).digest("hex");

  return db.transaction(async (tx) => {
    if (options.idempotencyKey !== undefined) {
      // A concurrent request with the same key waits here on the unique index until the first commits.
      const [claimed] = await tx
        .insert(idempotencyKeys)
        .values({ merchantId, key: options.idempotencyKey, requestHash })
        .onConflictDoUpdate({
          target: [idempotencyKeys.merchantId, idempotencyKeys.key],
          set: { requestHash, paymentId: null, createdAt: sql`now()` },
          // Keys are remembered for 24 hours; an older one is free to reuse.
          setWhere: sql`${idempotencyKeys.createdAt} < now() - interval '24 hours'`,
        })
        .returning({ id: idempotencyKeys.id });
      if (!claimed) {
        const [existing] = await tx
          .select({ requestHash: idempotencyKeys.requestHash, paymentId: idempotencyKeys.paymentId })
          .from(idempotencyKeys)
          .where(and(eq(idempotencyKeys.merchantId, merchantId), eq(idempotencyKeys.key, options.idempotencyKey)));
        if (!existing || existing.requestHash !== requestHash || existing.paymentId === null) {
          throw new DomainError("conflict", "This Idempotency-Key was already used with a different request body.");
        }
        return { paymentId: existing.paymentId, replayed: true };
      }
    }

    const [payment] = await selectRows<{ id: number | string; created_at: Date | string }>(
      tx,
      paymentInsertQuery(merchantId, { ...data, metadata, source: options.source, autoSettleMs: options.autoSettleMs }),
    );
    if (!payment) throw new DomainError("not_found", "Merchant not found.");
    const resource = toPaymentResource({ id: payment.id, external_id: data.external_id, status: "pending", amount: data.amount, metadata, created_at: payment.created_at });
    await recordPaymentEvent(tx, merchantId, "payment.pending", resource);
    if (options.idempotencyKey !== undefined) {
      await tx
        .update(idempotencyKeys)
        .set({ paymentId: Number(payment.id) })
        .where(and(eq(idempotencyKeys.merchantId, merchantId), eq(idempotencyKeys.key, options.idempotencyKey)));
    }
    return { paymentId: Number(payment.id), replayed: false };
  });
}

export type PaymentPage = { items: PaymentListItem[]; total: number };

/** The list statement, exported so the benchmark's bare baseline runs exactly the same SQL. */
export function listPaymentsQuery(merchantId: number, offset: number, perPage: number): SQL {
  return sql`
      select p.id, p.external_id, p.status, p.amount, p.created_at, m.payments_count as total
      from merchants m
      left join lateral (
        select id, external_id, status, amount, created_at from payments
        where merchant_id = m.id and merchant_seq <= m.payments_count - ${offset}
        order by merchant_seq desc
        limit ${perPage}
      ) p on true
      where m.id = ${merchantId}`;
}

/**
 * Lists a merchant's payments newest first. Sequence numbers are dense, so page N is an index range on
 * (merchant_id, merchant_seq), not an OFFSET scan: page 10,000 costs what page 1 costs. Total and page come
 * back in one round trip.
 */
export async function listPayments(db: Executor, merchantId: number, page: number, perPage: number): Promise<PaymentPage> {
  const offset = (page - 1) * perPage;
  const rows = await selectRows<PaymentRow & { total: number | string; id: number | string | null }>(
    db,
    listPaymentsQuery(merchantId, offset, perPage),
  );
  const total = Number(rows[0]?.total ?? 0);
  return { items: rows.filter((row) => row.id !== null).map(toPaymentListItem), total };
}

export type PaymentLookup = { payment: PaymentResource; merchantId: number } | undefined;

/** Finds a payment by id whoever owns it, so the caller can tell "not yours" (403) from "no such" (404). */
export async function findPayment(db: Executor, paymentId: number): Promise<PaymentLookup> {
  const [row] = await db
    .select({
      id: payments.id,
      merchantId: payments.merchantId,
      external_id: payments.externalId,
      status: payments.status,
      amount: payments.amount,
      metadata: payments.metadata,
      created_at: payments.createdAt,
    })
    .from(payments)
    .where(eq(payments.id, paymentId))
    .limit(1);
  return row ? { payment: toPaymentResource(row), merchantId: row.merchantId } : undefined;
}

export type PaymentDetail = PaymentResource & { customerId: string | null; source: string; settledAt: Date | null; updatedAt: Date };

/** One of the merchant's payments with everything the dashboard shows; undefined for another merchant's. */
export async function getMerchantPayment(db: Executor, merchantId: number, paymentId: number): Promise<PaymentDetail | undefined> {
  const [row] = await db
    .select({
      id: payments.id,
      external_id: payments.externalId,
      status: payments.status,
      amount: payments.amount,
      metadata: payments.metadata,
      created_at: payments.createdAt,
      customerId: payments.customerId,
      source: payments.source,
      settledAt: payments.settledAt,
      updatedAt: payments.updatedAt,
    })
    .from(payments)
    .where(and(eq(payments.id, paymentId), eq(payments.merchantId, merchantId)))
    .limit(1);
  return row ? { ...toPaymentResource(row), customerId: row.customerId, source: row.source, settledAt: row.settledAt, updatedAt: row.updatedAt } : undefined;
}
