/**
 * The client's address as the load balancer in front of the app saw it: the first `X-Forwarded-For` hop, else
 * `X-Real-IP`. Used to throttle failed logins and unauthenticated API calls per client.
 */
export function clientIp(headers: { get(name: string): string | null }): string {
  return headers.get("x-forwarded-for")?.split(",")[0]?.trim() || headers.get("x-real-ip") || "unknown";
}
