import type { Metadata } from "next";
import { z } from "zod";
import { requireMerchantSession } from "@/app/_lib/session";
import { FilterPills } from "@/components/filter-pills";
import { numberedPageLinks, Pagination } from "@/components/ui/pagination";
import { REFUND_STATUSES } from "@/db/enums";
import { readFor } from "@/db/replicas";
import { listMerchantRefunds } from "@/lib/refunds/queries";
import { RefundList } from "./refund-list";

export const metadata: Metadata = { title: "Refunds" };

const PER_PAGE = 25;
const querySchema = z.object({
  page: z.coerce.number().int().min(1).catch(1).default(1),
  status: z.enum(REFUND_STATUSES).optional().catch(undefined),
});

/** Every refund, newest first, by status: the same query as `GET /api/refunds`. */
export default async function RefundsPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { merchantId } = await requireMerchantSession();
  const { page, status } = querySchema.parse(await searchParams);
  const { items, total } = await readFor(merchantId, (db) =>
    listMerchantRefunds(db, merchantId, { status }, page, PER_PAGE),
  );
  const pageCount = Math.max(1, Math.ceil(total / PER_PAGE));
  const at = (target: number, filter = status) =>
    `/dashboard/refunds?${new URLSearchParams({ ...(filter ? { status: filter } : {}), ...(target > 1 ? { page: String(target) } : {}) })}`;
  return (
    <div className="max-w-6xl space-y-6">
      <div>
        <h1 className="text-2xl font-semibold">Refunds</h1>
        <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
          Every refund of every payment, newest first. A refund is made from its payment&apos;s page.
        </p>
      </div>
      <FilterPills
        label="Refund status"
        options={[undefined, ...REFUND_STATUSES].map((each) => ({
          key: each ?? "all",
          text: each ? each.charAt(0).toUpperCase() + each.slice(1) : "All",
          href: at(1, each),
          current: each === status,
        }))}
      />
      <RefundList
        refunds={items}
        caption="Refunds"
        empty={status ? `No ${status} refunds.` : "No refunds yet."}
      />
      {total > PER_PAGE ? (
        <Pagination
          label="Refund pages"
          page={page}
          pageCount={pageCount}
          links={numberedPageLinks(page, pageCount, at)}
        />
      ) : null}
    </div>
  );
}
