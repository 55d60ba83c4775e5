import { ActionForm } from "@/components/action-form";
import { JsonViewer } from "@/components/json-viewer";
import { Link } from "@/components/link";
import { RelativeTime } from "@/components/relative-time";
import { DeliveryStatusBadge } from "@/components/status-badges";
import { Pagination } from "@/components/ui/pagination";
import { StatusBadge } from "@/components/ui/status-badge";
import { DELIVERY_STATUSES } from "@/db/enums";
import { keysetPageLinks, keysetQuery, type KeysetCursor } from "@/lib/platform/keyset-pages";
import {
  DELIVERY_LOG_PAGE_SIZE,
  type DeliveryAttempt,
  type DeliveryLogEntry,
  type DeliveryLogPage,
  type DeliveryLogQuery,
} from "@/lib/webhooks/delivery-log";
import { resend, retryNow } from "../actions";

/** Sent by the platform about the merchant's endpoints (`webhook_endpoint.disabled`), not about a payment. */
const isOperational = (delivery: DeliveryLogEntry) => delivery.eventType.startsWith("webhook_endpoint.");

/** What an attempt got back and how long it took: "HTTP 500 · 41 ms", or "no response · 10000 ms". */
const attemptOutcome = (attempt: DeliveryAttempt) =>
  `${attempt.responseStatus === null ? "no response" : `HTTP ${attempt.responseStatus}`} · ${attempt.latencyMs.toLocaleString("en-US")} ms`;

/**
 * A delivery's state: "retrying (attempt 3, next in 28 min)" while a failed delivery waits for its next try,
 * otherwise its status and how many attempts it took; then the latest attempt's outcome.
 */
function DeliveryState({ delivery }: { delivery: DeliveryLogEntry }) {
  const attempts = delivery.attempts.length;
  const latest = delivery.attempts.at(-1);
  const outcome = latest ? (
    <span className="font-mono text-xs text-zinc-700 dark:text-zinc-300">{attemptOutcome(latest)}</span>
  ) : null;
  if (delivery.status === "pending" && attempts > 0)
    return (
      <span className="flex flex-wrap items-center gap-2">
        <StatusBadge tone="yellow">retrying</StatusBadge>
        <span className="text-zinc-600 dark:text-zinc-400">
          attempt {attempts + 1}, next <RelativeTime value={delivery.nextAttemptAt} />
        </span>
        {outcome}
      </span>
    );
  return (
    <span className="flex flex-wrap items-center gap-2">
      <DeliveryStatusBadge status={delivery.status} />
      <span className="text-zinc-600 dark:text-zinc-400">
        {attempts} attempt{attempts === 1 ? "" : "s"}
      </span>
      {outcome}
    </span>
  );
}

