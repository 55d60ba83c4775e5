import type { Metadata } from "next";
import { z } from "zod";
import { requireMerchantSession } from "@/app/_lib/session";
import { FilterPills } from "@/components/filter-pills";
import { formatMoney } from "@/components/format";
import { Link } from "@/components/link";
import { RelativeTime } from "@/components/relative-time";
import { DisputeStatusBadge, disputeStatusLabel } from "@/components/status-badges";
import { Card, CardList } from "@/components/ui/card-list";
import { LinkedRow } from "@/components/ui/linked-row";
import { numberedPageLinks, Pagination } from "@/components/ui/pagination";
import { SimpleTable } from "@/components/ui/simple-table";
import { DISPUTE_CLOSED, DISPUTE_STATUSES, type DisputeStatus } from "@/db/enums";
import { readFor } from "@/db/replicas";
import { listDisputes } from "@/lib/disputes/queries";
import type { Dispute } from "@/lib/disputes/schemas";

export const metadata: Metadata = { title: "Disputes" };

const PER_PAGE = 25;
const querySchema = z.object({
  page: z.coerce.number().int().min(1).catch(1).default(1),
  status: z.enum(DISPUTE_STATUSES).optional().catch(undefined),
});
const linkClass = "font-mono text-indigo-700 hover:underline dark:text-indigo-300";

function DisputeLink({ dispute }: { dispute: Dispute }) {
  return (
    <Link href={`/dashboard/disputes/${dispute.id}`} className={linkClass}>
      {dispute.id}
    </Link>
  );
}

/** When an answer is due, or when it was decided. */
function Deadline({ dispute }: { dispute: Dispute }) {
  if (DISPUTE_CLOSED.includes(dispute.status))
    return (
      <>
        closed <RelativeTime value={dispute.closed_at!} />
      </>
    );
  return (
    <>
      due <RelativeTime value={dispute.evidence_due_by} />
    </>
  );
}

/** Every dispute, newest first, by status: the same query as `GET /api/disputes`. */
export default async function DisputesPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { merchantId } = await requireMerchantSession();
  const { page, status } = querySchema.parse(await searchParams);
  const { items, total } = await readFor(merchantId, (db) =>
    listDisputes(db, merchantId, { page, perPage: PER_PAGE, status }),
  );
  const pageCount = Math.max(1, Math.ceil(total / PER_PAGE));
  const at = (target: number, filter: DisputeStatus | undefined = status) =>
    `/dashboard/disputes?${new URLSearchParams({ ...(filter ? { status: filter } : {}), ...(target > 1 ? { page: String(target) } : {}) })}`;
  const empty = status ? `No disputes ${disputeStatusLabel(status)}.` : "No disputes yet.";
  return (
    <div className="max-w-6xl space-y-6">
      <div>
        <h1 className="text-2xl font-semibold">Disputes</h1>
        <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
          Payments the payer&apos;s bank took back, newest first. Answer each with evidence before its
          deadline, or accept it.
        </p>
      </div>
      <FilterPills
        label="Dispute status"
        options={[undefined, ...DISPUTE_STATUSES].map((each) => ({
          key: each ?? "all",
          text: each ? disputeStatusLabel(each) : "All",
          href: at(1, each),
          current: each === status,
        }))}
      />
      <SimpleTable
        className="hidden sm:block"
        caption="Disputes"
        headings={["Dispute", { label: "Amount", align: "right" }, "Status", "Reason", "Payment", "Deadline"]}
        empty={empty}
      >
        {items.map((dispute) => (
          <LinkedRow key={dispute.id} href={`/dashboard/disputes/${dispute.id}`}>
            <td className="px-4 py-3">
              <DisputeLink dispute={dispute} />
            </td>
            <td className="px-4 py-3 text-right tabular-nums">
              {formatMoney(dispute.amount, dispute.currency)}
            </td>
            <td className="px-4 py-3">
              <DisputeStatusBadge status={dispute.status} />
            </td>
            <td className="px-4 py-3">{dispute.reason.replaceAll("_", " ")}</td>
            <td className="px-4 py-3">
              <Link href={`/dashboard/payments/${dispute.payment_id}`} className={linkClass}>
                {dispute.payment_id}
              </Link>
            </td>
            <td className="whitespace-nowrap px-4 py-3">
              <Deadline dispute={dispute} />
            </td>
          </LinkedRow>
        ))}
      </SimpleTable>
      <CardList label="Disputes" empty={empty}>
        {items.map((dispute) => (
          <Card key={dispute.id}>
            <p className="flex justify-between gap-2">
              <DisputeLink dispute={dispute} />
              <span className="tabular-nums">{formatMoney(dispute.amount, dispute.currency)}</span>
            </p>
            <p className="flex items-center justify-between gap-2 text-xs text-zinc-600 dark:text-zinc-400">
              <span>
                {dispute.reason.replaceAll("_", " ")} · <Deadline dispute={dispute} />
              </span>
              <DisputeStatusBadge status={dispute.status} />
            </p>
          </Card>
        ))}
      </CardList>
      {total > PER_PAGE ? (
        <Pagination
          label="Dispute pages"
          page={page}
          pageCount={pageCount}
          links={numberedPageLinks(page, pageCount, at)}
        />
      ) : null}
    </div>
  );
}
