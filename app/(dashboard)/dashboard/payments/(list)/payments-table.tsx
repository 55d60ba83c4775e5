"use client";

import { rowPaginationFeature, tableFeatures, useTable, type ColumnDef } from "@tanstack/react-table";
import { useRouter } from "next/navigation";
import { formatMoney } from "@/components/format";
import { useDashboardHref } from "@/components/link";
import { Link } from "@/components/link";
import { RelativeTime } from "@/components/relative-time";
import { PaymentStatusWithRefunds } from "@/components/status-badges";
import type { DashboardPayment } from "@/lib/payments/search";

const features = tableFeatures({ rowPaginationFeature });

/** The columns; each amount in its own payment's currency. */
const columns: Array<ColumnDef<typeof features, DashboardPayment>> = [
  {
    accessorKey: "id",
    header: "ID",
    cell: (info) => (
      <Link
        href={`/dashboard/payments/${info.row.original.id}`}
        className="font-mono text-indigo-600 hover:underline dark:text-indigo-400"
      >
        {info.row.original.id}
      </Link>
    ),
  },
  {
    accessorKey: "external_id",
    header: "External ID",
    cell: (info) => <span className="font-mono text-xs">{info.row.original.external_id ?? "—"}</span>,
  },
  {
    accessorKey: "customer_id",
    header: "Customer",
    cell: (info) => <span className="font-mono text-xs">{info.row.original.customer_id ?? "—"}</span>,
  },
  {
    accessorKey: "amount",
    header: () => <span className="block text-right">Amount</span>,
    cell: (info) => (
      <span className="block text-right tabular-nums">
        {formatMoney(info.row.original.amount, info.row.original.currency)}
      </span>
    ),
  },
  {
    accessorKey: "status",
    header: "Status",
    cell: (info) => <PaymentStatusWithRefunds payment={info.row.original} />,
  },
  {
    accessorKey: "created_at",
    header: "Created",
    cell: (info) => <RelativeTime value={info.row.original.created_at} />,
  },
];

/** Below 640 px each payment is a card: the table would scroll sideways on a phone. */
function PaymentCards({ rows }: { rows: DashboardPayment[] }) {
  return (
    <ul aria-label="Payments" className="divide-y divide-zinc-100 sm:hidden dark:divide-zinc-800">
      {rows.map((payment) => (
        <li key={payment.id}>
          <Link
            href={`/dashboard/payments/${payment.id}`}
            className="grid grid-cols-[1fr_auto] gap-x-3 gap-y-1 px-4 py-3 text-sm hover:bg-zinc-50 dark:hover:bg-zinc-800/50"
          >
            <span className="font-mono text-indigo-600 dark:text-indigo-400">Payment {payment.id}</span>
            <span className="text-right font-medium tabular-nums">
              {formatMoney(payment.amount, payment.currency)}
            </span>
            <span className="truncate font-mono text-xs text-zinc-600 dark:text-zinc-400">
              {payment.external_id ?? "no external id"}
              {payment.customer_id ? ` · ${payment.customer_id}` : ""}
            </span>
            <span className="text-right">
              <PaymentStatusWithRefunds payment={payment} />
            </span>
            <span className="col-span-2 text-xs text-zinc-600 dark:text-zinc-400">
              <RelativeTime value={payment.created_at} />
            </span>
          </Link>
        </li>
      ))}
    </ul>
  );
}

/** Server-side paged: the rows are one page from the server; page and size live in the URL. */
export function PaymentsTable({
  rows,
  total,
  page,
  pageSize,
}: {
  rows: DashboardPayment[];
  total: number;
  page: number;
  pageSize: number;
}) {
  const router = useRouter();
  const inEnvironment = useDashboardHref();
  const table = useTable({
    features,
    columns,
    data: rows,
    manualPagination: true,
    rowCount: total,
    state: { pagination: { pageIndex: page - 1, pageSize } },
  });
  return (
    <>
      <PaymentCards rows={rows} />
      <table className="hidden min-w-full divide-y sm:table divide-zinc-200 text-sm dark:divide-zinc-800">
        <caption className="sr-only">Payments</caption>
        <thead className="text-left text-xs uppercase tracking-wide text-zinc-500 dark:text-zinc-400">
          {table.getHeaderGroups().map((group) => (
            <tr key={group.id}>
              {group.headers.map((header) => (
                <th key={header.id} scope="col" className="px-4 py-3 font-medium">
                  <table.FlexRender header={header} />
                </th>
              ))}
            </tr>
          ))}
        </thead>
        <tbody className="divide-y divide-zinc-100 dark:divide-zinc-800">
          {table.getRowModel().rows.map((row) => (
            <tr
              key={row.id}
              className="cursor-pointer hover:bg-zinc-50 dark:hover:bg-zinc-800/50"
              onClick={(event) => {
                if (!(event.target instanceof HTMLAnchorElement))
                  router.push(inEnvironment(`/dashboard/payments/${row.original.id}`));
              }}
            >
              {row.getAllCells().map((cell) => (
                <td key={cell.id} className="px-4 py-3">
                  <table.FlexRender cell={cell} />
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

/** A detail page's first payments (a customer's, a link's), in the list's card. */
export function FirstPayments({
  rows,
  total,
  pageSize,
}: {
  rows: DashboardPayment[];
  total: number;
  pageSize: number;
}) {
  return (
    <div className="relative overflow-x-auto rounded-lg bg-white shadow-sm ring-1 ring-zinc-200 dark:bg-zinc-900 dark:ring-zinc-800">
      <PaymentsTable rows={rows} total={total} page={1} pageSize={pageSize} />
    </div>
  );
}
