import { RelativeTime } from "@/components/relative-time";
import { StatusBadge } from "@/components/ui/status-badge";
import type { EndpointHealth } from "@/lib/webhooks/endpoint-health";
import type { WebhookEndpointSummary } from "@/lib/webhooks/endpoints";

/** enabled, failing (enabled, but nothing has succeeded since its first failure) or disabled. */
export function EndpointStatusBadge({
  endpoint,
}: {
  endpoint: Pick<WebhookEndpointSummary, "enabled" | "failingSince">;
}) {
  if (!endpoint.enabled) return <StatusBadge tone="gray">disabled</StatusBadge>;
  if (endpoint.failingSince) return <StatusBadge tone="red">failing</StatusBadge>;
  return <StatusBadge tone="green">enabled</StatusBadge>;
}

/**
 * "97% of 120 succeeded · last 200, 3 min ago", or that nothing was sent in the window; stacked in a table
 * cell, on one line in a page header.
 */
export function HealthSummary({ health, inline = false }: { health?: EndpointHealth; inline?: boolean }) {
  if (!health) return <span className="text-zinc-600 dark:text-zinc-400">No attempts</span>;
  const rate = Math.floor((health.succeeded / health.attempts) * 100);
  const part = inline ? "inline" : "block";
  return (
    <span className={inline ? "inline-flex flex-wrap gap-x-1" : "space-y-0.5"}>
      <span className={`${part} whitespace-nowrap font-medium tabular-nums`}>
        {rate}% of {health.attempts.toLocaleString("en-US")} succeeded
      </span>
      <span
        className={`${part} max-w-56 truncate text-zinc-600 dark:text-zinc-400`}
        title={health.lastResult ?? undefined}
      >
        {inline ? "· " : ""}last {health.lastResult ?? "—"}
        {health.lastAttemptAt ? (
          <>
            , <RelativeTime value={health.lastAttemptAt} />
          </>
        ) : null}
      </span>
    </span>
  );
}
