import type { Metadata } from "next";
import { Fragment } from "react";
import { requireMerchantSession } from "@/app/_lib/session";
import { formatDate } from "@/components/format";
import { Link } from "@/components/link";
import { RelativeTime } from "@/components/relative-time";
import { buttonClassName } from "@/components/ui/button";
import { Pagination } from "@/components/ui/pagination";
import { SelectField } from "@/components/ui/select-field";
import { StatusBadge } from "@/components/ui/status-badge";
import { SubmitOnChange } from "@/components/ui/submit-on-change";
import { TextField } from "@/components/ui/text-field";
import { getDb } from "@/db/client";
import { readFor } from "@/db/replicas";
import {
  listRequestLogs,
  REQUEST_LOG_PAGE_SIZE,
  requestLogFiltersSchema,
  type RequestLogRow,
} from "@/lib/logs/queries";
import { keysetPageLinks, keysetQuery, withoutCursor, type KeysetCursor } from "@/lib/platform/keyset-pages";
import { listApiTokens, tokenState, type ApiTokenSummary } from "@/lib/tokens/tokens";

export const metadata: Metadata = { title: "Logs" };

const statusTone = (status: number) => (status >= 500 ? "red" : status >= 400 ? "yellow" : "green");

/** A rolled key and its replacement share a name: the hint, the day it was made and its state tell them apart. */
const keyOptionLabel = (token: ApiTokenSummary) =>
  `${token.name} · ${token.displayHint} · created ${formatDate(token.createdAt)} · ${tokenState(token)}`;

/**
 * A request path that wraps after its `/`, `?` and `&` on a narrow screen, never mid-word (a segment longer
 * than the line still breaks, rather than push the page sideways).
 */
function PathWithBreaks({ path }: { path: string }) {
  return path.split(/(?<=[/?&])/).map((part, index) => (
    <Fragment key={index}>
      {index > 0 ? <wbr /> : null}
      {part}
    </Fragment>
  ));
}

function LogEntry({ row }: { row: RequestLogRow }) {
  return (
    <li className="rounded-lg bg-white ring-1 ring-zinc-200 dark:bg-zinc-900 dark:ring-zinc-800">
      <details>
        <summary className="flex cursor-pointer flex-wrap items-center gap-x-3 gap-y-1 px-4 py-3 text-sm">
          <StatusBadge tone={statusTone(row.status)}>{row.status}</StatusBadge>
          <span className="font-mono font-medium">{row.method}</span>
          {/* On a phone the path takes a line of its own, below the status, latency and time. */}
          <span className="order-last min-w-0 basis-full font-mono [overflow-wrap:anywhere] sm:order-none sm:basis-0 sm:flex-1">
            <PathWithBreaks path={row.path} />
          </span>
          <span className="text-zinc-600 dark:text-zinc-400">{row.latencyMs} ms</span>
          <span className="text-zinc-600 dark:text-zinc-400">
            <RelativeTime value={row.createdAt} />
          </span>
        </summary>
        <dl className="grid gap-x-4 gap-y-1 border-t border-zinc-200 px-4 py-3 text-sm sm:grid-cols-[10rem_1fr] dark:border-zinc-800">
          <dt className="text-zinc-600 dark:text-zinc-400">Request id</dt>
          <dd className="font-mono">{row.requestId}</dd>
          <dt className="text-zinc-600 dark:text-zinc-400">API key</dt>
          <dd>{row.tokenName ?? `#${row.tokenId}`}</dd>
          <dt className="text-zinc-600 dark:text-zinc-400">Client address</dt>
          <dd className="font-mono">{row.clientIp}</dd>
          {row.idempotencyKey ? (
            <>
              <dt className="text-zinc-600 dark:text-zinc-400">Idempotency-Key</dt>
              <dd className="break-all font-mono">{row.idempotencyKey}</dd>
            </>
          ) : null}
          {row.responseBody ? (
            <>
              <dt className="text-zinc-600 dark:text-zinc-400">Response body</dt>
              <dd>
                <pre
                  tabIndex={0}
                  className="overflow-x-auto rounded-md bg-zinc-900 p-3 font-mono text-xs text-zinc-100 dark:bg-black"
                >
                  {row.responseBody}
                </pre>
              </dd>
            </>
          ) : null}
        </dl>
      </details>
    </li>
  );
}

