import type { components } from "./api-types.js";
import { PaymentsApiError } from "./errors.js";
import { createTransport, type Transport, type TransportOptions } from "./transport.js";
import { WebhookVerifier } from "./webhooks.js";

type Schemas = components["schemas"];
export type PaymentListItem = Schemas["PaymentListItem"];
export type Payment = Schemas["Payment"];
export type RetrievedPayment = Schemas["RetrievedPayment"];
export type CreatePaymentInput = Schemas["CreatePayment"];
export type Refund = Schemas["Refund"];
export type CreateRefundInput = Schemas["CreateRefund"];
export type Event = Schemas["Event"];
export type EventWithDeliveries = Schemas["EventWithDeliveries"];
export type WebhookEndpoint = Schemas["WebhookEndpoint"];
export type WebhookEndpointInput = Schemas["WebhookEndpointInput"];
export type RequestLogEntry = Schemas["RequestLogEntry"];
export type PaymentLink = Schemas["PaymentLink"];
export type Customer = Schemas["Customer"];
export type Balance = Schemas["Balance"];
export type BalanceTransaction = Schemas["BalanceTransaction"];
export type BalanceSummary = Schemas["BalanceSummary"];
export type PayoutReconciliation = Schemas["PayoutReconciliation"];
/** A report's period: days (`from` inclusive, `to` exclusive), a currency, and the IANA zone the days are in. */
export type ReportOptions = { currency?: string; from?: string; to?: string; timezone?: string };
export type Payout = Schemas["Payout"];
export type CreatePayoutInput = Schemas["CreatePayout"];
export type PayoutAccount = Schemas["PayoutAccount"];
export type PayoutAccountInput = Schemas["PayoutAccountInput"];
export type Dispute = Schemas["Dispute"];
export type DisputeEvidenceInput = Schemas["DisputeEvidence"];
export type Sandbox = Schemas["Sandbox"];
export type CreatedSandbox = Schemas["CreatedSandbox"];
export type Clock = Schemas["Clock"];
/** The balance transactions list's filters, in the SDK's camel case. */
export type BalanceTransactionFilters = {
  type?: BalanceTransaction["type"];
  /** An ISO 4217 code, any case. */
  currency?: string;
  payoutId?: number;
  createdFrom?: string | Date;
  createdTo?: string | Date;
};
/** The payments list's filters (DESIGN.md, "The API beyond the seed"), in the SDK's camel case. */
export type PaymentFilters = {
  status?: Payment["status"];
  externalId?: string;
  customerId?: string;
  refundStatus?: "none" | "partial" | "full";
  /** An ISO 4217 code, any case. */
  currency?: string;
  /** An ISO 8601 date or date-time (UTC), inclusive; a Date is sent as its ISO instant. */
  createdFrom?: string | Date;
  createdTo?: string | Date;
};
const isoOf = (value: string | Date | undefined) => (value instanceof Date ? value.toISOString() : value);
export type CreatePaymentLinkInput = Schemas["CreatePaymentLink"];
export type PaymentMethod = NonNullable<Payment["payment_method"]>;
/** Why a payment failed (`card_declined`, …, `processor_declined`): `failure_code` when it did. */
export type PaymentFailureCode = NonNullable<Payment["failure_code"]>;

export type PaymentsOptions = TransportOptions;
export type CreateOptions = { idempotencyKey?: string };
type Paged<T> = { data?: T[]; meta?: { last_page?: number | null } };

/** The data a call resolved to: a refusal never gets here (the transport throws PaymentsApiError). */
function dataOf<T>(result: { data?: unknown }): T {
  return (result.data as { data: T }).data;
}

/** Every page in turn from `firstPage`, one request ahead of the reader at most; yields the items. */
async function* everyPage<T>(
  fetchPage: (page: number) => Promise<{ data?: Paged<T> }>,
  firstPage = 1,
): AsyncGenerator<T> {
  for (let page = firstPage; ; page++) {
    const body = (await fetchPage(page)).data!;
    for (const item of body.data ?? []) yield item;
    if (page >= (body.meta?.last_page ?? page)) return;
  }
}

