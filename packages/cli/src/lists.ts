import type {
  Dispute,
  Event,
  PaymentFilters,
  PaymentListItem,
  Payments,
  Refund,
} from "@payments-platform/sdk";
import { CliError, emit, EXIT, failureSuffix, plural, timestamp } from "./output.js";

/** A count option: a whole number from 1. */
export function parsePositiveInt(value: string): number {
  if (!/^[1-9]\d{0,5}$/.test(value))
    throw new CliError(`Expected a whole number from 1, got ${value}.`, EXIT.usage);
  return Number(value);
}

/** The first `limit` items of an SDK list (an async iterator over every page). */
export async function take<T>(items: AsyncGenerator<T>, limit: number): Promise<T[]> {
  const taken: T[] = [];
  for await (const item of items) {
    taken.push(item);
    if (taken.length >= limit) break;
  }
  return taken;
}

/**
 * `payments events list`: newest first, one line each (id, type, time, the payment or refund and its amount,
 * and for a failed payment why).
 */
export async function listEvents(
  client: Payments,
  options: { type?: string; payment?: number; limit: number; json?: boolean },
): Promise<void> {
  const events = await take(
    client.events.list({
      // The API refuses an unknown type (422, which the CLI prints).
      type: options.type as Event["event"] | undefined,
      paymentId: options.payment,
      perPage: Math.min(options.limit, 100),
    }),
    options.limit,
  );
  for (const event of events) {
    const data = event.data as { id?: number; amount?: string; currency?: string; status?: string };
    const money = [data.amount, data.currency].filter(Boolean).join(" ");
    const line = `${timestamp(event.created_at)}  ${event.id}  ${event.event.padEnd(18)} ${data.id ?? ""} ${money}`;
    emit(options.json === true, { type: "event", ...event }, `${line.trimEnd()}${failureSuffix(event.data)}`);
  }
  if (events.length === 0 && options.json !== true) emit(false, {}, "No events.");
}

/** One line (or JSON object) per item; with none, a line that says so (nothing with --json). */
export function printEach<T extends object>(
  items: T[],
  options: { json?: boolean; type: string; none: string },
  line: (item: T) => string,
): void {
  for (const item of items) emit(options.json === true, { type: options.type, ...item }, line(item));
  if (items.length === 0 && options.json !== true) emit(false, {}, options.none);
}

/** A customer's sums of one kind, one per currency: "12.50 EUR, 1500 JPY" (never one total). */
function volumes(
  entries: Array<{ currency: string; completed: string; refunded: string }>,
  kind: "completed" | "refunded",
): string {
  return entries.length === 0 ? "—" : entries.map((entry) => `${entry[kind]} ${entry.currency}`).join(", ");
}

/** `payments customers list`: the latest payment first, with counts and sums. */
export async function listCustomers(
  client: Payments,
  options: { limit: number; json?: boolean },
): Promise<void> {
  const customers = await take(
    client.customers.list({ perPage: Math.min(options.limit, 100) }),
    options.limit,
  );
  printEach(
    customers,
    { json: options.json, type: "customer", none: "No customers yet." },
    (customer) =>
      `${customer.id}  ${plural(customer.payments_count, "payment")}  completed ${volumes(customer.volumes, "completed")}  refunded ${volumes(customer.volumes, "refunded")}  last ${timestamp(customer.last_payment_at)}`,
  );
}

/** Where a list starts and how long it is: `--page` counts pages of `--limit` items (of 100 beyond that). */
export type ListWindow = { limit: number; page?: number; json?: boolean };

