import type { Metadata } from "next";
import { z } from "zod";
import { requireMerchantSession } from "@/app/_lib/session";
import { Link } from "@/components/link";
import { RelativeTime } from "@/components/relative-time";
import { Card, CardList } from "@/components/ui/card-list";
import { LinkedRow } from "@/components/ui/linked-row";
import { numberedPageLinks, Pagination } from "@/components/ui/pagination";
import { SimpleTable } from "@/components/ui/simple-table";
import { readFor } from "@/db/replicas";
import { listCustomers, type CustomerResource } from "@/lib/customers/customers";
import { CustomerVolumes, inlineVolumes } from "../volumes";

export const metadata: Metadata = { title: "Customers" };

const PER_PAGE = 25;
const querySchema = z.object({ page: z.coerce.number().int().min(1).catch(1).default(1) });

function CustomerLink({ customer }: { customer: CustomerResource }) {
  return (
    <Link
      href={`/dashboard/customers/${encodeURIComponent(customer.id)}`}
      className="break-all font-mono text-indigo-700 hover:underline dark:text-indigo-300"
    >
      {customer.id}
    </Link>
  );
}

/** A customer per customer_id sent on payments, the latest payment first, with its totals (from the rollup). */
export default async function CustomersPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { merchantId } = await requireMerchantSession();
  const { page } = querySchema.parse(await searchParams);
  const { items, total } = await readFor(merchantId, (db) => listCustomers(db, merchantId, page, PER_PAGE));
  const pageCount = Math.max(1, Math.ceil(total / PER_PAGE));
  const at = (target: number) => `/dashboard/customers?page=${target}`;
  const empty = "No customers yet: send a customer_id on a payment and it shows here.";
  return (
    <div className="max-w-6xl space-y-6">
      <div>
        <h1 className="text-2xl font-semibold">Customers</h1>
        <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
          One per <code className="font-mono">customer_id</code> your payments carry, the latest payment
          first.
        </p>
      </div>
      <SimpleTable
        className="hidden sm:block"
        caption="Customers"
        headings={[
          "Customer",
          "Payments",
          { label: "Completed", align: "right" },
          { label: "Refunded", align: "right" },
          "Last payment",
          "First payment",
        ]}
        empty={empty}
      >
        {items.map((customer) => (
          <LinkedRow key={customer.id} href={`/dashboard/customers/${encodeURIComponent(customer.id)}`}>
            <td className="px-4 py-3">
              <CustomerLink customer={customer} />
            </td>
            <td className="px-4 py-3 tabular-nums">{customer.payments_count.toLocaleString("en-US")}</td>
            <td className="px-4 py-3 text-right tabular-nums">
              <CustomerVolumes volumes={customer.volumes} kind="completed" />
            </td>
            <td className="px-4 py-3 text-right tabular-nums">
              <CustomerVolumes volumes={customer.volumes} kind="refunded" />
            </td>
            <td className="whitespace-nowrap px-4 py-3">
              <RelativeTime value={customer.last_payment_at} />
            </td>
            <td className="whitespace-nowrap px-4 py-3">
              <RelativeTime value={customer.first_payment_at} />
            </td>
          </LinkedRow>
        ))}
      </SimpleTable>
      <CardList label="Customers" empty={empty}>
        {items.map((customer) => (
          <Card key={customer.id}>
            <CustomerLink customer={customer} />
            <p className="text-xs text-zinc-600 dark:text-zinc-400">
              {customer.payments_count.toLocaleString("en-US")} payments · completed{" "}
              {inlineVolumes(customer.volumes, "completed")} · refunded{" "}
              {inlineVolumes(customer.volumes, "refunded")}
            </p>
            <p className="text-xs text-zinc-600 dark:text-zinc-400">
              Last payment <RelativeTime value={customer.last_payment_at} />
            </p>
          </Card>
        ))}
      </CardList>
      {total > PER_PAGE ? (
        <Pagination
          label="Customer pages"
          page={page}
          pageCount={pageCount}
          links={numberedPageLinks(page, pageCount, at)}
        />
      ) : null}
    </div>
  );
}
