import "server-only";
import { sql } from "drizzle-orm";
import { z } from "zod";
import { selectRows, type Executor } from "@/db/client";
import { CONNECTED_PROCESSORS, type ConnectedProcessor } from "@/db/enums";
import { decryptSecret, encryptSecret } from "@/lib/platform/encryption";
import { appOrigin } from "@/lib/platform/env";
import { validationError } from "@/lib/platform/errors";
import { parseInput } from "@/lib/platform/validation";
import { recordSecurityEvent, type SecurityActor } from "@/lib/security/history";
import type { Connector } from "./connector";
import { mollieConnector } from "./mollie";
import { PROCESSOR_NAMES } from "./names";
import { stripeConnector } from "./stripe";

// An environment's processor (DESIGN.md, "Processors"): connected by its owners with the processor's key, which
// is checked at the processor first, stored encrypted and shown only as its last 4.

export const connectProcessorSchema = z.object({
  processor: z.enum(CONNECTED_PROCESSORS, { error: "The processor must be mollie or stripe." }),
  key: z.string({ error: "The key field is required." }).trim().min(1, "The key field is required.").max(300),
});

export type ProcessorConnection = {
  processor: ConnectedProcessor;
  key: string;
  keyLast4: string;
  mode: "test" | "live";
  webhookSecret: string | null;
};

export function connectorFor(processor: ConnectedProcessor, key: string): Connector {
  return processor === "mollie" ? mollieConnector(key) : stripeConnector(key);
}

/** Where a processor reports on an environment's payments: the environment is in the path (Mollie's and Stripe's). */
export function processorWebhookUrl(processor: ConnectedProcessor, merchantId: number): string {
  return `${appOrigin()}/api/processors/${processor}/webhook/${merchantId}`;
}

/** A key's mode at its processor: Mollie's `test_…`, Stripe's `sk_test_…`/`rk_test_…` are test keys. */
export function keyMode(key: string): "test" | "live" {
  return /^(test_|sk_test_|rk_test_)/.test(key) ? "test" : "live";
}

/**
 * Connects (or replaces) an environment's processor: the key's shape, then the environment's kind (live takes
 * only a live key, a sandbox only a test key: no real money in a sandbox, no test money in live), then the
 * processor's own check, then (Stripe) the webhook endpoint it will report to; only then, in one transaction,
 * the encrypted key, the environment's processor and the security history's record.
 */
export async function connectProcessor(
  db: Executor,
  merchantId: number,
  input: unknown,
  by: SecurityActor,
): Promise<{ processor: ConnectedProcessor; keyLast4: string; mode: "test" | "live" }> {
  const { processor, key } = parseInput(connectProcessorSchema, input);
  const [environment] = await selectRows<{ environment: string }>(
    db,
    sql`select environment from merchants where id = ${merchantId}`,
  );
  const mode = keyMode(key);
  const name = PROCESSOR_NAMES[processor];
  if (environment?.environment === "live" && mode === "test")
    throw validationError({ key: [`Live takes a live ${name} key; connect a test key in a sandbox.`] });
  if (environment?.environment === "sandbox" && mode === "live")
    throw validationError({ key: [`A sandbox takes a test ${name} key; a live key moves real money.`] });
  const stripe = processor === "stripe" ? stripeConnector(key) : null;
  await (stripe ?? connectorFor(processor, key)).verifyKey();
  const webhook = stripe ? await stripe.makeWebhookEndpoint(processorWebhookUrl("stripe", merchantId)) : null;
  const keyLast4 = key.slice(-4);
  await db.transaction(async (tx) => {
    await tx.execute(sql`
      insert into processor_connections (merchant_id, processor, key_ciphertext, key_last4, mode, webhook_endpoint_id,
                                         webhook_secret_ciphertext, connected_at)
      values (${merchantId}, ${processor}, ${encryptSecret(key)}, ${keyLast4}, ${mode}, ${webhook?.id ?? null},
              ${webhook ? encryptSecret(webhook.secret) : null}, now())
      on conflict (merchant_id) do update
        set processor = excluded.processor, key_ciphertext = excluded.key_ciphertext, key_last4 = excluded.key_last4,
            mode = excluded.mode, webhook_endpoint_id = excluded.webhook_endpoint_id,
            webhook_secret_ciphertext = excluded.webhook_secret_ciphertext, connected_at = excluded.connected_at`);
    await tx.execute(
      sql`update merchants set processor = ${processor}, updated_at = now() where id = ${merchantId}`,
    );
    await recordSecurityEvent(
      tx,
      merchantId,
      by,
      "processor.connected",
      `${name} (${mode} key …${keyLast4})`,
    );
  });
  return { processor, keyLast4, mode };
}

/** An environment's processor with its key decrypted, or null for the simulator. */
export async function readProcessorConnection(
  db: Executor,
  merchantId: number,
): Promise<ProcessorConnection | null> {
  const [row] = await selectRows<{
    processor: ConnectedProcessor;
    key_ciphertext: string;
    key_last4: string;
    mode: "test" | "live";
    webhook_secret_ciphertext: string | null;
  }>(
    db,
    sql`select processor, key_ciphertext, key_last4, mode, webhook_secret_ciphertext
        from processor_connections where merchant_id = ${merchantId}`,
  );
  if (!row) return null;
  return {
    processor: row.processor,
    key: decryptSecret(row.key_ciphertext),
    keyLast4: row.key_last4,
    mode: row.mode,
    webhookSecret: row.webhook_secret_ciphertext ? decryptSecret(row.webhook_secret_ciphertext) : null,
  };
}

/** What Settings → Processor shows: the processor, the key's mode and last 4, when; never the key. */
export async function describeProcessorConnection(
  db: Executor,
  merchantId: number,
): Promise<{
  processor: ConnectedProcessor;
  keyLast4: string;
  mode: "test" | "live";
  connectedAt: Date;
} | null> {
  const [row] = await selectRows<{
    processor: ConnectedProcessor;
    key_last4: string;
    mode: "test" | "live";
    connected_at: Date | string;
  }>(
    db,
    sql`select processor, key_last4, mode, connected_at from processor_connections where merchant_id = ${merchantId}`,
  );
  return row
    ? {
        processor: row.processor,
        keyLast4: row.key_last4,
        mode: row.mode,
        connectedAt: new Date(row.connected_at),
      }
    : null;
}
