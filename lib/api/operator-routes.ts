import { sql } from "drizzle-orm";
import { getDb, selectRows } from "@/db/client";
import { inCluster, scrapeCluster } from "@/lib/platform/cluster-metrics";
import { withDeadline } from "@/lib/platform/deadline";
import { getEnv } from "@/lib/platform/env";
import { mayReadMetrics, metricsRegistry } from "@/lib/platform/metrics";
import { API_ERRORS } from "./api-errors";
import { jsonResponse } from "./responses";
import type { ApiResponse } from "./types";

/** How long readiness waits for the database before answering 503. */
const READINESS_TIMEOUT_MS = 1000;

/**
 * Whether a writable primary answers: a connection to a node in recovery (a standby, or a promoted node still
 * waiting for its demoted peer, which pg_auto_failover keeps read-only) does not make the platform ready.
 */
function databaseAnswers(): Promise<boolean> {
  const probe = selectRows<{ writable: boolean }>(
    getDb(),
    sql`select not pg_is_in_recovery() and current_setting('transaction_read_only') = 'off' as writable`,
  ).then(
    ([row]) => row?.writable === true,
    () => false,
  );
  return withDeadline(probe, READINESS_TIMEOUT_MS, () => false);
}

async function metricsResponse(authorization: string | null): Promise<ApiResponse> {
  const token = getEnv().METRICS_TOKEN;
  if (!token) return jsonResponse(404, { message: API_ERRORS.notFound.message });
  if (!mayReadMetrics(authorization, token))
    return jsonResponse(
      401,
      { message: API_ERRORS.unauthenticated.message },
      { "WWW-Authenticate": "Bearer" },
    );
  return {
    status: 200,
    headers: { "Content-Type": metricsRegistry.contentType, "Cache-Control": "no-store" },
    body: inCluster() ? await scrapeCluster() : await metricsRegistry.metrics(),
  };
}

/**
 * What operators and load balancers call, outside the merchant API, its tokens and its rate limits:
 * `/healthz` (the process is up, no I/O), `/readyz` (a writable primary answers within a second, else 503,
 * so a load balancer stops sending traffic during an outage or a failover) and `/metrics` (Prometheus text, only with
 * METRICS_TOKEN). Undefined for any other path.
 */
export function operatorRoute(
  pathname: string,
  authorization: string | null,
): Promise<ApiResponse> | undefined {
  if (pathname === "/metrics") return metricsResponse(authorization);
  if (pathname === "/healthz") return Promise.resolve(jsonResponse(200, { status: "ok" }));
  if (pathname === "/readyz")
    return databaseAnswers().then((ready) =>
      ready
        ? jsonResponse(200, { status: "ok", database: "ok" })
        : jsonResponse(503, { status: "unavailable", database: "unreachable" }, { "Retry-After": "5" }),
    );
  return undefined;
}