/** A fresh key per create, so a retried create (timeout, 5xx) is made once. */
const newIdempotencyKey = () => `sdk_${crypto.randomUUID()}`;

/**
 * The platform's API, typed from its OpenAPI document: methods resolve to the resource itself (the
 * response's `data`); list methods are async iterators over every page; a refusal rejects with
 * PaymentsApiError (status, message, Laravel's `errors`).
 */
const reportQuery = (options: ReportOptions) => ({
  currency: options.currency,
  from: options.from,
  to: options.to,
  timezone: options.timezone,
});

export class Payments {
  private readonly api: Transport;
  readonly webhooks = new WebhookVerifier();

  constructor(options: PaymentsOptions) {
    if (!options.apiKey) throw new TypeError("Payments: apiKey is required.");
    if (!options.baseUrl) throw new TypeError("Payments: baseUrl is required, e.g. http://localhost:3000.");
    this.api = createTransport(options);
  }

  readonly payments = {
    /** Every page of the list from `page` (default 1), newest first, narrowed by any of the filters. */
    list: (
      options: PaymentFilters & { perPage?: number; page?: number } = {},
    ): AsyncGenerator<PaymentListItem> =>
      everyPage(
        (page) =>
          this.api.GET("/api/payments", {
            params: {
              query: {
                page,
                perPage: options.perPage,
                status: options.status,
                external_id: options.externalId,
                customer_id: options.customerId,
                refund_status: options.refundStatus,
                currency: options.currency,
                created_from: isoOf(options.createdFrom),
                created_to: isoOf(options.createdTo),
              },
            },
          }),
        options.page,
      ),
    /**
     * Creates a payment and resolves to it, in one request (`Prefer: return=representation`). `metadata` is an
     * object of string values; the payment carries it back as JSON text.
     */
    create: async (input: CreatePaymentInput, options: CreateOptions = {}): Promise<RetrievedPayment> =>
      dataOf<RetrievedPayment>(
        await this.api.POST("/api/payments", {
          body: input,
          headers: {
            "Idempotency-Key": options.idempotencyKey ?? newIdempotencyKey(),
            Prefer: "return=representation",
          },
        }),
      ),
    retrieve: async (id: number): Promise<RetrievedPayment> =>
      dataOf<RetrievedPayment>(await this.api.GET("/api/payments/{id}", { params: { path: { id } } })),
    cancel: async (id: number): Promise<Payment> =>
      dataOf<Payment>(await this.api.POST("/api/payments/{id}/cancel", { params: { path: { id } } })),
  };

  readonly refunds = {
    create: async (
      paymentId: number,
      input: CreateRefundInput = {},
      options: CreateOptions = {},
    ): Promise<Refund> =>
      dataOf<Refund>(
        await this.api.POST("/api/payments/{id}/refunds", {
          params: { path: { id: paymentId } },
          body: input,
          headers: { "Idempotency-Key": options.idempotencyKey ?? newIdempotencyKey() },
        }),
      ),
    list: (paymentId: number, options: { perPage?: number } = {}): AsyncGenerator<Refund> =>
      everyPage((page) =>
        this.api.GET("/api/payments/{id}/refunds", {
          params: { path: { id: paymentId }, query: { page, perPage: options.perPage } },
        }),
      ),
    retrieve: async (id: number): Promise<Refund> =>
      dataOf<Refund>(await this.api.GET("/api/refunds/{id}", { params: { path: { id } } })),
    /** Every refund of the account from `page` (default 1), newest first, by status or payment. */
    listAll: (
      options: { status?: Refund["status"]; paymentId?: number; perPage?: number; page?: number } = {},
    ): AsyncGenerator<Refund> =>
      everyPage(
        (page) =>
          this.api.GET("/api/refunds", {
            params: {
              query: {
                page,
                perPage: options.perPage,
                status: options.status,
                payment_id: options.paymentId,
              },
            },
          }),
        options.page,
      ),
  };

