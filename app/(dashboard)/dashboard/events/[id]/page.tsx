import type { Metadata } from "next";
import { ActionForm } from "@/components/action-form";
import { JsonViewer } from "@/components/json-viewer";
import { Link } from "@/components/link";
import { RelativeTime } from "@/components/relative-time";
import { DeliveryStatusBadge } from "@/components/status-badges";
import { CopyButton } from "@/components/ui/copy-button";
import { BackLink, SimpleTable } from "@/components/ui/simple-table";
import { getDb } from "@/db/client";
import { can } from "@/lib/accounts/permissions";
import { listEventDeliveries } from "@/lib/events/payment-timeline";
import type { DeliveryAttempt } from "@/lib/webhooks/delivery-log";
import { loadEvent } from "./load-event";
import { resend } from "../../webhooks/actions";

type Props = { params: Promise<{ id: string }> };

const linkClass = "text-indigo-700 hover:underline dark:text-indigo-300";

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { event } = await loadEvent((await params).id);
  return { title: `${event.type} ${event.id}` };
}

/** "HTTP 500 · 41 ms", or the error when no answer came. */
function attemptSummary(attempt: DeliveryAttempt): string {
  const outcome =
    attempt.responseStatus !== null ? `HTTP ${attempt.responseStatus}` : (attempt.error ?? "no answer");
  return `${outcome} · ${attempt.latencyMs} ms`;
}

export default async function EventPage({ params }: Props) {
  const { merchantId, role, event } = await loadEvent((await params).id);
  // The webhooks' own Resend (it checks the role again): a queued delivery has nothing to resend yet.
  const canResend = can(role, "webhooks:write");
  const deliveries = await listEventDeliveries(getDb(), merchantId, [event.id]);
  return (
    <div className="max-w-4xl space-y-6">
      <div>
        <BackLink href="/dashboard/events">Events</BackLink>
        <h1 className="mt-2 text-2xl font-semibold">{event.type}</h1>
        <p className="mt-1 flex flex-wrap items-center gap-2 text-sm text-zinc-600 dark:text-zinc-400">
          <span className="break-all font-mono">{event.id}</span>
          <CopyButton value={event.id} label="Copy event ID" />
          <span>
            · <RelativeTime value={event.createdAt} />
          </span>
          {event.paymentId !== null ? (
            <>
              ·
              <Link className={linkClass} href={`/dashboard/payments/${event.paymentId}`}>
                Payment {event.paymentId}
              </Link>
              ·
              <Link className={linkClass} href={`/dashboard/events?payment_id=${event.paymentId}`}>
                All its events
              </Link>
            </>
          ) : null}
        </p>
      </div>
      <section aria-labelledby="body-heading" className="space-y-2">
        <h2 id="body-heading" className="text-base font-semibold">
          Body
        </h2>
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          Exactly what was signed and sent; its id is each delivery&apos;s{" "}
          <code className="font-mono">webhook-id</code>.
        </p>
        <JsonViewer body={event.body} summary="Event body" open />
      </section>
      <section aria-labelledby="deliveries-heading" className="space-y-2">
        <h2 id="deliveries-heading" className="text-base font-semibold">
          Deliveries
        </h2>
        <SimpleTable
          caption="This event's deliveries"
          headings={["Endpoint", "Status", "Attempts"]}
          empty="No webhook endpoint was subscribed to this event type when it happened."
        >
          {deliveries.map((delivery) => (
            <tr key={delivery.id} data-testid="event-delivery">
              <td className="px-4 py-3">
                <Link
                  href={`/dashboard/webhooks/${delivery.endpointId}`}
                  className={`break-all ${linkClass}`}
                >
                  {delivery.endpointUrl}
                </Link>
              </td>
              <td className="px-4 py-3">
                {/* Under its status, so a phone's narrow table keeps it in view. */}
                <div className="flex flex-col items-start gap-2">
                  <DeliveryStatusBadge status={delivery.status} />
                  {canResend && delivery.status !== "pending" ? (
                    <ActionForm
                      action={resend}
                      fields={{ endpoint_id: delivery.endpointId, delivery_id: delivery.id }}
                      submitLabel="Resend"
                    />
                  ) : null}
                </div>
              </td>
              <td className="px-4 py-3 text-xs">
                {delivery.attempts.length === 0 ? (
                  "Not attempted yet"
                ) : (
                  <ol className="space-y-1">
                    {delivery.attempts.map((attempt) => (
                      <li key={attempt.id}>
                        {attemptSummary(attempt)}{" "}
                        <span className="text-zinc-600 dark:text-zinc-400">
                          <RelativeTime value={attempt.attemptedAt} />
                        </span>
                      </li>
                    ))}
                  </ol>
                )}
              </td>
            </tr>
          ))}
        </SimpleTable>
      </section>
    </div>
  );
}
