import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { requireMerchantSession } from "@/app/_lib/session";
import { Link } from "@/components/link";
import { LiveUpdates } from "@/components/live-refresh";
import { buttonClassName } from "@/components/ui/button";
import { numberedPageLinks, Pagination } from "@/components/ui/pagination";
import { SelectField } from "@/components/ui/select-field";
import { SubmitOnChange } from "@/components/ui/submit-on-change";
import { getDb } from "@/db/client";
import { readFor } from "@/db/replicas";
import {
  deliverySummaries,
  EVENTS_PAGE_SIZE,
  readEventFilters,
  type EventFilters,
} from "@/lib/events/dashboard";
import { liveVersion } from "@/lib/events/live-version";
import { listEvents } from "@/lib/events/queries";
import { WEBHOOK_EVENT_TYPES } from "@/lib/webhooks/endpoint-schemas";
import { EventRows } from "./event-rows";

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
  // The version before what it versions, so a change in between renders the page again (LiveUpdates).
  const version = await liveVersion(getDb(), merchantId, { kind: "events" });
  const { items, total } = await readFor(merchantId, (db) =>
    listEvents(db, merchantId, {
      page: filters.page,
      perPage: EVENTS_PAGE_SIZE,
      type: filters.type,
      payment_id: filters.paymentId,
    }),
  );
  const deliveries = await readFor(merchantId, (db) =>
    deliverySummaries(
      db,
      merchantId,
      items.map((event) => event.id),
    ),
  );
  const lastPage = Math.max(1, Math.ceil(total / EVENTS_PAGE_SIZE));
  if (filters.page > lastPage) redirect(eventsHref(filters, lastPage));
  const filtered = filters.type !== undefined || filters.paymentId !== undefined;
  return (
    <div className="max-w-5xl space-y-6">
      <LiveUpdates scope="events" version={version} />
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
        <SubmitOnChange className="min-w-56">
          <SelectField
            label="Type"
            name="type"
            defaultValue={filters.type ?? ""}
            options={[
              { value: "", label: "All types" },
              ...WEBHOOK_EVENT_TYPES.map((type) => ({ value: type, label: type })),
            ]}
          />
        </SubmitOnChange>
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
      <EventRows
        events={items}
        deliveries={deliveries}
        empty={
          filtered ? "No events match these filters." : "No events yet: create a payment to see its events."
        }
      />
      <Pagination
        label="Event pages"
        page={filters.page}
        pageCount={lastPage}
        links={numberedPageLinks(filters.page, lastPage, (target) => eventsHref(filters, target))}
        summary={`${total.toLocaleString("en-US")} ${total === 1 ? "event" : "events"}`}
      />
    </div>
  );
}
