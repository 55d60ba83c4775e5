// Every merchant-facing endpoint, each declared once beside its handler (defineRoute). The router serves this
// list and the OpenAPI document describes it, in this order.
import {
  listBalanceTransactionsRoute,
  releaseBalanceHelperRoute,
  showBalanceRoute,
  showBalanceTransactionRoute,
} from "./balance-routes";
import { advanceClockRoute, getClockRoute } from "./clock-routes";
import { listCustomersRoute, showCustomerRoute } from "./customer-routes";
import type { Route } from "./define-route";
import {
  closeDisputeRoute,
  decideDisputeHelperRoute,
  disputeEvidenceRoute,
  listDisputesRoute,
  openDisputeHelperRoute,
  showDisputeRoute,
} from "./dispute-routes";
import { listEventsRoute, resendEventRoute, showEventRoute } from "./event-routes";
import { eventStreamRoute } from "./event-stream-route";
import {
  createPaymentLinkRoute,
  listPaymentLinksRoute,
  showPaymentLinkRoute,
  updatePaymentLinkRoute,
} from "./payment-link-routes";
import { createPaymentRoute, listPaymentsRoute, showPaymentRoute } from "./payment-routes";
import {
  cancelPayoutRoute,
  createPayoutRoute,
  listPayoutsRoute,
  setPayoutAccountRoute,
  settlePayoutHelperRoute,
  showPayoutAccountRoute,
  showPayoutRoute,
} from "./payout-routes";
import { createRefundRoute, listAllRefundsRoute, listRefundsRoute, showRefundRoute } from "./refund-routes";
import { balanceSummaryRoute, payoutReconciliationRoute } from "./report-routes";
import { listRequestLogsRoute } from "./request-log-routes";
import { createSandboxRoute, deleteSandboxRoute, listSandboxesRoute } from "./sandbox-routes";
import { cancelPaymentRoute, settlePaymentHelperRoute, settleRefundHelperRoute } from "./settlement-routes";
import {
  listEndpointDeliveriesRoute,
  listInboxCapturesRoute,
  resendDeliveryRoute,
  verifyWebhookRoute,
} from "./webhook-delivery-routes";
import {
  createEndpointRoute,
  deleteEndpointRoute,
  listEndpointsRoute,
  rotateEndpointSecretRoute,
  showEndpointRoute,
  updateEndpointRoute,
} from "./webhook-endpoint-routes";

export const routes: readonly Route[] = [
  listPaymentsRoute,
  createPaymentRoute,
  showPaymentRoute,
  listRefundsRoute,
  createRefundRoute,
  showRefundRoute,
  cancelPaymentRoute,
  settlePaymentHelperRoute,
  settleRefundHelperRoute,
  listPaymentLinksRoute,
  createPaymentLinkRoute,
  showPaymentLinkRoute,
  updatePaymentLinkRoute,
  listAllRefundsRoute,
  listCustomersRoute,
  showCustomerRoute,
  listEventsRoute,
  showEventRoute,
  listEndpointsRoute,
  createEndpointRoute,
  showEndpointRoute,
  updateEndpointRoute,
  deleteEndpointRoute,
  rotateEndpointSecretRoute,
  listEndpointDeliveriesRoute,
  resendDeliveryRoute,
  eventStreamRoute,
  resendEventRoute,
  listRequestLogsRoute,
  listInboxCapturesRoute,
  verifyWebhookRoute,
  showBalanceRoute,
  listBalanceTransactionsRoute,
  showBalanceTransactionRoute,
  releaseBalanceHelperRoute,
  balanceSummaryRoute,
  payoutReconciliationRoute,
  showPayoutAccountRoute,
  setPayoutAccountRoute,
  listPayoutsRoute,
  createPayoutRoute,
  showPayoutRoute,
  cancelPayoutRoute,
  settlePayoutHelperRoute,
  listDisputesRoute,
  showDisputeRoute,
  disputeEvidenceRoute,
  closeDisputeRoute,
  decideDisputeHelperRoute,
  openDisputeHelperRoute,
  listSandboxesRoute,
  createSandboxRoute,
  deleteSandboxRoute,
  getClockRoute,
  advanceClockRoute,
];