  /** One per customer_id sent on payments, with its totals; the latest payment first. */
  readonly customers = {
    list: (options: { perPage?: number } = {}): AsyncGenerator<Customer> =>
      everyPage((page) =>
        this.api.GET("/api/customers", { params: { query: { page, perPage: options.perPage } } }),
      ),
    retrieve: async (id: string): Promise<Customer> =>
      dataOf<Customer>(await this.api.GET("/api/customers/{id}", { params: { path: { id } } })),
  };

  /** What you have, available and pending, per currency. */
  readonly balance = {
    retrieve: async (): Promise<Balance> => dataOf<Balance>(await this.api.GET("/api/balance")),
  };

  /** Every movement of the balance (payments, refunds, payouts, disputes), newest first. */
  readonly balanceTransactions = {
    list: (
      options: BalanceTransactionFilters & { perPage?: number; page?: number } = {},
    ): AsyncGenerator<BalanceTransaction> =>
      everyPage(
        (page) =>
          this.api.GET("/api/balance-transactions", {
            params: {
              query: {
                page,
                perPage: options.perPage,
                type: options.type,
                currency: options.currency,
                payout_id: options.payoutId,
                created_from: isoOf(options.createdFrom),
                created_to: isoOf(options.createdTo),
              },
            },
          }),
        options.page,
      ),
    retrieve: async (id: number): Promise<BalanceTransaction> =>
      dataOf<BalanceTransaction>(
        await this.api.GET("/api/balance-transactions/{id}", { params: { path: { id } } }),
      ),
  };

  /** The accountant's reports. */
  readonly reports = {
    /**
     * Opening balance, activity per type and closing balance of one currency over whole UTC days (`from`
     * inclusive, `to` exclusive, `YYYY-MM-DD`); the default currency and the current month when left out.
     */
    balanceSummary: async (options: ReportOptions = {}): Promise<BalanceSummary> =>
      dataOf<BalanceSummary>(
        await this.api.GET("/api/reports/balance-summary", { params: { query: reportQuery(options) } }),
      ),
    /** Each payout of the period with what it paid, by type, then what was left unpaid at its end. */
    payoutReconciliation: async (options: ReportOptions = {}): Promise<PayoutReconciliation> =>
      dataOf<PayoutReconciliation>(
        await this.api.GET("/api/reports/payout-reconciliation", { params: { query: reportQuery(options) } }),
      ),
  };

  /** Where payouts go: the IBAN is sent once and shown as its last 4 after. */
  readonly payoutAccount = {
    /** Null until one is set. */
    retrieve: async (): Promise<PayoutAccount | null> =>
      this.api.GET("/api/payout-account").then(
        (result) => dataOf<PayoutAccount>(result),
        (error: unknown) => {
          // The API's 404 before one is set.
          if (error instanceof PaymentsApiError && error.status === 404) return null;
          throw error;
        },
      ),
    update: async (input: PayoutAccountInput): Promise<PayoutAccount> =>
      dataOf<PayoutAccount>(await this.api.PUT("/api/payout-account", { body: input })),
  };

  /** Money sent from the available balance to the payout account, newest first. */
  readonly payouts = {
    /** All that is available in `currency`, or `amount` of it; retried safely under one Idempotency-Key. */
    create: async (input: CreatePayoutInput, options: CreateOptions = {}): Promise<Payout> =>
      dataOf<Payout>(
        await this.api.POST("/api/payouts", {
          body: input,
          headers: { "Idempotency-Key": options.idempotencyKey ?? newIdempotencyKey() },
        }),
      ),
    list: (options: { perPage?: number; page?: number } = {}): AsyncGenerator<Payout> =>
      everyPage(
        (page) => this.api.GET("/api/payouts", { params: { query: { page, perPage: options.perPage } } }),
        options.page,
      ),
    retrieve: async (id: number): Promise<Payout> =>
      dataOf<Payout>(await this.api.GET("/api/payouts/{id}", { params: { path: { id } } })),
    /** Only while pending: the money is available again. */
    cancel: async (id: number): Promise<Payout> =>
      dataOf<Payout>(await this.api.POST("/api/payouts/{id}/cancel", { params: { path: { id } } })),
  };

