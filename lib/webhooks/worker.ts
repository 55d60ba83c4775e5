import "server-only";
import { getDb, listenForNotifications } from "@/db/client";
import { isDatabaseUnavailable } from "@/db/errors";
import { DELIVERIES_CHANNEL } from "@/lib/payments/outbox";
import type { BackgroundService } from "@/lib/platform/background-service";
import { getEnv } from "@/lib/platform/env";
import { logger } from "@/lib/platform/logger";
import { webhookDeliveries, webhookDeliveryLatency } from "@/lib/platform/metrics";
import { pause } from "@/lib/platform/pause";
import {
  claimDueDeliveries,
  recordAttempts,
  type AttemptOutcome,
  type ClaimedDelivery,
} from "./delivery-queue";
import { allowsPrivateNetworks } from "./endpoints";
import { captureInboxDelivery } from "./inbox";
import { nextAttemptDelaySeconds } from "./retry-policy";
import { sendWebhook, webhookBody, type SendResult } from "./send";

const failedAttempt = (error: string): SendResult => ({
  ok: false,
  status: null,
  latencyMs: 0,
  error,
  excerpt: null,
  retryAfterSeconds: null,
});

/** A batch of results the database refuses (not an outage) is tried this many times, then dropped. */
const RECORD_TRIES = 3;
const RECORD_RETRY_MS = 1000;

export type WorkerOptions = {
  /** Sends under way at once in this process. */
  concurrency: number;
  timeoutMs: number;
  /** How long a claim is held; longer than the send timeout, so only a dead worker's claims expire. */
  leaseSeconds: number;
  /** The fallback poll when no notification arrives. */
  pollMs: number;
  /** Results are written in batches of up to this many. */
  flushSize: number;
};

export function defaultWorkerOptions(): WorkerOptions {
  const timeoutMs = getEnv().WEBHOOK_TIMEOUT_MS;
  return {
    concurrency: 64,
    timeoutMs,
    leaseSeconds: Math.ceil(timeoutMs / 1000) * 2,
    pollMs: 1000,
    flushSize: 100,
  };
}

function outcomeOf(delivery: ClaimedDelivery, attemptedAt: Date, result: SendResult): AttemptOutcome {
  const gone = result.status === 410;
  const attempt = delivery.attemptCount + 1;
  const delay = result.ok || gone ? null : nextAttemptDelaySeconds(attempt, result.retryAfterSeconds);
  return {
    delivery,
    attemptedAt,
    status: result.status,
    latencyMs: result.latencyMs,
    error: result.error,
    excerpt: result.excerpt,
    deliveryStatus: result.ok ? "succeeded" : delay === null ? "failed" : "pending",
    nextAttemptAt: new Date(attemptedAt.getTime() + (delay ?? 0) * 1000),
    gone,
  };
}

/**
 * Delivers webhooks: claims due deliveries while it has free send slots, sends them concurrently, and
 * writes results in batches. Woken by NOTIFY when events are written, polling as the fallback.
 */
export class WebhookWorker {
  private running = false;
  private inFlight = 0;
  private results: AttemptOutcome[] = [];
  private flushing: Promise<void> = Promise.resolve();
  private wake: (() => void) | undefined;
  private loop: Promise<void> = Promise.resolve();
  /** Set while a failed batch waits to be written again; flushes in between leave it waiting. */
  private retryTimer: NodeJS.Timeout | undefined;
  /** Failures of the waiting batch that count against RECORD_TRIES (not those of an unreachable database). */
  private recordFailures = 0;

  constructor(private readonly options: WorkerOptions = defaultWorkerOptions()) {}

  async start(): Promise<void> {
    this.running = true;
    await listenForNotifications(DELIVERIES_CHANNEL, () => this.wake?.());
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.wake?.();
    await this.loop;
    while (this.inFlight > 0) await new Promise((resolve) => setTimeout(resolve, 20));
    await this.flush();
  }

