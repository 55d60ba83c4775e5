/** Waits after each failed attempt: about 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h; then the delivery fails. */
export const RETRY_DELAYS_SECONDS = [5, 5 * 60, 30 * 60, 2 * 3600, 5 * 3600, 10 * 3600, 10 * 3600] as const;
/** Longest Retry-After a receiver may ask for; beyond it the schedule applies. */
const MAX_RETRY_AFTER_SECONDS = 24 * 3600;

/**
 * When to try again after the `attempt`-th failed attempt (1-based), or null when attempts are exhausted.
 * ±10% jitter spreads retries of one outage; a Retry-After from the receiver is honoured.
 */
export function nextAttemptDelaySeconds(
  attempt: number,
  retryAfterSeconds: number | null,
  random = Math.random,
): number | null {
  const base = RETRY_DELAYS_SECONDS[attempt - 1];
  if (base === undefined) return null;
  if (retryAfterSeconds !== null && retryAfterSeconds <= MAX_RETRY_AFTER_SECONDS)
    return Math.max(1, retryAfterSeconds);
  return base * (0.9 + random() * 0.2);
}

function formatDelay(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  if (seconds < 3600) return `${seconds / 60} min`;
  return `${seconds / 3600} h`;
}

/** The schedule in words, for the dashboard: "7 times over about 27.6 hours (5 s, 5 min, …)". */
export function describeRetrySchedule(): string {
  const totalHours = RETRY_DELAYS_SECONDS.reduce((sum, delay) => sum + delay, 0) / 3600;
  return `${RETRY_DELAYS_SECONDS.length} times over about ${totalHours.toFixed(1)} hours (${RETRY_DELAYS_SECONDS.map(formatDelay).join(", ")})`;
}
