import Link from "next/link";
import { formatMoney } from "@/components/format";
import { RelativeTime } from "@/components/relative-time";
import { RefundStatusBadge } from "@/components/status-badges";
import { Card, CardList } from "@/components/ui/card-list";
import { SimpleTable } from "@/components/ui/simple-table";
import type { RefundResource } from "@/lib/refunds/schemas";

export const REFUND_REASON_LABELS: Record<string, string> = {
  requested_by_customer: "Requested by the customer",
  duplicate: "Duplicate payment",
  fraudulent: "Fraudulent",
  other: "Other",
};

function PaymentLink({ refund }: { refund: RefundResource }) {
  return (
    <Link
      href={`/dashboard/payments/${refund.payment_id}#refund-${refund.id}`}
      className="font-mono text-indigo-700 hover:underline dark:text-indigo-300"
    >
      {refund.payment_id}
    </Link>
  );
}

/** Refunds across payments (the Refunds page, a customer's page): a table, and cards below 640 px. */
export function RefundList({
  refunds,
  currency,
  caption,
  empty,
}: {
  refunds: RefundResource[];
  currency: string | null;
  caption: string;
  empty: string;
}) {
  return (
    <>
      <SimpleTable
        className="hidden sm:block"
        caption={caption}
        headings={["Refund", "Payment", { label: "Amount", align: "right" }, "Status", "Reason", "Created"]}
        empty={empty}
      >
        {refunds.map((refund) => (
          <tr key={refund.id}>
            <td className="px-4 py-3 font-mono">{refund.id}</td>
            <td className="px-4 py-3">
              <PaymentLink refund={refund} />
            </td>
            <td className="px-4 py-3 text-right tabular-nums">{formatMoney(refund.amount, currency)}</td>
            <td className="px-4 py-3">
              <RefundStatusBadge status={refund.status} />
              {refund.failure_reason ? (
                <p className="mt-1 max-w-56 text-xs text-zinc-600 dark:text-zinc-400">
                  {refund.failure_reason}
                </p>
              ) : null}
            </td>
            <td className="px-4 py-3">{refund.reason ? REFUND_REASON_LABELS[refund.reason] : "—"}</td>
            <td className="whitespace-nowrap px-4 py-3">
              <RelativeTime value={refund.created_at} />
            </td>
          </tr>
        ))}
      </SimpleTable>
      <CardList label={caption} empty={empty}>
        {refunds.map((refund) => (
          <Card key={refund.id}>
            <div className="flex items-start justify-between gap-2">
              <p className="tabular-nums font-medium">{formatMoney(refund.amount, currency)}</p>
              <RefundStatusBadge status={refund.status} />
            </div>
            <p className="text-xs text-zinc-600 dark:text-zinc-400">
              Refund <span className="font-mono">{refund.id}</span> of payment <PaymentLink refund={refund} />{" "}
              · <RelativeTime value={refund.created_at} />
            </p>
            {refund.reason ? <p className="text-xs">{REFUND_REASON_LABELS[refund.reason]}</p> : null}
            {refund.failure_reason ? (
              <p className="text-xs text-zinc-600 dark:text-zinc-400">{refund.failure_reason}</p>
            ) : null}
          </Card>
        ))}
      </CardList>
    </>
  );
}
