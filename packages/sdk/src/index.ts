export { Payments } from "./client.js";
export type {
  Balance,
  BalanceTransaction,
  BalanceTransactionFilters,
  CreateOptions,
  CreatePaymentInput,
  CreatePaymentLinkInput,
  CreatePayoutInput,
  CreateRefundInput,
  Customer,
  Dispute,
  DisputeEvidenceInput,
  Event,
  EventWithDeliveries,
  Payment,
  PaymentLink,
  PaymentListItem,
  PaymentMethod,
  PaymentFailureCode,
  PaymentFilters,
  PaymentsOptions,
  Payout,
  PayoutAccount,
  PayoutAccountInput,
  Refund,
  RequestLogEntry,
  RetrievedPayment,
  WebhookEndpoint,
  WebhookEndpointInput,
} from "./client.js";
export { PaymentsApiError, PaymentsConnectionError, type FieldErrors } from "./errors.js";
export { WebhookVerificationError, type WebhookEvent } from "./webhooks.js";
export type { components, paths, webhooks } from "./api-types.js";