  /** Payments the payer's bank took back, and the merchant's answers; newest first. */
  readonly disputes = {
    list: (
      options: { status?: Dispute["status"]; paymentId?: number; perPage?: number; page?: number } = {},
    ): AsyncGenerator<Dispute> =>
      everyPage(
        (page) =>
          this.api.GET("/api/disputes", {
            params: {
              query: {
                page,
                perPage: options.perPage,
                status: options.status,
                payment_id: options.paymentId,
              },
            },
          }),
        options.page,
      ),
    retrieve: async (id: number): Promise<Dispute> =>
      dataOf<Dispute>(await this.api.GET("/api/disputes/{id}", { params: { path: { id } } })),
    /** Saves the texts given over the draft; with `submit: true` sends them to the bank (final). */
    saveEvidence: async (id: number, input: DisputeEvidenceInput): Promise<Dispute> =>
      dataOf<Dispute>(
        await this.api.POST("/api/disputes/{id}/evidence", { params: { path: { id } }, body: input }),
      ),
    /** Accepts the dispute: it is lost (an inquiry closes). */
    close: async (id: number): Promise<Dispute> =>
      dataOf<Dispute>(await this.api.POST("/api/disputes/{id}/close", { params: { path: { id } } })),
  };

  readonly events = {
    list: (
      options: { type?: Event["event"]; paymentId?: number; perPage?: number } = {},
    ): AsyncGenerator<Event> =>
      everyPage((page) =>
        this.api.GET("/api/events", {
          params: {
            query: { page, perPage: options.perPage, type: options.type, payment_id: options.paymentId },
          },
        }),
      ),
    retrieve: async (id: string): Promise<EventWithDeliveries> =>
      dataOf<EventWithDeliveries>(await this.api.GET("/api/events/{id}", { params: { path: { id } } })),
    /** Queues the event again to every endpoint it went to; resolves to how many deliveries. */
    resend: async (id: string): Promise<{ id: string; deliveries_queued: number }> =>
      dataOf<{ id: string; deliveries_queued: number }>(
        await this.api.POST("/api/events/{id}/resend", { params: { path: { id } } }),
      ),
  };

  readonly requestLogs = {
    /** The newest entries, or with `after` those logged since that entry, oldest first. */
    list: async (
      options: { status?: "2xx" | "4xx" | "5xx"; after?: number; limit?: number } = {},
    ): Promise<RequestLogEntry[]> =>
      dataOf<RequestLogEntry[]>(await this.api.GET("/api/request-logs", { params: { query: options } })),
  };

  /**
   * The account's sandboxes, with an account key (`pay_acct_…`): one per test run, made and deleted by CI. A
   * new one comes with its `pay_test_…` key, shown only then.
   */
  readonly sandboxes = {
    list: async (): Promise<Sandbox[]> => dataOf<Sandbox[]>(await this.api.GET("/api/sandboxes")),
    /** `clock`: a test clock's start (a date or a date-time, up to 400 days back); the sandbox then stands there. */
    create: async (input: { name: string; clock?: string }): Promise<CreatedSandbox> =>
      dataOf<CreatedSandbox>(await this.api.POST("/api/sandboxes", { body: input })),
    /** The sandbox and everything in it. */
    delete: async (id: number): Promise<void> => {
      await this.api.DELETE("/api/sandboxes/{id}", { params: { path: { id } } });
    },
  };

  readonly webhookEndpoints = {
    list: async (): Promise<WebhookEndpoint[]> =>
      dataOf<WebhookEndpoint[]>(await this.api.GET("/api/webhook-endpoints")),
    create: async (input: WebhookEndpointInput): Promise<WebhookEndpoint & { secret: string }> =>
      dataOf<WebhookEndpoint & { secret: string }>(
        await this.api.POST("/api/webhook-endpoints", { body: input }),
      ),
    retrieve: async (id: number): Promise<WebhookEndpoint> =>
      dataOf<WebhookEndpoint>(
        await this.api.GET("/api/webhook-endpoints/{id}", { params: { path: { id } } }),
      ),
    update: async (id: number, input: Partial<WebhookEndpointInput>): Promise<WebhookEndpoint> =>
      dataOf<WebhookEndpoint>(
        await this.api.PATCH("/api/webhook-endpoints/{id}", { params: { path: { id } }, body: input }),
      ),
    delete: async (id: number): Promise<void> => {
      await this.api.DELETE("/api/webhook-endpoints/{id}", { params: { path: { id } } });
    },
    rotateSecret: async (id: number): Promise<WebhookEndpoint & { secret: string }> =>
      dataOf<WebhookEndpoint & { secret: string }>(
        await this.api.POST("/api/webhook-endpoints/{id}/rotate-secret", { params: { path: { id } } }),
      ),
  };

