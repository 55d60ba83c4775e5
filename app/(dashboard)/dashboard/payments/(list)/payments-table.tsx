"use client";

import { rowPaginationFeature, tableFeatures, useTable, type ColumnDef } from "@tanstack/react-table";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { formatMoney } from "@/components/format";
import { RelativeTime } from "@/components/relative-time";
import { PaymentStatusBadge } from "@/components/status-badges";
import type { PaymentListItem } from "@/lib/payments/schemas";

const features = tableFeatures({ rowPaginationFeature });

const columns: Array<ColumnDef<typeof features, PaymentListItem>> = [
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
    accessorKey: "amount",
    header: () => <span className="block text-right">Amount</span>,
    cell: (info) => (
      <span className="block text-right tabular-nums">{formatMoney(info.row.original.amount)}</span>
    ),
  },
  {
    accessorKey: "status",
    header: "Status",
    cell: (info) => <PaymentStatusBadge status={info.row.original.status} />,
  },
  {
    accessorKey: "created_at",
    header: "Created",
    cell: (info) => <RelativeTime value={info.row.original.created_at} />,
  },
];

/** Server-side paged: the rows are one page from the server; page and size live in the URL. */
export function PaymentsTable({
  rows,
  total,
  page,
  pageSize,
}: {
  rows: PaymentListItem[];
  total: number;
  page: number;
  pageSize: number;
}) {
  const router = useRouter();
  const table = useTable({
    features,
    columns,
    data: rows,
    manualPagination: true,
    rowCount: total,
    state: { pagination: { pageIndex: page - 1, pageSize } },
  });
  return (
    <table className="min-w-full divide-y divide-zinc-200 text-sm dark:divide-zinc-800">
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
                router.push(`/dashboard/payments/${row.original.id}`);
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
  );
}
