// A local stand-in for Mollie's payments API (v2), written from Mollie's published reference, for tests that drive
// Mollie's own Node library (or the platform) against it over HTTPS. Test controls are plain methods.
import type { AddressInfo } from "node:net";
import { standInTls } from "../tls";
import { randomAlphanumeric } from "./common";
import { Faults, type FaultKind } from "./faults";
import { IdempotencyCache } from "./idempotency";
import { Lifecycle, type StatusOptions } from "./lifecycle";
import { paymentJson, refundJson } from "./resources";
import { API_KEY, startServer, type RequestLogEntry } from "./server";
import {
  PAYMENT_STATUSES,
  REFUND_STATUSES,
  Store,
  type Mode,
  type PaymentStatus,
  type RefundStatus,
} from "./store";
import { Webhooks, type WebhookCall } from "./webhooks";

export type { FaultKind } from "./faults";
export type { StatusOptions } from "./lifecycle";
export type { RequestLogEntry } from "./server";
export type { Mode, PaymentStatus, RefundStatus } from "./store";
export type { WebhookCall } from "./webhooks";
export { OUTCOMES } from "./hosted-page";
export { paymentFee } from "./money";

export interface MollieStandIn {
  /** `https://127.0.0.1:<port>` */
  url: string;
  /** `https://127.0.0.1:<port>/v2/`, for `createMollieClient({ apiEndpoint })`. */
  apiEndpoint: string;
  /** The test authority's certificate: its file, and its PEM (for `caCertificates`). */
  caFile: string;
  ca: string;
  close(): Promise<void>;
  /** Registers a key (or makes one, test mode unless `mode` says live) as an account of its own; returns it. */
  addKey(key?: string, mode?: Mode): string;
  /** What the hosted page does, without a browser; settles once the webhook's first attempt has. */
  setStatus(paymentId: string, status: PaymentStatus, options?: StatusOptions): Promise<void>;
  setRefundStatus(refundId: string, status: RefundStatus): Promise<void>;
  /** While on, status changes call no webhook at all (a missed webhook). */
  muteWebhooks(on: boolean): void;
  /** The next `count` API requests (of `method` only, when given) meet this fault. */
  fault(kind: FaultKind, count?: number, method?: string): void;
  /** Every payment held, of every account, as the API shows it. */
  payments(): Record<string, unknown>[];
  refunds(): ReturnType<typeof refundJson>[];
  readonly requests: RequestLogEntry[];
  readonly webhookCalls: WebhookCall[];
}

export async function startMollieStandIn(options: { port?: number } = {}): Promise<MollieStandIn> {
  const tls = standInTls();
  const store = new Store();
  const webhooks = new Webhooks(tls.ca);
  const lifecycle = new Lifecycle(webhooks);
  const faults = new Faults();
  const requests: RequestLogEntry[] = [];
  let base = "";
  const { server, close } = startServer({
    tls,
    store,
    lifecycle,
    faults,
    idempotency: new IdempotencyCache(),
    requests,
    base: () => base,
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => resolve());
  });
  base = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const payment = (id: string) => {
    const found = store.payments.get(id);
    if (!found) throw new Error(`Mollie stand-in: no payment ${id}`);
    return found;
  };

  return {
    url: base,
    apiEndpoint: `${base}/v2/`,
    caFile: tls.caFile,
    ca: tls.ca,
    close: () => {
      webhooks.close();
      store.close();
      close();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
    addKey: (key, mode = "test") => {
      const chosen = key ?? `${mode}_${randomAlphanumeric(30)}`;
      const match = API_KEY.exec(chosen);
      if (!match)
        throw new Error(`Mollie stand-in: ${chosen} is not an API key (test_ or live_ and 30 alphanumerics)`);
      store.addAccount(chosen, match[1] as Mode);
      return chosen;
    },
    setStatus: (paymentId, status, statusOptions) => {
      if (!PAYMENT_STATUSES.includes(status))
        throw new Error(`Mollie stand-in: unknown payment status ${status}`);
      return lifecycle.setPaymentStatus(payment(paymentId), status, statusOptions);
    },
    setRefundStatus: (refundId, status) => {
      if (!REFUND_STATUSES.includes(status))
        throw new Error(`Mollie stand-in: unknown refund status ${status}`);
      const refund = store.refunds.get(refundId);
      if (!refund) throw new Error(`Mollie stand-in: no refund ${refundId}`);
      return lifecycle.setRefundStatus(refund, payment(refund.paymentId), status);
    },
    muteWebhooks: (on) => {
      webhooks.muted = on;
    },
    fault: (kind, count = 1, method) => faults.add(kind, count, method),
    payments: () => [...store.payments.values()].map((p) => paymentJson(p, store.refunds, base)),
    refunds: () => [...store.refunds.values()].map((r) => refundJson(r, base)),
    requests,
    webhookCalls: webhooks.calls,
  };
}
