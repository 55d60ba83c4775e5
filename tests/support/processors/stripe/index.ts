// A local stand-in for Stripe's API, written from Stripe's API reference and OpenAPI spec, for driving the official
// `stripe` library (and a browser, on the hosted page) in tests. See the files beside this one for each resource.
import { standInTls } from "../tls";
import { expireSession, paySession } from "./checkout-sessions";
import { type RefundOutcome, settleRefund } from "./refunds";
import { type FaultKind, type OrderedFault, serve } from "./server";
import {
  allOf,
  type Account,
  locate,
  now,
  type Obj,
  randomText,
  type RequestLogEntry,
  type State,
  type WebhookCall,
} from "./store";
import { resend } from "./webhooks";

export type { FaultKind, Obj, RequestLogEntry, WebhookCall };

export interface PayResult {
  paid: boolean;
  paymentIntent: string;
  /** Where the hosted page sends the payer after paying (success_url, filled in). */
  redirect?: string | null;
  /** The decline message the page shows. */
  message?: string;
}

export interface StripeStandIn {
  /** `https://127.0.0.1:<port>`, also the base of hosted page URLs. */
  url: string;
  port: number;
  /** The test CA's certificate file, for PROCESSOR_CA_FILE or `new https.Agent({ ca })`. */
  caFile: string;
  close(): Promise<void>;
  /** Registers a valid key (or makes an `sk_test_…` one) as its own account, and returns it. */
  addKey(key?: string): string;
  /** Pays a session as its hosted page would, without a browser. */
  pay(sessionId: string, card?: string): PayResult;
  /** Expires an open session as if its time ran out (`checkout.session.expired` is sent). */
  expire(sessionId: string): void;
  setRefundStatus(refundId: string, status: RefundOutcome, failureReason?: string): void;
  /** New refunds start `pending` unless this is on. */
  refundsSucceedAtOnce(on: boolean): void;
  /** While on, events are recorded but not delivered (resend() still delivers). */
  muteWebhooks(on: boolean): void;
  readonly webhookCalls: WebhookCall[];
  resend(eventId: string): Promise<void>;
  /** The next `count` API requests (of `method` only, when given) answer with this fault instead of normally. */
  fault(kind: FaultKind, count?: number, method?: string): void;
  /** Resolves once the webhook deliveries under way have ended. */
  settled(): Promise<void>;
  sessions(): Obj[];
  paymentIntents(): Obj[];
  refunds(): Obj[];
  events(): Obj[];
  /** Every webhook endpoint with its signing secret (as its create call answered it). */
  webhookEndpoints(): Obj[];
  readonly requests: RequestLogEntry[];
}

export async function startStripeStandIn(): Promise<StripeStandIn> {
  const tls = standInTls();
  const state: State = {
    baseUrl: "",
    accounts: new Map(),
    webhooksMuted: false,
    refundsSucceedAtOnce: false,
    webhookCalls: [],
    requests: [],
    deliveries: new Set(),
  };
  const faults: OrderedFault[] = [];
  const front = await serve(state, faults);
  state.baseUrl = `https://127.0.0.1:${front.port}`;

  const owned = (id: string, kind: string): { account: Account; object: Obj } => {
    const found = locate(state, id);
    if (!found || found.object.object !== kind) throw new Error(`stripe stand-in: no ${kind} ${id}`);
    return found;
  };
  const origin = (account: Account) => ({ state, account, requestId: null, idempotencyKey: null });
  const copies = (kind: string) => allOf(state, kind).map((o) => structuredClone(o));

  return {
    url: state.baseUrl,
    port: front.port,
    caFile: tls.caFile,
    async close() {
      await front.close();
      await Promise.allSettled([...state.deliveries]);
    },
    addKey(key = `sk_test_${randomText(24)}`) {
      if (!/^(sk|rk)_(test|live)_[A-Za-z0-9_]+$/.test(key))
        throw new Error(`stripe stand-in: not a secret key: ${key}`);
      if (!state.accounts.has(key)) {
        state.accounts.set(key, {
          id: `acct_${randomText(16)}`,
          key,
          livemode: key.includes("_live_"),
          created: now(),
          apiVersion: null,
          objects: new Map(),
          sessionData: new Map(),
          idempotency: new Map(),
        });
      }
      return key;
    },
    pay(sessionId, card = "4242424242424242") {
      const { account, object } = owned(sessionId, "checkout.session");
      const result = paySession(origin(account), object, card);
      return { ...result, paymentIntent: result.paymentIntent.id };
    },
    expire(sessionId) {
      const { account, object } = owned(sessionId, "checkout.session");
      expireSession(origin(account), object);
    },
    setRefundStatus(refundId, status, failureReason) {
      const { account, object } = owned(refundId, "refund");
      settleRefund(origin(account), object, status, failureReason);
    },
    refundsSucceedAtOnce(on) {
      state.refundsSucceedAtOnce = on;
    },
    muteWebhooks(on) {
      state.webhooksMuted = on;
    },
    webhookCalls: state.webhookCalls,
    async resend(eventId) {
      const { account, object } = owned(eventId, "event");
      await resend(state, account, object);
    },
    fault(kind, count = 1, method) {
      for (let i = 0; i < count; i++) faults.push({ kind, method });
    },
    async settled() {
      while (state.deliveries.size > 0) await Promise.allSettled([...state.deliveries]);
    },
    sessions: () => copies("checkout.session"),
    paymentIntents: () => copies("payment_intent"),
    refunds: () => copies("refund"),
    events: () => copies("event"),
    webhookEndpoints: () => copies("webhook_endpoint"),
    requests: state.requests,
  };
}