  /** Links to a hosted page of a fixed amount: each payer who opens one gets a payment of their own. */
  readonly paymentLinks = {
    create: async (input: CreatePaymentLinkInput): Promise<PaymentLink> =>
      dataOf<PaymentLink>(await this.api.POST("/api/payment-links", { body: input })),
    list: (options: { perPage?: number } = {}): AsyncGenerator<PaymentLink> =>
      everyPage((page) =>
        this.api.GET("/api/payment-links", { params: { query: { page, perPage: options.perPage } } }),
      ),
    retrieve: async (id: number): Promise<PaymentLink> =>
      dataOf<PaymentLink>(await this.api.GET("/api/payment-links/{id}", { params: { path: { id } } })),
    /** An inactive link says so to its payers and creates nothing. */
    update: async (id: number, input: { active: boolean }): Promise<PaymentLink> =>
      dataOf<PaymentLink>(
        await this.api.PATCH("/api/payment-links/{id}", { params: { path: { id } }, body: input }),
      ),
  };

  /** What the simulated processor would do now; these routes exist only while it is the processor. */
  readonly testHelpers = {
    settlePayment: async (id: number, outcome: "completed" | "failed"): Promise<RetrievedPayment> =>
      dataOf<RetrievedPayment>(
        await this.api.POST("/api/test-helpers/payments/{id}/settle", {
          params: { path: { id } },
          body: { outcome },
        }),
      ),
    settleRefund: async (id: number, outcome: "succeeded" | "failed"): Promise<Refund> =>
      dataOf<Refund>(
        await this.api.POST("/api/test-helpers/refunds/{id}/settle", {
          params: { path: { id } },
          body: { outcome },
        }),
      ),
    /** Makes every pending balance transaction available now; resolves to the balance after. */
    releaseBalance: async (): Promise<Balance> =>
      dataOf<Balance>(await this.api.POST("/api/test-helpers/balance/release")),
    /** The payer's bank disputes a completed payment now, as the dispute test cards do. */
    openDispute: async (
      paymentId: number,
      input: { reason?: Dispute["reason"]; inquiry?: boolean } = {},
    ): Promise<Dispute> =>
      dataOf<Dispute>(
        await this.api.POST("/api/test-helpers/payments/{id}/dispute", {
          params: { path: { id: paymentId } },
          body: input,
        }),
      ),
    /** The bank decides a dispute now. */
    closeDispute: async (id: number, outcome: "won" | "lost"): Promise<Dispute> =>
      dataOf<Dispute>(
        await this.api.POST("/api/test-helpers/disputes/{id}/close", {
          params: { path: { id } },
          body: { outcome },
        }),
      ),
    /** Moves a payout to its end now: without `outcome`, as the simulated bank would. */
    settlePayout: async (id: number, outcome?: "paid" | "failed"): Promise<Payout> =>
      dataOf<Payout>(
        await this.api.POST("/api/test-helpers/payouts/{id}/settle", {
          params: { path: { id } },
          body: outcome ? { outcome } : {},
        }),
      ),
    /** Where the sandbox's time stands (`test_clock` false: on real time). */
    clock: async (): Promise<Clock> => dataOf<Clock>(await this.api.GET("/api/test-helpers/clock")),
    /** Moves a sandbox's test clock forward, to an instant or by an ISO 8601 duration, running what falls due. */
    advanceClock: async (input: { to: string } | { by: string }): Promise<Clock> =>
      dataOf<Clock>(await this.api.POST("/api/test-helpers/clock/advance", { body: input })),
  };
}
