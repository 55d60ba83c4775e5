import { formatMoney } from "@/components/format";
import { JsonViewer } from "@/components/json-viewer";
import { Link } from "@/components/link";
import { RelativeTime } from "@/components/relative-time";
import { DeliveryStatusBadge } from "@/components/status-badges";
import { SectionHeading } from "@/components/ui/section-heading";
import type { PaymentMethod } from "@/db/schema";
import { cardLabel } from "@/lib/checkout/test-cards";
import type { TimelineEvent } from "@/lib/events/payment-timeline";

type EventData = {
  amount?: string;
  id?: number;
  status?: string;
  payment_method?: PaymentMethod | null;
  failure_reason?: string | null;
};

/** What happened, in a line: how it was paid, why it was declined, what a refund did. */
function EventSummary({
  event,
  failureReason,
  currency,
}: {
  event: TimelineEvent;
  failureReason: string | null;
  currency: string;
}) {
  const { data } = JSON.parse(event.body) as { data: EventData };
  const card = data.payment_method ? cardLabel(data.payment_method) : null;
  let text: React.ReactNode = null;
  if (event.type === "payment.completed") text = card ? `Paid with ${card} at checkout.` : "Completed.";
  else if (event.type === "payment.failed")
    text = card
      ? `Declined: ${failureReason ?? "the card was refused."} (${card})`
      : `Failed: ${failureReason ?? "—"}`;
  else if (event.type.startsWith("refund.") && data.amount) {
    const verb = event.type.slice("refund.".length);
    text = (
      <>
        <Link href={`#refund-${data.id}`} className="text-indigo-700 hover:underline dark:text-indigo-300">
          Refund of {formatMoney(data.amount, currency)}
        </Link>{" "}
        {verb}
        {verb === "failed" && data.failure_reason ? `: ${data.failure_reason}` : "."}
      </>
    );
  }
  return text ? <p className="text-sm text-zinc-700 dark:text-zinc-300">{text}</p> : null;
}

/** The payment's and its refunds' events, oldest first, each with its body and its deliveries' attempts. */
export function PaymentTimeline({
  paymentId,
  timeline,
  failureReason,
  currency,
}: {
  paymentId: number;
  timeline: TimelineEvent[];
  failureReason: string | null;
  currency: string;
}) {
  return (
    <section aria-labelledby="timeline-heading" className="space-y-3">
      <SectionHeading
        id="timeline-heading"
        title="Events"
        more={{ href: `/dashboard/events?payment_id=${paymentId}`, label: "Open in Events →" }}
      />
      <ol className="space-y-3 border-l border-zinc-200 pl-4 dark:border-zinc-800">
        {timeline.map((event) => (
          <li key={event.id} id={event.id} data-testid="timeline-event" className="space-y-1">
            <p className="text-sm">
              <span className="font-medium">{event.type}</span>{" "}
              <Link
                href={`/dashboard/events/${event.id}`}
                className="break-all font-mono text-xs text-indigo-700 hover:underline dark:text-indigo-300"
              >
                {event.id}
              </Link>{" "}
              <span className="text-xs text-zinc-600 dark:text-zinc-400">
                <RelativeTime value={event.createdAt} />
              </span>
            </p>
            <EventSummary event={event} failureReason={failureReason} currency={currency} />
            <JsonViewer body={event.body} summary="Event body" />
            {event.deliveries.length === 0 ? (
              <p className="text-xs text-zinc-600 dark:text-zinc-400">No webhook endpoint subscribed.</p>
            ) : (
              <ul className="space-y-1 text-xs">
                {event.deliveries.map((delivery) => (
                  <li key={delivery.id} className="flex flex-wrap items-center gap-2">
                    <DeliveryStatusBadge status={delivery.status} />
                    <span className="break-all">{delivery.endpointUrl}</span>
                    <span className="text-zinc-600 dark:text-zinc-400">
                      {delivery.attempts
                        .map(
                          (attempt) =>
                            `${attempt.responseStatus ?? attempt.error ?? "no answer"} in ${attempt.latencyMs} ms`,
                        )
                        .join(" → ") || "not attempted yet"}
                    </span>
                  </li>
                ))}
              </ul>
            )}
          </li>
        ))}
      </ol>
    </section>
  );
}
