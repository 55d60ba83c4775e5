import type { Metadata } from "next";
import { forbidden } from "next/navigation";
import { requireMerchantSession } from "@/app/_lib/session";
import { Link } from "@/components/link";
import { RelativeTime } from "@/components/relative-time";
import { buttonClassName } from "@/components/ui/button";
import { Pagination } from "@/components/ui/pagination";
import { SelectField } from "@/components/ui/select-field";
import { BackLink, SimpleTable } from "@/components/ui/simple-table";
import { SubmitOnChange } from "@/components/ui/submit-on-change";
import { TextField } from "@/components/ui/text-field";
import { readFor } from "@/db/replicas";
import { can } from "@/lib/accounts/permissions";
import { keysetPageLinks, keysetQuery, withoutCursor, type KeysetCursor } from "@/lib/platform/keyset-pages";
import {
  listSecurityEvents,
  SECURITY_ACTIONS,
  SECURITY_HISTORY_PAGE_SIZE,
  securityHistoryFiltersSchema,
} from "@/lib/security/history";

export const metadata: Metadata = { title: "Security history" };

const PATH = "/dashboard/settings/security-history";
const muted = "text-zinc-600 dark:text-zinc-400";

/**
 * Settings → Security history (DESIGN.md): every sensitive action on the account, newest first, with who did
 * it, from where and to what; owners only (any other role gets 403). Filtered by action, downloadable as CSV.
 * Text from requests (a user agent, an endpoint's URL) is shown as text: React escapes it.
 */
export default async function SecurityHistoryPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { accountId, role } = await requireMerchantSession();
  if (!can(role, "security_history:read")) forbidden();
  const filters = securityHistoryFiltersSchema.parse(await searchParams);
  const history = await readFor(accountId, (db) => listSecurityEvents(db, accountId, filters));
  const activeFilters = withoutCursor(filters);
  const pageLink = (cursor: KeysetCursor) => `${PATH}${keysetQuery(activeFilters, cursor)}`;
  return (
    <div className="max-w-6xl space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <BackLink href="/dashboard/settings">Settings</BackLink>
          <h1 className="mt-2 text-2xl font-semibold">Security history</h1>
          <p className={`mt-1 text-sm ${muted}`}>
            Sign-ins, password and two-factor changes, members, API keys, webhook secrets, the payout account
            and payouts: who, from where, and when. Kept at least a year; nobody can edit or delete it.
          </p>
        </div>
        <a
          href={`${PATH}/export${keysetQuery(activeFilters, {})}`}
          className={buttonClassName("secondary")}
          download
        >
          Download CSV
        </a>
      </div>
      <form
        method="get"
        aria-label="Filter the security history"
        className="flex flex-wrap items-end gap-3 rounded-lg bg-white p-4 ring-1 ring-zinc-200 dark:bg-zinc-900 dark:ring-zinc-800"
      >
        <SubmitOnChange className="contents">
          <div className="w-72 max-w-full">
            <SelectField
              label="Action"
              name="action"
              defaultValue={filters.action ?? ""}
              options={[
                { value: "", label: "All actions" },
                ...Object.entries(SECURITY_ACTIONS).map(([value, label]) => ({ value, label })),
              ]}
            />
          </div>
        </SubmitOnChange>
        <div className="w-64 max-w-full">
          <TextField label="By" name="by" defaultValue={filters.by ?? ""} hint="An email, or a key's name" />
        </div>
        <div className="w-40 max-w-full">
          <TextField label="IP" name="ip" defaultValue={filters.ip ?? ""} spellCheck={false} />
        </div>
        <div className="w-40">
          <TextField label="From" name="from" type="date" defaultValue={filters.from ?? ""} />
        </div>
        <div className="w-40">
          <TextField label="To" name="to" type="date" defaultValue={filters.to ?? ""} />
        </div>
        <button type="submit" className={buttonClassName("primary")}>
          Filter
        </button>
        <Link href={PATH} className={buttonClassName("secondary")}>
          Clear
        </Link>
      </form>
      <SimpleTable
        caption="Security history"
        headings={["When", "Action", "By", "Target", "From"]}
        empty={
          filters.action || filters.by || filters.ip || filters.from || filters.to
            ? "Nothing matches these filters."
            : "Nothing recorded yet."
        }
      >
        {history.rows.map((event) => (
          <tr key={event.id} className="align-top">
            <td className="whitespace-nowrap px-4 py-3">
              <RelativeTime value={event.createdAt} />
            </td>
            <td className="px-4 py-3 font-medium">{SECURITY_ACTIONS[event.action] ?? event.action}</td>
            <td className="max-w-56 break-words px-4 py-3">{event.actor}</td>
            <td className="max-w-80 break-words px-4 py-3">{event.target}</td>
            <td className={`max-w-64 px-4 py-3 text-xs ${muted}`}>
              <span className="block font-mono">{event.ip ?? "—"}</span>
              <span className="block break-words" title={event.userAgent ?? undefined}>
                {event.userAgent ? event.userAgent.slice(0, 120) : ""}
              </span>
            </td>
          </tr>
        ))}
      </SimpleTable>
      {history.rows.length === 0 ? null : (
        <Pagination
          label="History pages"
          page={history.page}
          pageCount={history.pageCount}
          capped={history.pageCountIsCapped}
          links={keysetPageLinks(history, pageLink)}
          summary={`${SECURITY_HISTORY_PAGE_SIZE} per page, newest first`}
        />
      )}
    </div>
  );
}
