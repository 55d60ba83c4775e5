import "server-only";
import type { Executor } from "@/db/client";
import { eventStatement } from "@/lib/payments/outbox";
import { DomainError } from "@/lib/platform/errors";
import { publicId } from "@/lib/platform/ids";
import { parseInput } from "@/lib/platform/validation";
import { ENDPOINT_DISABLED_EVENT, testEventSchema, type MoneyEventType } from "./endpoint-schemas";
import { getWebhookEndpoint } from "./endpoints";

/** Sends a sample event to one endpoint through the normal delivery path (the dashboard's test button). */
export async function recordTestEvent(
  tx: Executor,
  merchantId: number,
  endpointId: number,
  type: MoneyEventType,
  sample: unknown,
): Promise<string> {
  const eventId = publicId("evt");
  await tx.execute(
    eventStatement({
      id: eventId,
      merchantId,
      type,
      data: sample,
      paymentId: null,
      onlyEndpointId: endpointId,
    }),
  );
  return eventId;
}

/**
 * Tells a merchant's other endpoints that the platform disabled one, inside the transaction that disabled
 * it. `data` is the endpoint as the webhook endpoints API shows it.
 */
export async function recordEndpointDisabledEvent(
  tx: Executor,
  merchantId: number,
  endpoint: { id: number } & Record<string, unknown>,
): Promise<string> {
  const eventId = publicId("evt");
  await tx.execute(
    eventStatement({
      id: eventId,
      merchantId,
      type: ENDPOINT_DISABLED_EVENT,
      data: endpoint,
      paymentId: null,
      exceptEndpointId: endpoint.id,
    }),
  );
  return eventId;
}

/**
 * Sends a signed sample of an event type to one endpoint, through the normal delivery path. A disabled
 * endpoint is refused: disabled means nothing is sent to it, tests included.
 */
export async function sendTestEvent(
  db: Executor,
  merchantId: number,
  endpointId: number,
  input: unknown,
): Promise<string> {
  const { event } = parseInput(testEventSchema, input);
  const endpoint = await getWebhookEndpoint(db, merchantId, endpointId);
  if (!endpoint.enabled)
    throw new DomainError("conflict", "This endpoint is disabled: enable it to send a test event.");
  const now = new Date().toISOString();
  const status = event.slice(event.indexOf(".") + 1);
  const sample = event.startsWith("refund.")
    ? {
        id: 0,
        payment_id: 0,
        amount: "5.00",
        status: status === "created" ? "pending" : status,
        reason: "requested_by_customer",
        external_id: "test_return_1",
        failure_reason: status === "failed" ? "Declined by the test processor." : null,
        created_at: now,
        settled_at: status === "created" ? null : now,
      }
    : {
        id: 0,
        external_id: "test_order_1",
        type: "payment",
        status,
        amount: "12.50",
        metadata: '{"customer_id":"cus_test"}',
        customer_id: "cus_test",
        created_at: now,
        checkout_url: null,
        payment_method: null,
        failure_code: status === "failed" ? "card_declined" : null,
        failure_reason: status === "failed" ? "Your card was declined." : null,
        processor: "simulator",
        processor_payment_id: null,
      };
  return recordTestEvent(db, merchantId, endpointId, event, sample);
}
