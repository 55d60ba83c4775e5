import type { Event, Payments } from "@payments-platform/sdk";
import { CliError, emit, EXIT, failureSuffix, timestamp } from "./output.js";

/** A count option: a whole number from 1. */
export function parsePositiveInt(value: string): number {
  if (!/^[1-9]\d{0,5}$/.test(value))
    throw new CliError(`Expected a whole number from 1, got ${value}.`, EXIT.usage);
  return Number(value);
}

/** The first `limit` items of an SDK list (an async iterator over every page). */
async function take<T>(items: AsyncGenerator<T>, limit: number): Promise<T[]> {
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
    const data = event.data as { id?: number; amount?: string; status?: string };
    const line = `${timestamp(event.created_at)}  ${event.id}  ${event.event.padEnd(18)} ${data.id ?? ""} ${data.amount ?? ""}`;
    emit(options.json === true, { type: "event", ...event }, `${line.trimEnd()}${failureSuffix(event.data)}`);
  }
  if (events.length === 0 && options.json !== true) emit(false, {}, "No events.");
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
  for (const customer of customers)
    emit(
      options.json === true,
      { type: "customer", ...customer },
      `${customer.id}  ${customer.payments_count} payments  completed ${customer.completed_volume}  refunded ${customer.refunded}  last ${timestamp(customer.last_payment_at)}`,
    );
  if (customers.length === 0 && options.json !== true) emit(false, {}, "No customers yet.");
}