  private async run(): Promise<void> {
    while (this.running) {
      const free = this.options.concurrency - this.inFlight;
      let claimed: ClaimedDelivery[] = [];
      if (free > 0) {
        try {
          claimed = await claimDueDeliveries(getDb(), free, this.options.leaseSeconds);
        } catch (error) {
          logger.error({ err: error }, "Webhook worker could not claim deliveries");
        }
      }
      for (const delivery of claimed) this.dispatch(delivery);
      // A stop during the claim found no pause to wake.
      if (!this.running) break;
      // More may be due right away only when the claim filled every free slot.
      if (claimed.length === 0 || claimed.length < free) await this.idle(this.options.pollMs);
      else await this.idle(this.options.timeoutMs);
    }
  }

  private idle(ms: number): Promise<void> {
    return pause(ms, (wake) => (this.wake = wake));
  }

  /** Sends one delivery over the network, or captures it when the endpoint is an inbox. */
  private attempt(delivery: ClaimedDelivery, attemptedAt: Date): Promise<SendResult> {
    if (delivery.problem) return Promise.resolve(failedAttempt(delivery.problem));
    const message = {
      url: delivery.url,
      eventId: delivery.eventId,
      timestamp: attemptedAt,
      body: webhookBody(delivery.eventType, delivery.data),
      secrets: delivery.secrets,
    };
    if (delivery.kind === "inbox")
      return captureInboxDelivery(getDb(), delivery, message, this.options.timeoutMs).catch(
        (error: unknown) => {
          logger.error({ err: error }, "An inbox could not capture a delivery");
          return failedAttempt("The inbox could not capture the delivery.");
        },
      );
    return sendWebhook(message, {
      allowPrivateNetworks: allowsPrivateNetworks(),
      timeoutMs: this.options.timeoutMs,
    });
  }

  private dispatch(delivery: ClaimedDelivery): void {
    this.inFlight++;
    const attemptedAt = new Date();
    const send = this.attempt(delivery, attemptedAt);
    void send.then((result) => {
      const outcome = outcomeOf(delivery, attemptedAt, result);
      webhookDeliveries.inc({
        outcome: outcome.deliveryStatus === "pending" ? "retrying" : outcome.deliveryStatus,
      });
      // An inbox answers in-process (a chosen timeout is recorded, not waited): not a network latency.
      if (!delivery.problem && delivery.kind === "url")
        webhookDeliveryLatency.observe(result.latencyMs / 1000);
      this.results.push(outcome);
      this.inFlight--;
      this.wake?.();
      if (this.results.length >= this.options.flushSize) void this.flush();
      else setImmediate(() => void this.flush());
    });
  }

  /**
   * Writes buffered results; serialised so batches never interleave. A batch that fails goes back to the
   * front of the buffer and is written again a second later, as the request log's batches are: for as long as
   * the database is unreachable (a restart, a failover), and RECORD_TRIES times for any other error. While it
   * waits, the deliveries stay claimed; one whose lease runs out first is sent again (at-least-once).
   */
  private flush(): Promise<void> {
    this.flushing = this.flushing.then(async () => {
      if (this.retryTimer && this.running) return;
      clearTimeout(this.retryTimer);
      this.retryTimer = undefined;
      const batch = this.results.splice(0);
      if (batch.length === 0) return;
      try {
        await recordAttempts(getDb(), batch);
        this.recordFailures = 0;
      } catch (error) {
        if (!isDatabaseUnavailable(error)) this.recordFailures += 1;
        const givenUp = this.recordFailures >= RECORD_TRIES || !this.running;
        logger.error(
          { err: error, attempts: batch.length },
          givenUp
            ? `Webhook worker dropped ${batch.length} attempts it could not record`
            : `Webhook worker could not record ${batch.length} attempts yet; trying again`,
        );
        if (givenUp) {
          this.recordFailures = 0;
          return;
        }
        this.results.unshift(...batch);
        this.retryTimer = setTimeout(() => {
          this.retryTimer = undefined;
          void this.flush();
        }, RECORD_RETRY_MS);
      }
    });
    return this.flushing;
  }
}

export const startWebhookWorker: BackgroundService = async () => {
  const worker = new WebhookWorker();
  await worker.start();
  return () => worker.stop();
};