export function DeliveriesLog({
  endpointId,
  page,
  query,
  canResend,
}: {
  endpointId: number;
  page: DeliveryLogPage;
  query: DeliveryLogQuery;
  canResend: boolean;
}) {
  const base = `/dashboard/webhooks/${endpointId}`;
  const { status } = query;
  const deliveries = page.rows;
  const pageLink = (cursor: KeysetCursor) => `${base}${keysetQuery({ status }, cursor)}`;
  return (
    <section aria-labelledby="deliveries-heading" className="space-y-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="deliveries-heading" className="text-base font-semibold">
          Deliveries
        </h2>
        <nav aria-label="Filter deliveries by status" className="flex gap-1 text-sm">
          {[undefined, ...DELIVERY_STATUSES].map((value) => (
            <Link
              key={value ?? "all"}
              href={value ? `${base}?status=${value}` : base}
              aria-current={status === value ? "page" : undefined}
              className="rounded-md px-2 py-1 hover:bg-zinc-100 aria-[current=page]:bg-zinc-200 dark:hover:bg-zinc-800 dark:aria-[current=page]:bg-zinc-800"
            >
              {value ?? "all"}
            </Link>
          ))}
        </nav>
      </div>
      {deliveries.length === 0 ? (
        <p className="rounded-lg bg-white px-4 py-8 text-center text-sm text-zinc-600 dark:text-zinc-400 ring-1 ring-zinc-200 dark:bg-zinc-900 dark:ring-zinc-800">
          No deliveries{status ? ` with status ${status}` : ""} yet.
        </p>
      ) : (
        <ul className="divide-y divide-zinc-100 rounded-lg bg-white ring-1 ring-zinc-200 dark:divide-zinc-800 dark:bg-zinc-900 dark:ring-zinc-800">
          {deliveries.map((delivery) => (
            <li key={delivery.id} data-testid="delivery">
              <details className="group px-4 py-3">
                <summary className="flex cursor-pointer list-none flex-wrap items-center gap-3 text-sm">
                  <span className="font-medium">{delivery.eventType}</span>
                  {delivery.paymentId === null ? (
                    <StatusBadge tone="gray">{isOperational(delivery) ? "operational" : "test"}</StatusBadge>
                  ) : null}
                  <DeliveryState delivery={delivery} />
                  <span className="font-mono text-xs text-zinc-600 dark:text-zinc-400">
                    {delivery.eventId}
                  </span>
                  <span className="ml-auto text-xs text-zinc-600 dark:text-zinc-400">
                    <RelativeTime value={delivery.createdAt} />
                  </span>
                </summary>
                <div className="mt-3 space-y-3">
                  <p className="flex flex-wrap gap-x-4 text-xs text-zinc-600 dark:text-zinc-400">
                    {isOperational(delivery) ? (
                      <span>Sent because the platform disabled another of your endpoints.</span>
                    ) : delivery.paymentId === null ? (
                      <span>Test event sent from the dashboard; no payment.</span>
                    ) : (
                      <Link
                        href={`/dashboard/payments/${delivery.paymentId}#${delivery.eventId}`}
                        className="text-indigo-700 hover:underline dark:text-indigo-300"
                      >
                        Payment {delivery.paymentId}
                      </Link>
                    )}
                    <span>webhook-id {delivery.eventId}</span>
                    <Link
                      href={`/dashboard/events/${delivery.eventId}`}
                      className="text-indigo-700 hover:underline dark:text-indigo-300"
                    >
                      View event
                    </Link>
                  </p>
                  <JsonViewer body={delivery.body} summary="Signed body" />
                  <table className="min-w-full text-xs">
                    <thead className="text-left text-zinc-600 dark:text-zinc-400">
                      <tr>
                        <th scope="col" className="py-1 pr-4 font-medium">
                          Attempted
                        </th>
                        <th scope="col" className="py-1 pr-4 font-medium">
                          Result
                        </th>
                        <th scope="col" className="py-1 pr-4 font-medium">
                          Error
                        </th>
                        <th scope="col" className="py-1 font-medium">
                          Response
                        </th>
                      </tr>
                    </thead>
                    <tbody>
                      {delivery.attempts.map((attempt) => (
                        <tr key={attempt.id} className="align-top">
                          <td className="whitespace-nowrap py-1 pr-4">
                            <RelativeTime value={attempt.attemptedAt} />
                          </td>
                          <td className="whitespace-nowrap py-1 pr-4 font-mono">{attemptOutcome(attempt)}</td>
                          <td className="py-1 pr-4">{attempt.error ?? "—"}</td>
                          <td
                            className="max-w-xs truncate py-1 font-mono"
                            title={attempt.responseExcerpt ?? ""}
                          >
                            {attempt.responseExcerpt || "—"}
                          </td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                  {canResend && delivery.status !== "pending" ? (
                    <ActionForm
                      action={resend}
                      fields={{ endpoint_id: endpointId, delivery_id: delivery.id }}
                      submitLabel="Resend"
                    />
                  ) : null}
                </div>
              </details>
              {/* Outside the row's details: a waiting retry can be hurried without opening it. */}
              {canResend && delivery.status === "pending" && delivery.attempts.length > 0 ? (
                <ActionForm
                  action={retryNow}
                  fields={{ endpoint_id: endpointId, delivery_id: delivery.id }}
                  submitLabel="Retry now"
                  className="px-4 pb-3"
                />
              ) : null}
            </li>
          ))}
        </ul>
      )}
      {page.pageCount > 1 ? (
        <Pagination
          label="Deliveries pages"
          page={page.page}
          pageCount={page.pageCount}
          capped={page.pageCountIsCapped}
          links={keysetPageLinks(page, pageLink)}
          summary={`${DELIVERY_LOG_PAGE_SIZE} per page, newest first`}
        />
      ) : null}
    </section>
  );
}
