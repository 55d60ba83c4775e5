import "server-only";
import type { Executor } from "@/db/client";
import { eventStatement } from "@/lib/payments/outbox";
import { publicId } from "@/lib/platform/ids";
import { ENDPOINT_DISABLED_EVENT, type MoneyEventType } from "./endpoint-schemas";

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
