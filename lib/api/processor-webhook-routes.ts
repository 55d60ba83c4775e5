import { getDb } from "@/db/client";
import type { ConnectedProcessor } from "@/db/enums";
import { getEnv } from "@/lib/platform/env";
import { DomainError } from "@/lib/platform/errors";
import { logger } from "@/lib/platform/logger";
import { readProcessorConnection, type ProcessorConnection } from "@/lib/processors/connections";
import { syncProcessorPayment } from "@/lib/processors/payments";
import { syncProcessorRefund, syncRefundsOfPayment } from "@/lib/processors/refunds";
import { STRIPE_REFUND_EVENTS, STRIPE_SESSION_EVENTS, verifiedStripeEvent } from "@/lib/processors/stripe";
import { HttpError } from "./api-errors";
import { readRequestBody } from "./request-body";
import { errorResponse, jsonResponse } from "./responses";
import type { ApiRequest, ApiResponse } from "./types";

// The processors' webhooks (DESIGN.md, "Processors"): `POST /api/processors/{mollie|stripe}/webhook/{environment}`.
// No bearer token: Mollie's carries only an id, whose status is fetched from Mollie with the environment's key;
// Stripe's is signed with the secret of the endpoint made at connection. Neither body is trusted beyond the id
// it names, and nothing but that id is logged.

const WEBHOOK_PATH = /^\/api\/processors\/(mollie|stripe)\/webhook\/([1-9][0-9]{0,17})$/;
/** Mollie's ids: `tr_` and letters or digits (a refund's change is reported with its payment's id). */
const MOLLIE_PAYMENT_ID = /^tr_[A-Za-z0-9]{1,64}$/;

const received = () => jsonResponse(200, { received: true });
const refused = (message: string) => jsonResponse(400, { message });

/** Whether a path is a processor's webhook: the router hands it here before its token-checked routes. */
export function processorWebhookPath(
  pathname: string,
): { processor: ConnectedProcessor; merchantId: number } | null {
  // Every API request passes here: a prefix check before the pattern.
  if (!pathname.startsWith("/api/processors/")) return null;
  const match = WEBHOOK_PATH.exec(pathname);
  return match ? { processor: match[1] as ConnectedProcessor, merchantId: Number(match[2]) } : null;
}

const isFormType = (value: string | null) =>
  value?.split(";")[0]?.trim().toLowerCase() === "application/x-www-form-urlencoded";
const isJsonType = (value: string | null) =>
  value?.split(";")[0]?.trim().toLowerCase() === "application/json";

export async function serveProcessorWebhook(
  request: ApiRequest,
  target: { processor: ConnectedProcessor; merchantId: number },
): Promise<ApiResponse> {
  if (request.method !== "POST")
    return jsonResponse(405, { message: "The POST method is the only one supported." }, { Allow: "POST" });
  const body = await readRequestBody(
    request,
    getEnv().API_BODY_TIMEOUT_MS,
    undefined,
    target.processor === "mollie" ? isFormType : isJsonType,
  );
  if (body instanceof HttpError) return errorResponse(body);
  try {
    const connection = await readProcessorConnection(getDb(), target.merchantId);
    // Another environment's processor, or none: answered as an unknown id is, so nothing is learned from it.
    if (connection?.processor !== target.processor) return received();
    return target.processor === "mollie"
      ? await mollieWebhook(body, connection, target.merchantId)
      : await stripeWebhook(body, request.headers.get("stripe-signature"), connection, target.merchantId);
  } catch (error) {
    // A processor that cannot be asked now: 503, and the processor sends the webhook again later.
    if (error instanceof DomainError && error.kind === "unavailable") return errorResponse(error);
    throw error;
  }
}

async function mollieWebhook(body: Buffer, connection: ProcessorConnection, merchantId: number) {
  const id = new URLSearchParams(body.toString("utf8")).get("id");
  if (!id || !MOLLIE_PAYMENT_ID.test(id)) return refused("The id field must be a Mollie payment id.");
  const db = getDb();
  const result = await syncProcessorPayment(db, merchantId, connection, id);
  // Mollie calls the same webhook, with the payment's id, when one of its refunds moves.
  const refunds = result === "final" ? await syncRefundsOfPayment(db, merchantId, connection, id) : 0;
  logger.info({ processor: "mollie", environment: merchantId, id, result, refunds }, "Processor webhook");
  // Mollie's advice: the same 200 for an id it never made here, so a caller learns nothing from the answer.
  return received();
}

async function stripeWebhook(
  body: Buffer,
  signature: string | null,
  connection: ProcessorConnection,
  merchantId: number,
) {
  const event = connection.webhookSecret
    ? verifiedStripeEvent(body, signature, connection.webhookSecret)
    : null;
  if (!event) return refused("The Stripe-Signature header does not verify, or the event is too old.");
  const id = (event.data.object as { id?: unknown }).id;
  const isRefund = (STRIPE_REFUND_EVENTS as readonly string[]).includes(event.type);
  if (!isRefund && !(STRIPE_SESSION_EVENTS as readonly string[]).includes(event.type)) return received();
  if (typeof id !== "string") return refused("The event names no Checkout Session or refund.");
  const result = isRefund
    ? ((await syncProcessorRefund(getDb(), merchantId, connection, { processorRefundId: id }))?.status ??
      "pending")
    : await syncProcessorPayment(getDb(), merchantId, connection, id);
  logger.info(
    { processor: "stripe", environment: merchantId, id, event: event.id, result },
    "Processor webhook",
  );
  return received();
}
