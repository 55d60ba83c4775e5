import { DISPUTE_EVENT_TYPES } from "@/lib/disputes/schemas";
import { PAYMENT_EVENT_TYPES } from "@/lib/payments/schemas";
import { PAYOUT_EVENT_TYPES } from "@/lib/payouts/schemas";
import { REFUND_EVENT_TYPES } from "@/lib/refunds/schemas";
import { ENDPOINT_DISABLED_EVENT } from "@/lib/webhooks/endpoint-schemas";

// The webhooks merchants receive (OpenAPI 3.1 `webhooks`), with the Standard Webhooks headers.

const ref = (name: string) => `#/components/schemas/${name}`;

/** The Standard Webhooks headers every delivery carries. */
const signatureHeaders = [
  {
    name: "webhook-id",
    in: "header",
    required: true,
    description: "The event id (`evt_…`), the same on every retry: deduplicate on it.",
    schema: { type: "string" },
  },
  {
    name: "webhook-timestamp",
    in: "header",
    required: true,
    description: "Unix seconds when this attempt was signed; refuse old ones.",
    schema: { type: "integer" },
  },
  {
    name: "webhook-signature",
    in: "header",
    required: true,
    description:
      "`v1,<base64 HMAC-SHA256 of id.timestamp.body>`; during a secret rotation two, space-separated. Verify against the raw body bytes.",
    schema: { type: "string" },
  },
];

const webhook = (type: string, summary: string, data: string) => ({
  post: {
    summary,
    parameters: signatureHeaders,
    requestBody: {
      required: true,
      content: {
        "application/json": {
          schema: {
            type: "object",
            properties: { event: { type: "string", const: type }, data: { $ref: ref(data) } },
            required: ["event", "data"],
          },
        },
      },
    },
    responses: {
      "200": {
        description: "Any 2xx within the timeout acknowledges it; anything else is retried with backoff.",
      },
      "410": { description: "Gone: the endpoint is disabled and receives nothing more." },
    },
  },
});

export const webhooksSection = {
  ...Object.fromEntries(
    PAYMENT_EVENT_TYPES.map((type) => [
      type,
      webhook(
        type,
        `${type}: sent to every enabled endpoint subscribed to it${type === "payment.failed" ? "; `failure_code` and `failure_reason` say why" : ""}`,
        "Payment",
      ),
    ]),
  ),
  ...Object.fromEntries(
    REFUND_EVENT_TYPES.map((type) => [
      type,
      webhook(type, `${type}: sent to every enabled endpoint subscribed to it`, "Refund"),
    ]),
  ),
  ...Object.fromEntries(
    PAYOUT_EVENT_TYPES.map((type) => [
      type,
      webhook(type, `${type}: sent to every enabled endpoint subscribed to it`, "Payout"),
    ]),
  ),
  ...Object.fromEntries(
    DISPUTE_EVENT_TYPES.map((type) => [
      type,
      webhook(type, `${type}: sent to every enabled endpoint subscribed to it`, "Dispute"),
    ]),
  ),
  [ENDPOINT_DISABLED_EVENT]: webhook(
    ENDPOINT_DISABLED_EVENT,
    `${ENDPOINT_DISABLED_EVENT}: the platform disabled one of your endpoints (it answered 410 Gone, or failed for 5 days); sent to your other enabled endpoints subscribed to it`,
    "DisabledWebhookEndpoint",
  ),
};