export default async function LogsPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { merchantId } = await requireMerchantSession();
  const filters = requestLogFiltersSchema.parse(await searchParams);
  const [logPage, tokens] = await Promise.all([
    readFor(merchantId, (db) => listRequestLogs(db, merchantId, filters)),
    listApiTokens(getDb(), merchantId),
  ]);
  const option = (value: string, label = value) => ({ value, label });
  const activeFilters = withoutCursor(filters);
  const { rows } = logPage;
  const pageLink = (cursor: KeysetCursor) => `/dashboard/logs${keysetQuery(activeFilters, cursor)}`;
  return (
    <div className="max-w-5xl space-y-6">
      <div>
        <h1 className="text-2xl font-semibold">Logs</h1>
        <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
          Every API request your keys made, newest first, kept 30 days. Every response carries its request id
          in the X-Request-Id header: paste one here to find it. Error answers keep their body.
        </p>
      </div>
      <form
        method="get"
        className="grid gap-3 rounded-lg bg-white p-4 ring-1 ring-zinc-200 sm:grid-cols-3 lg:grid-cols-6 lg:items-end dark:bg-zinc-900 dark:ring-zinc-800"
      >
        {/* Its selects apply as soon as they change; the texts on Enter or Filter. */}
        <SubmitOnChange className="contents">
          <SelectField
            label="Status"
            name="status"
            defaultValue={filters.status ?? ""}
            options={[option("", "Any"), option("2xx"), option("4xx"), option("5xx")]}
          />
          <SelectField
            label="Method"
            name="method"
            defaultValue={filters.method ?? ""}
            options={[
              option("", "Any"),
              ...["GET", "POST", "PATCH", "DELETE"].map((method) => option(method)),
            ]}
          />
          <TextField
            label="Path starts with"
            name="path"
            defaultValue={filters.path ?? ""}
            placeholder="/api/payments"
          />
          <SelectField
            label="API key"
            name="token"
            defaultValue={filters.token === undefined ? "" : String(filters.token)}
            options={[
              option("", "Any"),
              ...tokens.map((token) => option(String(token.id), keyOptionLabel(token))),
            ]}
          />
          <TextField
            label="Request id"
            name="request_id"
            defaultValue={filters.request_id ?? ""}
            placeholder="req_…"
          />
        </SubmitOnChange>
        <div className="flex gap-2">
          <button type="submit" className={buttonClassName("primary")}>
            Filter
          </button>
          <Link href="/dashboard/logs" className={buttonClassName("secondary")}>
            Clear
          </Link>
        </div>
      </form>
      {rows.length === 0 ? (
        <p className="rounded-lg bg-white px-4 py-8 text-center text-sm text-zinc-600 ring-1 ring-zinc-200 dark:bg-zinc-900 dark:text-zinc-400 dark:ring-zinc-800">
          {Object.values(activeFilters).some((value) => value !== undefined)
            ? "No requests match these filters."
            : "No API requests yet. Requests made with your API keys appear here within a second or two."}
        </p>
      ) : (
        <ul aria-label="API requests" className="space-y-2">
          {rows.map((row) => (
            <LogEntry key={row.id} row={row} />
          ))}
        </ul>
      )}
      {rows.length === 0 ? null : (
        <Pagination
          label="Log pages"
          page={logPage.page}
          pageCount={logPage.pageCount}
          capped={logPage.pageCountIsCapped}
          links={keysetPageLinks(logPage, pageLink)}
          summary={`${REQUEST_LOG_PAGE_SIZE} per page, newest first`}
        />
      )}
    </div>
  );
}
