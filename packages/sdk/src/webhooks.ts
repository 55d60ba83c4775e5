import { Webhook } from "standardwebhooks";
import type { components } from "./api-types.js";

type Schemas = components["schemas"];

/** A verified webhook body, narrowed by its `event`. */
export type WebhookEvent =
  | { event: "payment.pending" | "payment.completed" | "payment.failed"; data: Schemas["Payment"] }
  | { event: "refund.created" | "refund.succeeded" | "refund.failed"; data: Schemas["Refund"] }
  | { event: "webhook_endpoint.disabled"; data: Schemas["DisabledWebhookEndpoint"] };

/** Thrown by `verify` for a body that was not signed with the secret (or was changed, or is too old). */
export class WebhookVerificationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "WebhookVerificationError";
  }
}

export class WebhookVerifier {
  /**
   * Checks a delivery's Standard Webhooks signature with the endpoint's `whsec_` secret and returns its body
   * typed. `rawBody` must be the bytes as received (a re-serialised JSON object no longer matches): a string,
   * or a Buffer or Uint8Array as a server's raw body parser gives it (read as UTF-8); headers as a plain object
   * or a Headers.
   */
  verify(
    rawBody: string | Uint8Array,
    headers: Record<string, string | string[] | undefined> | Headers,
    secret: string,
  ): WebhookEvent {
    const body = typeof rawBody === "string" ? rawBody : new TextDecoder().decode(rawBody);
    const plain: Record<string, string> = {};
    if (headers instanceof Headers) headers.forEach((value, name) => (plain[name] = value));
    else
      for (const [name, value] of Object.entries(headers))
        if (value !== undefined) plain[name.toLowerCase()] = Array.isArray(value) ? value.join(",") : value;
    try {
      return new Webhook(secret).verify(body, plain) as WebhookEvent;
    } catch (error) {
      throw new WebhookVerificationError(error instanceof Error ? error.message : String(error));
    }
  }
}
