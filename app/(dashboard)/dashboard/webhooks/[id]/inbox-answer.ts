import type { InboxAnswerColumns } from "@/lib/webhooks/endpoints";

/** "answers 500 to the next 2 deliveries", "times out until changed", or "answers 200". */
export function describeInboxAnswer(endpoint: InboxAnswerColumns): string {
  const remaining = endpoint.inboxResponseRemaining;
  const how = endpoint.inboxResponseTimeout
    ? "times out"
    : endpoint.inboxResponseStatus !== null
      ? `answers ${endpoint.inboxResponseStatus}`
      : null;
  if (!how) return "answers 200";
  if (remaining === null) return `${how} until changed`;
  return `${how} to the next ${remaining} ${remaining === 1 ? "delivery" : "deliveries"}`;
}

/** The answer form's starting values. */
export function inboxAnswerValues(endpoint: InboxAnswerColumns): { answer: string; count: string } {
  return {
    answer: endpoint.inboxResponseTimeout ? "timeout" : String(endpoint.inboxResponseStatus ?? 200),
    count: endpoint.inboxResponseRemaining === null ? "" : String(endpoint.inboxResponseRemaining),
  };
}
