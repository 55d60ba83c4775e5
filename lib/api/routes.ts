// Every merchant-facing endpoint, and the handler that serves each method: the table the router matches.
import { listCustomersRoute, showCustomerRoute } from "./customer-routes";
import { listEventsRoute, resendEventRoute, showEventRoute } from "./event-routes";
import { eventStreamRoute } from "./event-stream-route";
import { buildOpenApiDocument } from "./openapi";
import {
  createPaymentLinkRoute,
  listPaymentLinksRoute,
  showPaymentLinkRoute,
  updatePaymentLinkRoute,
} from "./payment-link-routes";
import { createPaymentRoute, listPaymentsRoute, showPaymentRoute } from "./payment-routes";
import {
  cancelPaymentRoute,
  createRefundRoute,
  listAllRefundsRoute,
  listRefundsRoute,
  settlePaymentHelperRoute,
  settleRefundHelperRoute,
  showRefundRoute,
} from "./refund-routes";
import type { RequestBody } from "./request-body";
import { listRequestLogsRoute } from "./request-log-routes";
import { jsonResponse } from "./responses";
import type { ApiRequest, ApiResponse } from "./types";
import {
  createEndpointRoute,
  deleteEndpointRoute,
  listEndpointDeliveriesRoute,
  listInboxCapturesRoute,
  listEndpointsRoute,
  resendDeliveryRoute,
  rotateEndpointSecretRoute,
  showEndpointRoute,
  updateEndpointRoute,
  verifyWebhookRoute,
} from "./webhook-endpoint-routes";

export type Handler = (
  request: ApiRequest,
  params: Record<string, string>,
  url: URL,
  body: RequestBody,
) => Promise<ApiResponse>;
export type Method = "GET" | "POST" | "PATCH" | "DELETE";
export type Route = { pattern: RegExp; name: string; methods: Partial<Record<Method, Handler>> };

const openApiRoute: Handler = (_request, _params, url) =>
  Promise.resolve(jsonResponse(200, buildOpenApiDocument(url.origin)));

/** Every merchant-facing endpoint. `name` is the route as Laravel names it in its 405 message. */
export const routes: Route[] = [
  {
    pattern: /^\/api\/payments$/,
    name: "api/payments",
    methods: { GET: listPaymentsRoute, POST: createPaymentRoute },
  },
  {
    pattern: /^\/api\/payments\/(?<id>[^/]+)$/,
    name: "api/payments/{id}",
    methods: { GET: showPaymentRoute },
  },
  {
    pattern: /^\/api\/payments\/(?<id>[^/]+)\/refunds$/,
    name: "api/payments/{id}/refunds",
    methods: { GET: listRefundsRoute, POST: createRefundRoute },
  },
  {
    pattern: /^\/api\/payments\/(?<id>[^/]+)\/cancel$/,
    name: "api/payments/{id}/cancel",
    methods: { POST: cancelPaymentRoute },
  },
  { pattern: /^\/api\/refunds$/, name: "api/refunds", methods: { GET: listAllRefundsRoute } },
  { pattern: /^\/api\/refunds\/(?<id>[^/]+)$/, name: "api/refunds/{id}", methods: { GET: showRefundRoute } },
  { pattern: /^\/api\/customers$/, name: "api/customers", methods: { GET: listCustomersRoute } },
  {
    pattern: /^\/api\/customers\/(?<id>[^/]+)$/,
    name: "api/customers/{id}",
    methods: { GET: showCustomerRoute },
  },
  {
    pattern: /^\/api\/payment-links$/,
    name: "api/payment-links",
    methods: { GET: listPaymentLinksRoute, POST: createPaymentLinkRoute },
  },
  {
    pattern: /^\/api\/payment-links\/(?<id>[^/]+)$/,
    name: "api/payment-links/{id}",
    methods: { GET: showPaymentLinkRoute, PATCH: updatePaymentLinkRoute },
  },
  {
    pattern: /^\/api\/test-helpers\/payments\/(?<id>[^/]+)\/settle$/,
    name: "api/test-helpers/payments/{id}/settle",
    methods: { POST: settlePaymentHelperRoute },
  },
  {
    pattern: /^\/api\/test-helpers\/refunds\/(?<id>[^/]+)\/settle$/,
    name: "api/test-helpers/refunds/{id}/settle",
    methods: { POST: settleRefundHelperRoute },
  },
  { pattern: /^\/api\/events$/, name: "api/events", methods: { GET: listEventsRoute } },
  { pattern: /^\/api\/events\/stream$/, name: "api/events/stream", methods: { GET: eventStreamRoute } },
  { pattern: /^\/api\/events\/(?<id>[^/]+)$/, name: "api/events/{id}", methods: { GET: showEventRoute } },
  {
    pattern: /^\/api\/events\/(?<id>[^/]+)\/resend$/,
    name: "api/events/{id}/resend",
    methods: { POST: resendEventRoute },
  },
  {
    pattern: /^\/api\/webhook-endpoints$/,
    name: "api/webhook-endpoints",
    methods: { GET: listEndpointsRoute, POST: createEndpointRoute },
  },
  {
    pattern: /^\/api\/webhook-endpoints\/(?<id>[^/]+)$/,
    name: "api/webhook-endpoints/{id}",
    methods: { GET: showEndpointRoute, PATCH: updateEndpointRoute, DELETE: deleteEndpointRoute },
  },
  {
    pattern: /^\/api\/webhook-endpoints\/(?<id>[^/]+)\/rotate-secret$/,
    name: "api/webhook-endpoints/{id}/rotate-secret",
    methods: { POST: rotateEndpointSecretRoute },
  },
  {
    pattern: /^\/api\/webhook-endpoints\/(?<id>[^/]+)\/deliveries$/,
    name: "api/webhook-endpoints/{id}/deliveries",
    methods: { GET: listEndpointDeliveriesRoute },
  },
  {
    pattern: /^\/api\/webhook-endpoints\/(?<id>[^/]+)\/inbox$/,
    name: "api/webhook-endpoints/{id}/inbox",
    methods: { GET: listInboxCapturesRoute },
  },
  {
    pattern: /^\/api\/webhook-deliveries\/(?<id>[^/]+)\/resend$/,
    name: "api/webhook-deliveries/{id}/resend",
    methods: { POST: resendDeliveryRoute },
  },
  {
    pattern: /^\/api\/webhooks\/verify$/,
    name: "api/webhooks/verify",
    methods: { POST: verifyWebhookRoute },
  },
  { pattern: /^\/api\/request-logs$/, name: "api/request-logs", methods: { GET: listRequestLogsRoute } },
  { pattern: /^\/api\/openapi\.json$/, name: "api/openapi.json", methods: { GET: openApiRoute } },
];
