import "server-only";
import { startDisputeSimulator } from "@/lib/disputes/simulator";
import { startBalanceReleaser } from "@/lib/ledger/releaser";
import { settlerService } from "@/lib/payments/settler";
import { startPayoutScheduler, startPayoutSimulator } from "@/lib/payouts/schedule";
import type { BackgroundService } from "@/lib/platform/background-service";
import { getEnv } from "@/lib/platform/env";
import { startHistoryPartitioner } from "@/lib/platform/history-partitions";
import { startProcessorReconciler } from "@/lib/processors/reconciler";
import { settleDueRefunds } from "@/lib/refunds/settlement";
import { startPruner } from "@/lib/retention/pruning";
import { startWebhookWorker } from "@/lib/webhooks/worker";

/** The settler settles due payments, then due refunds: payments/ cannot import refunds/, so they are handed in. */
const startSettler = settlerService(settleDueRefunds);

/**
 * What a worker process runs, each service its domain's: the webhook worker (deliveries), the settler (due
 * payments and refunds, and the expiry of stale pending payments), the balance releaser, the payout
 * simulator and schedule, the dispute simulator (test cards' disputes, verdicts, deadlines), the processors'
 * reconciler (a webhook that never came), the pruner (retention) and the partition creator. The platform's runner (lib/platform/background-services.ts) starts and stops whatever it is given,
 * and knows none of them.
 */
export function workerServices(): BackgroundService[] {
  return [
    startWebhookWorker,
    startSettler,
    startBalanceReleaser,
    startPayoutSimulator,
    startPayoutScheduler,
    startDisputeSimulator,
    startProcessorReconciler,
    startPruner,
    startHistoryPartitioner,
  ];
}

/** What runs beside the web server: the worker's services, unless WORKER_MODE=off. */
export function inlineBackgroundServices(): BackgroundService[] {
  return getEnv().WORKER_MODE === "inline" ? workerServices() : [];
}
