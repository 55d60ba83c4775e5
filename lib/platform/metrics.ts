import { timingSafeEqual } from "node:crypto";
import { sql } from "drizzle-orm";
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
import { getDb, poolUsage, selectRows } from "@/db/client";
import { replicaStatus } from "@/db/replicas";

/**
 * The process's Prometheus metrics. Default metrics cover memory, CPU, event-loop lag and handles; the rest
 * are the platform's own. Each process keeps its own; under `npm start`'s cluster a scrape reads them summed
 * over its processes (lib/platform/cluster-metrics.ts).
 */
export const metricsRegistry = new Registry();
/**
 * The event loop's delay is sampled every 100 ms, not prom-client's 10: its timer woke every process about
 * 200 times a second, which cost an idle process 5–6 ms of CPU a second (an idle dashboard process as much,
 * beside a busy API process). A block of the loop longer than that still delays a sample, and shows.
 */
const EVENT_LOOP_SAMPLE_MS = 100;
collectDefaultMetrics({ register: metricsRegistry, eventLoopMonitoringPrecision: EVENT_LOOP_SAMPLE_MS });

new Counter({
  name: "http_requests_total",
  help: "API requests answered, by route, method and status.",
  labelNames: ["route", "method", "status"],
  registers: [metricsRegistry],
  // The duration histogram counts every request already: its counts are copied at scrape time rather than
  // counted a second time on each request.
  async collect() {
    this.reset();
    for (const sample of (await httpRequestDuration.get()).values)
      if (sample.metricName === "http_request_duration_seconds_count") this.inc(sample.labels, sample.value);
  },
});

export const httpRequestDuration = new Histogram({
  name: "http_request_duration_seconds",
  help: "Time to answer an API request, by route, method and status.",
  labelNames: ["route", "method", "status"],
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
  registers: [metricsRegistry],
});

export const rateLimitRejections = new Counter({
  name: "rate_limit_rejections_total",
  help: "API requests refused with 429.",
  registers: [metricsRegistry],
});

export const requestLogDropped = new Counter({
  name: "api_request_log_dropped_total",
  help: "API request log entries never written, by reason: buffer_full (the database unreachable for long), refused (the database refused their batch 3 times) or stopped (unwritten when the process stopped).",
  labelNames: ["reason"],
  registers: [metricsRegistry],
});

export const webhookDeliveries = new Counter({
  name: "webhook_delivery_attempts_total",
  help: "Webhook delivery attempts, by outcome: succeeded, retrying (failed, will retry) or failed (gave up).",
  labelNames: ["outcome"],
  registers: [metricsRegistry],
});

export const webhookDeliveryLatency = new Histogram({
  name: "webhook_delivery_latency_seconds",
  help: "Time a receiver took to answer a delivery attempt.",
  buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 15],
  registers: [metricsRegistry],
});

new Gauge({
  name: "webhook_queue_depth",
  help: "Pending deliveries: due now, and waiting for a retry.",
  labelNames: ["state"],
  registers: [metricsRegistry],
  // One queue for the whole database, which every process of a cluster reads: not summed over them.
  aggregator: "max",
  // Read at scrape time, from the partial index on pending deliveries.
  async collect() {
    const [row] = await selectRows<{ due: number | string; retrying: number | string }>(
      getDb(),
      sql`select count(*) filter (where next_attempt_at <= now()) as due,
                 count(*) filter (where next_attempt_at > now() and attempt_count > 0) as retrying
          from webhook_deliveries where status = 'pending'`,
    );
    this.set({ state: "due" }, Number(row?.due ?? 0));
    this.set({ state: "retrying" }, Number(row?.retrying ?? 0));
  },
});

new Gauge({
  name: "db_pool_connections_in_use",
  help: "The database pool's connections running a statement or holding a transaction (PostgreSQL only).",
  registers: [metricsRegistry],
  collect() {
    const usage = poolUsage();
    if (usage) this.set(usage.inUse);
  },
});

new Gauge({
  name: "db_pool_waiting",
  help: "Statements and transactions waiting for a pool connection (PostgreSQL only).",
  registers: [metricsRegistry],
  collect() {
    const usage = poolUsage();
    if (usage) this.set(usage.waiting);
  },
});

// Read replicas (db/replicas.ts): present only when DATABASE_REPLICA_URLS is set.
new Gauge({
  name: "db_replica_lag_seconds",
  help: "How long ago the primary first wrote WAL this replica has not replayed (0: caught up; +Inf: down).",
  labelNames: ["replica"],
  registers: [metricsRegistry],
  aggregator: "max",
  collect() {
    for (const replica of replicaStatus()?.replicas ?? [])
      this.set({ replica: replica.name }, replica.lagMs / 1000);
  },
});

new Counter({
  name: "db_reads_total",
  help: "Lag-tolerant reads, by where they ran: a replica, or the primary (no replica had the merchant's writes, or none was usable).",
  labelNames: ["target"],
  registers: [metricsRegistry],
  collect() {
    const status = replicaStatus();
    if (!status) return;
    this.reset();
    this.inc({ target: "primary" }, status.primaryReads);
    for (const replica of status.replicas) this.inc({ target: replica.name }, replica.reads);
  },
});

/**
 * Whether a request may read the metrics: only with `Authorization: Bearer $METRICS_TOKEN`, compared in
 * constant time. Without METRICS_TOKEN the endpoint does not exist.
 */
export function mayReadMetrics(authorization: string | null, metricsToken: string | undefined): boolean {
  if (!metricsToken || !authorization) return false;
  const expected = Buffer.from(`Bearer ${metricsToken}`);
  const given = Buffer.from(authorization);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
