// The processors an environment's owners connected (DESIGN.md, "Processors").
import { pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { CONNECTED_PROCESSORS } from "../enums";
import { merchantIdColumn } from "./accounts";
import { at, createdAt } from "./columns";

/**
 * One environment's processor and its key: a row per environment (the merchant's `processor` column says which
 * it is, for the API's token read). The key is encrypted (ENCRYPTION_KEYS) and shown only as its last 4.
 */
export const processorConnections = pgTable(
  "processor_connections",
  {
    merchantId: merchantIdColumn(),
    processor: text("processor", { enum: CONNECTED_PROCESSORS }).notNull(),
    keyCiphertext: text("key_ciphertext").notNull(),
    keyLast4: text("key_last4").notNull(),
    /** The key's own mode at the processor: `test_…`/`sk_test_…` keys are "test", else "live". */
    mode: text("mode", { enum: ["test", "live"] }).notNull(),
    /** Stripe: the webhook endpoint made at connection (`we_…`), and its signing secret, encrypted. */
    webhookEndpointId: text("webhook_endpoint_id"),
    webhookSecretCiphertext: text("webhook_secret_ciphertext"),
    /** Who connected it is in the security history (processor.connected), with the account's other changes. */
    connectedAt: at("connected_at").notNull().defaultNow(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.merchantId] })],
);
