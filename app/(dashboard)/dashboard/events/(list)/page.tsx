import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { requireMerchantSession } from "@/app/_lib/session";
import { RelativeTime } from "@/components/relative-time";
import { buttonClassName } from "@/components/ui/button";
import { Pagination } from "@/components/ui/pagination";
import { SelectField } from "@/components/ui/select-field";
import { SimpleTable } from "@/components/ui/simple-table";
import { readFor } from "@/db/replicas";
import { EVENTS_PAGE_SIZE, paymentIdOf, readEventFilters, type EventFilters } from "@/lib/events/dashboard";
import { listEvents } from "@/lib/events/queries";
import { WEBHOOK_EVENT_TYPES } from "@/lib/webhooks/endpoint-schemas";

export const metadata: Metadata = { title: "Events" };

const linkClass = "text-indigo-700 hover:underline dark:text-indigo-300";

/** The filters as a query string, with a page (left out when it is the first). */
function eventsHref(filters: EventFilters, page = 1): string {
  const query = new URLSearchParams();
  if (filters.type) query.set("type", filters.type);
  if (filters.paymentId !== undefined) query.set("payment_id", String(filters.paymentId));
  if (page > 1) query.set("page", String(page));
  const text = query.toString();
  return text ? `/dashboard/events?${text}` : "/dashboard/events";
}

export default async function EventsPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { merchantId } = await requireMerchantSession();
  const filters = readEventFilters(await searchParams);
  const { items, total } = await readFor(merchantId, (db) =>
    listEvents(db, merchantId, {
      page: filters.page,
      perPage: EVENTS_PAGE_SIZE,
      type: filters.type,
      payment_id: filters.paymentId,
    }),
  );
  const lastPage = Math.max(1, Math.ceil(total / EVENTS_PAGE_SIZE));
  if (filters.page > lastPage) redirect(eventsHref(filters, lastPage));
  const filtered = filters.type !== undefined || filters.paymentId !== undefined;
  return (
    <div className="max-w-5xl space-y-6">
      <div>
        <h1 className="text-2xl font-semibold">Events</h1>
        <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
          Everything that happened to your payments and refunds, newest first, with the exact body sent to
          your webhook endpoints and each delivery. The same events as{" "}
          <code className="font-mono">GET /api/events</code>.
        </p>
      </div>
      <form
        method="get"
        className="flex flex-wrap items-end gap-3 rounded-lg bg-white p-4 ring-1 ring-zinc-200 dark:bg-zinc-900 dark:ring-zinc-800"
      >
        <div className="min-w-56">
          <SelectField
            label="Type"
            name="type"
            defaultValue={filters.type ?? ""}
            options={[
              { value: "", label: "All types" },
              ...WEBHOOK_EVENT_TYPES.map((type) => ({ value: type, label: type })),
            ]}
          />
        </div>
        {filters.paymentId !== undefined ? (
          <input type="hidden" name="payment_id" value={filters.paymentId} />
        ) : null}
        <button type="submit" className={buttonClassName("primary")}>
          Filter
        </button>
        {filtered ? (
          <Link href="/dashboard/events" className={buttonClassName("secondary")}>
            Clear
          </Link>
        ) : null}
        {filters.paymentId !== undefined ? (
          <p className="text-sm text-zinc-600 dark:text-zinc-400">
            Payment{" "}
            <Link className={linkClass} href={`/dashboard/payments/${filters.paymentId}`}>
              {filters.paymentId}
            </Link>{" "}
            only
          </p>
        ) : null}
      </form>
      <SimpleTable
        caption="Events"
        headings={["Event", "Payment", "Created"]}
        empty={
          filtered ? "No events match these filters." : "No events yet: create a payment to see its events."
        }
      >
        {items.map((event) => {
          const paymentId = paymentIdOf(event.event, event.data);
          return (
            <tr key={event.id}>
              <td className="px-4 py-3">
                <Link href={`/dashboard/events/${event.id}`} className={`font-medium ${linkClass}`}>
                  {event.event}
                </Link>
                <span className="block max-w-40 truncate font-mono text-xs text-zinc-600 sm:max-w-none dark:text-zinc-400">
                  {event.id}
                </span>
              </td>
              <td className="px-4 py-3">
                {paymentId ? (
                  <Link href={`/dashboard/payments/${paymentId}`} className={`font-mono ${linkClass}`}>
                    {paymentId}
                  </Link>
                ) : (
                  "—"
                )}
              </td>
              <td className="whitespace-nowrap px-4 py-3">
                <RelativeTime value={event.created_at} />
              </td>
            </tr>
          );
        })}
      </SimpleTable>
      <Pagination
        label="Event pages"
        page={filters.page}
        pageCount={lastPage}
        links={{
          first: filters.page > 1 ? eventsHref(filters, 1) : undefined,
          previous: filters.page > 1 ? eventsHref(filters, filters.page - 1) : undefined,
          next: filters.page < lastPage ? eventsHref(filters, filters.page + 1) : undefined,
          last: filters.page < lastPage ? eventsHref(filters, lastPage) : undefined,
        }}
        summary={`${total.toLocaleString("en-US")} ${total === 1 ? "event" : "events"}`}
      />
    </div>
  );
}