/** `payments payments list`: newest first, narrowed by the API's filters; one line per payment. */
export async function listPayments(
  client: Payments,
  options: ListWindow & {
    status?: PaymentFilters["status"];
    externalId?: string;
    customer?: string;
    refundStatus?: PaymentFilters["refundStatus"];
    currency?: string;
    createdFrom?: string;
    createdTo?: string;
  },
): Promise<void> {
  const payments = await take(
    client.payments.list({
      // Dates go as typed: the API reads ISO 8601 and refuses anything else with a 422 naming the flag's field.
      status: options.status,
      externalId: options.externalId,
      customerId: options.customer,
      refundStatus: options.refundStatus,
      currency: options.currency,
      createdFrom: options.createdFrom,
      createdTo: options.createdTo,
      page: options.page,
      perPage: Math.min(options.limit, 100),
    }),
    options.limit,
  );
  printEach(
    payments,
    { json: options.json, type: "payment", none: "No payments." },
    (payment: PaymentListItem) =>
      `${timestamp(payment.created_at)}  ${payment.id}  ${payment.status.padEnd(9)}  ${payment.amount} ${payment.currency}  ${payment.external_id ?? ""}`.trimEnd(),
  );
}

/** `payments refunds list`: every refund of the account, newest first, by status or payment. */
export async function listRefunds(
  client: Payments,
  options: ListWindow & { status?: Refund["status"]; payment?: number },
): Promise<void> {
  const refunds = await take(
    client.refunds.listAll({
      status: options.status,
      paymentId: options.payment,
      page: options.page,
      perPage: Math.min(options.limit, 100),
    }),
    options.limit,
  );
  printEach(refunds, { json: options.json, type: "refund", none: "No refunds." }, (refund) =>
    `${timestamp(refund.created_at)}  ${refund.id}  ${refund.status.padEnd(9)}  ${refund.amount} ${refund.currency}  payment ${refund.payment_id}  ${refund.reason ?? ""}`.trimEnd(),
  );
}

/** `payments payouts list`: newest first, one line each (when, id, status, amount, arrival, why it failed). */
export async function listPayouts(client: Payments, options: ListWindow): Promise<void> {
  const payouts = await take(
    client.payouts.list({ page: options.page, perPage: Math.min(options.limit, 100) }),
    options.limit,
  );
  printEach(payouts, { json: options.json, type: "payout", none: "No payouts yet." }, (payout) =>
    `${timestamp(payout.created_at)}  ${payout.id}  ${payout.status.padEnd(10)}  ${payout.amount} ${payout.currency}  arrives ${payout.arrival_date}  to ••••${payout.destination_last4}  ${payout.failure_reason ?? ""}`.trimEnd(),
  );
}

/** A dispute the bank has decided (or an inquiry it closed): nothing is due any more. */
const CLOSED_DISPUTE: ReadonlySet<Dispute["status"]> = new Set(["won", "lost", "warning_closed"]);

/** An open dispute's deadline (`due …`), or when a closed one closed (`closed …`): never a past due date. */
function disputeDeadline(dispute: Dispute): string {
  if (!CLOSED_DISPUTE.has(dispute.status)) return `due ${timestamp(dispute.evidence_due_by)}`;
  return dispute.closed_at === null ? "closed" : `closed ${timestamp(dispute.closed_at)}`;
}

/**
 * `payments disputes list`: newest first, by status; one line each (when, id, status, amount, payment,
 * reason, and the deadline of an open one or the time a closed one closed).
 */
export async function listDisputes(
  client: Payments,
  options: ListWindow & { status?: Dispute["status"]; payment?: number },
): Promise<void> {
  const disputes = await take(
    client.disputes.list({
      status: options.status,
      paymentId: options.payment,
      page: options.page,
      perPage: Math.min(options.limit, 100),
    }),
    options.limit,
  );
  printEach(
    disputes,
    { json: options.json, type: "dispute", none: "No disputes." },
    (dispute) =>
      `${timestamp(dispute.created_at)}  ${dispute.id}  ${dispute.status.padEnd(22)}  ${dispute.amount} ${dispute.currency}  payment ${dispute.payment_id}  ${dispute.reason}  ${disputeDeadline(dispute)}`,
  );
}
