import "server-only";
import { getEnv } from "./env";
import type { BackgroundService } from "./platform-services";
import { startSettler } from "./settlement";
import { startWebhookWorker } from "./webhooks/worker";

/** What runs beside the web server: the webhook worker and the settler, unless WORKER_MODE=off. */
export function inlineBackgroundServices(): BackgroundService[] {
  return getEnv().WORKER_MODE === "inline" ? workerServices() : [];
}

export function workerServices(): BackgroundService[] {
  return [startWebhookWorker, startSettler];
}
