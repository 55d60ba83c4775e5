import { formatMoney } from "@/components/format";
import { Link } from "@/components/link";
import { RelativeTime } from "@/components/relative-time";
import { Card, CardList } from "@/components/ui/card-list";
import { LinkedRow } from "@/components/ui/linked-row";
import { SimpleTable } from "@/components/ui/simple-table";
import { StatusBadge } from "@/components/ui/status-badge";
import { paymentIdOf, type DeliverySummary } from "@/lib/events/dashboard";
import type { EventResource } from "@/lib/events/queries";

const linkClass = "text-indigo-700 hover:underline dark:text-indigo-300";

/** Where an event's deliveries stand: every endpoint answered, some still trying, some gave up, or none. */
function DeliveryResult({ summary }: { summary: DeliverySummary | undefined }) {
  if (!summary) return <span className="text-xs text-zinc-600 dark:text-zinc-400">No endpoint</span>;
  const [tone, label, count] =
    summary.failed > 0
      ? (["red", "Failed", summary.failed] as const)
      : summary.pending > 0
        ? (["yellow", "Pending", summary.pending] as const)
        : (["green", "Delivered", summary.succeeded] as const);
  return (
    <span className="inline-flex items-center gap-1.5">
      <StatusBadge tone={tone}>{label}</StatusBadge>
      {summary.total > 1 ? (
        <span className="text-xs text-zinc-600 dark:text-zinc-400">
          {count} of {summary.total}
        </span>
      ) : null}
    </span>
  );
}

function PaymentCell({ event }: { event: EventResource }) {
  const paymentId = paymentIdOf(event.event, event.data);
  const { amount, currency } = (event.data ?? {}) as { amount?: unknown; currency?: unknown };
  return (
    <>
      {paymentId ? (
        <Link href={`/dashboard/payments/${paymentId}`} className={`font-mono ${linkClass}`}>
          {paymentId}
        </Link>
      ) : (
        "—"
      )}
      {typeof amount === "string" ? (
        <span className="block tabular-nums text-zinc-700 dark:text-zinc-300">
          {/* An event from before currencies carries none: its amount as it was sent. */}
          {typeof currency === "string" ? formatMoney(amount, currency) : amount}
        </span>
      ) : null}
    </>
  );
}

/** The Events list: a table, and cards below 640 px (a phone shows no sideways scroll). */
export function EventRows({
  events,
  deliveries,
  empty,
}: {
  events: EventResource[];
  deliveries: Map<string, DeliverySummary>;
  empty: string;
}) {
  return (
    <>
      <SimpleTable
        className="hidden sm:block"
        caption="Events"
        headings={["Event", "Payment", "Deliveries", "Created"]}
        empty={empty}
      >
        {events.map((event) => (
          <LinkedRow key={event.id} href={`/dashboard/events/${event.id}`} data-testid="event-row">
            <td className="px-4 py-3">
              <Link href={`/dashboard/events/${event.id}`} className={`font-medium ${linkClass}`}>
                {event.event}
              </Link>
              <span className="block font-mono text-xs text-zinc-600 dark:text-zinc-400">{event.id}</span>
            </td>
            <td className="px-4 py-3">
              <PaymentCell event={event} />
            </td>
            <td className="px-4 py-3">
              <DeliveryResult summary={deliveries.get(event.id)} />
            </td>
            <td className="whitespace-nowrap px-4 py-3">
              <RelativeTime value={event.created_at} />
            </td>
          </LinkedRow>
        ))}
      </SimpleTable>
      <CardList label="Events" empty={empty}>
        {events.map((event) => (
          <Card key={event.id}>
            <div className="flex items-start justify-between gap-2">
              <Link href={`/dashboard/events/${event.id}`} className={`font-medium ${linkClass}`}>
                {event.event}
              </Link>
              <DeliveryResult summary={deliveries.get(event.id)} />
            </div>
            <p className="break-all font-mono text-xs text-zinc-600 dark:text-zinc-400">{event.id}</p>
            <div className="flex items-end justify-between gap-2 text-xs">
              <span>
                Payment <PaymentCell event={event} />
              </span>
              <span className="text-zinc-600 dark:text-zinc-400">
                <RelativeTime value={event.created_at} />
              </span>
            </div>
          </Card>
        ))}
      </CardList>
    </>
  );
}
