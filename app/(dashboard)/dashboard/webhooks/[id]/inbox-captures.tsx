import { JsonViewer } from "@/components/json-viewer";
import { Link } from "@/components/link";
import { RelativeTime } from "@/components/relative-time";
import { numberedPageLinks, Pagination } from "@/components/ui/pagination";
import { StatusBadge } from "@/components/ui/status-badge";
import type { InboxCapture } from "@/lib/webhooks/inbox";

export const CAPTURES_PER_PAGE = 20;

/** "answered 200", "answered 500", or "timed out": what the inbox said to this attempt. */
function InboxAnswer({ status }: { status: number | null }) {
  if (status === null) return <StatusBadge tone="yellow">timed out</StatusBadge>;
  return <StatusBadge tone={status < 300 ? "green" : "red"}>{`answered ${status}`}</StatusBadge>;
}

/** The event type named in a captured body, when it parses. */
function eventTypeOf(body: string): string {
  try {
    const { event } = JSON.parse(body) as { event?: unknown };
    return typeof event === "string" ? event : "event";
  } catch {
    return "event";
  }
}

/**
 * What the inbox received, newest first: each attempt's headers and body, what the inbox answered, and
 * whether its signature verified (checked with standardwebhooks when it arrived).
 */
export function InboxCaptures({
  endpointId,
  captures,
  total,
  page,
}: {
  endpointId: number;
  captures: InboxCapture[];
  total: number;
  page: number;
}) {
  const pageCount = Math.max(1, Math.ceil(total / CAPTURES_PER_PAGE));
  const link = (target: number) => `/dashboard/webhooks/${endpointId}?capture_page=${target}#inbox-heading`;
  return (
    <section aria-labelledby="inbox-heading" className="space-y-3">
      <h2 id="inbox-heading" className="text-base font-semibold">
        Inbox{" "}
        <span className="font-normal text-zinc-600 dark:text-zinc-400">
          ({total.toLocaleString("en-US")} captured, kept 7 days)
        </span>
      </h2>
      {captures.length === 0 ? (
        <p className="rounded-lg bg-white px-4 py-8 text-center text-sm text-zinc-600 ring-1 ring-zinc-200 dark:bg-zinc-900 dark:text-zinc-400 dark:ring-zinc-800">
          Nothing captured yet. Create a payment, or send a test event, and it appears here.
        </p>
      ) : (
        <ul className="divide-y divide-zinc-100 rounded-lg bg-white ring-1 ring-zinc-200 dark:divide-zinc-800 dark:bg-zinc-900 dark:ring-zinc-800">
          {captures.map((capture) => (
            <li key={capture.id} data-testid="capture">
              <details className="group px-4 py-3">
                <summary className="flex cursor-pointer list-none flex-wrap items-center gap-2 text-sm">
                  <span className="font-medium">{eventTypeOf(capture.body)}</span>
                  <span className="text-zinc-600 dark:text-zinc-400">attempt {capture.attempt}</span>
                  <InboxAnswer status={capture.response_status} />
                  {capture.verification.valid ? (
                    <StatusBadge tone="green">signature verified</StatusBadge>
                  ) : (
                    <StatusBadge tone="red">{`signature not verified: ${capture.verification.code}`}</StatusBadge>
                  )}
                  <span className="font-mono text-xs text-zinc-600 dark:text-zinc-400 [overflow-wrap:anywhere]">
                    {capture.event_id}
                  </span>
                  <span className="ml-auto text-xs text-zinc-600 dark:text-zinc-400">
                    <RelativeTime value={new Date(capture.received_at)} />
                  </span>
                </summary>
                <div className="mt-3 space-y-3 text-xs">
                  <p className="text-zinc-700 dark:text-zinc-300">{capture.verification.reason}</p>
                  <table className="w-full">
                    <caption className="sr-only">Headers received</caption>
                    <tbody className="font-mono">
                      {Object.entries(capture.headers).map(([name, value]) => (
                        <tr key={name} className="align-top">
                          <th scope="row" className="whitespace-nowrap py-0.5 pr-4 text-left font-medium">
                            {name}
                          </th>
                          <td className="py-0.5 [overflow-wrap:anywhere]">{value}</td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                  <JsonViewer
                    body={capture.body}
                    summary={capture.body_truncated ? "Body (first 256 KB)" : "Body"}
                    open
                  />
                  <p className="flex flex-wrap gap-x-4">
                    <Link
                      href={`/dashboard/webhooks/debugger?capture=${capture.id}`}
                      className="text-indigo-700 hover:underline dark:text-indigo-300"
                    >
                      Open in the signature debugger
                    </Link>
                    <Link
                      href={`/dashboard/events/${capture.event_id}`}
                      className="text-indigo-700 hover:underline dark:text-indigo-300"
                    >
                      View event
                    </Link>
                  </p>
                </div>
              </details>
            </li>
          ))}
        </ul>
      )}
      {pageCount > 1 ? (
        <Pagination
          label="Inbox pages"
          page={page}
          pageCount={pageCount}
          links={numberedPageLinks(page, pageCount, link)}
          summary={`${CAPTURES_PER_PAGE} per page, newest first`}
        />
      ) : null}
    </section>
  );
}
