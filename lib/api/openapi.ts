import {
  createPaymentLinkSchema,
  paymentLinkSchema,
  updatePaymentLinkSchema,
} from "@/lib/checkout/payment-links";
import { customerSchema } from "@/lib/customers/customers";
import {
  decideDisputeSchema,
  disputeEvidenceInputSchema,
  disputeSchema,
  openDisputeSchema,
} from "@/lib/disputes/schemas";
import { balanceSchema } from "@/lib/ledger/balance";
import { balanceSummarySchema } from "@/lib/ledger/balance-summary";
import { balanceTransactionSchema } from "@/lib/ledger/balance-transactions";
import { payoutReconciliationSchema } from "@/lib/ledger/payout-reconciliation";
import {
  createPaymentSchema,
  paymentListItemSchema,
  paymentSchema,
  retrievedPaymentSchema,
} from "@/lib/payments/schemas";
import { settleInputSchema } from "@/lib/payments/settlement";
import { payoutAccountInputSchema, payoutAccountSchema } from "@/lib/payouts/account";
import { createPayoutSchema, payoutSchema, settlePayoutSchema } from "@/lib/payouts/schemas";
import { createRefundSchema, refundSchema, settleRefundSchema } from "@/lib/refunds/schemas";
import { API_ERRORS, MAX_BODY_BYTES } from "./api-errors";
import { clockSchemas } from "./clock-routes";
import { pathParameterNames, type Route } from "./define-route";
import { bodyRefusals, common, queryParameters, schemaOf } from "./openapi-parts";
import { inboxSchemas, webhookSchemas } from "./openapi-webhook-schemas";
import { webhooksSection } from "./openapi-webhooks";
import { requestLogEntrySchema } from "./request-log-routes";
import { routes } from "./routes";
import { sandboxSchemas } from "./sandbox-routes";

/**
 * OpenAPI 3.1 for the merchant API: a path for each route of the one list (routes.ts), as it declares itself;
 * the components from the same zod schemas the domain validates with.
 */
export function buildOpenApiDocument(serverUrl: string) {
  return {
    openapi: "3.1.0",
    info: {
      title: "Payments API",
      version: "1.0.0",
      description: `Bearer-token API for merchants. Every response carries X-RateLimit-Limit and X-RateLimit-Remaining. Request bodies are JSON objects of at most ${MAX_BODY_BYTES} bytes.`,
    },
    servers: [{ url: serverUrl }],
    security: [{ bearerAuth: [] }],
    components: {
      securitySchemes: {
        bearerAuth: { type: "http", scheme: "bearer", description: "An API token from the dashboard: pay_…" },
      },
      schemas: componentSchemas(),
    },
    webhooks: webhooksSection,
    paths: pathsOf(routes),
  };
}

/**
 * Each path once, in the order of its first route: its `{params}` on the path (every method shares them),
 * an operation per method.
 */
function pathsOf(list: readonly Route[]) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of list) {
    const parameters = pathParametersOf(route);
    const item = (paths[route.path] ??= parameters.length > 0 ? { parameters } : {});
    if (JSON.stringify(item.parameters ?? []) !== JSON.stringify(parameters))
      throw new Error(`${route.method} ${route.path} describes the path's parameters differently`);
    item[route.method.toLowerCase()] = operationOf(route);
  }
  return paths;
}

function pathParametersOf(route: Route) {
  return pathParameterNames(route.path).map((name) => {
    const { schema, description } = route.params![name]!;
    return { name, in: "path", required: true, ...(description ? { description } : {}), schema };
  });
}

const withParameters = (parameters: unknown[]) => (parameters.length > 0 ? { parameters } : {});

function operationOf(route: Route) {
  return {
    summary: route.summary,
    ...(route.description ? { description: route.description } : {}),
    ...withParameters([...queryParameters(route.query), ...(route.headers ?? [])]),
    ...(route.body ? { requestBody: route.body } : {}),
    // What every route answers, and every route that may carry a body; a route's own words win.
    responses: { ...common, ...(route.method === "GET" ? {} : bodyRefusals), ...route.responses },
  };
}

function componentSchemas() {
  return {
    CreatePayment: schemaOf(createPaymentSchema, "input"),
    PaymentListItem: schemaOf(paymentListItemSchema),
    Payment: schemaOf(paymentSchema),
    ValidationError: {
      type: "object",
      properties: {
        message: { type: "string", examples: [API_ERRORS.validationFailed.message] },
        errors: { type: "object", additionalProperties: { type: "array", items: { type: "string" } } },
      },
      required: ["message", "errors"],
    },
    ...webhookSchemas,
    ...sandboxSchemas,
    ...clockSchemas,
    RequestLogEntry: requestLogEntrySchema,
    ...inboxSchemas,
    RetrievedPayment: schemaOf(retrievedPaymentSchema),
    CreateRefund: schemaOf(createRefundSchema, "input"),
    Refund: schemaOf(refundSchema),
    SettlePayment: schemaOf(settleInputSchema, "input"),
    SettleRefund: schemaOf(settleRefundSchema, "input"),
    PaymentLink: schemaOf(paymentLinkSchema),
    CreatePaymentLink: schemaOf(createPaymentLinkSchema, "input"),
    UpdatePaymentLink: schemaOf(updatePaymentLinkSchema, "input"),
    Customer: schemaOf(customerSchema),
    Balance: schemaOf(balanceSchema),
    BalanceTransaction: schemaOf(balanceTransactionSchema),
    BalanceSummary: schemaOf(balanceSummarySchema),
    PayoutReconciliation: schemaOf(payoutReconciliationSchema),
    PayoutAccount: schemaOf(payoutAccountSchema),
    PayoutAccountInput: schemaOf(payoutAccountInputSchema, "input"),
    Payout: schemaOf(payoutSchema),
    CreatePayout: schemaOf(createPayoutSchema, "input"),
    SettlePayout: schemaOf(settlePayoutSchema, "input"),
    Dispute: schemaOf(disputeSchema),
    DisputeEvidence: schemaOf(disputeEvidenceInputSchema, "input"),
    DecideDispute: schemaOf(decideDisputeSchema, "input"),
    OpenDispute: schemaOf(openDisputeSchema, "input"),
  };
}
