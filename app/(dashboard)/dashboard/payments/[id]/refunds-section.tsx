import { formatMoney } from "@/components/format";
import { RelativeTime } from "@/components/relative-time";
import { RefundStatusBadge } from "@/components/status-badges";
import { SimpleTable } from "@/components/ui/simple-table";
import type { RefundResource } from "@/lib/refunds/schemas";
import { settleTestRefund } from "../actions";
import { SettleButtons } from "./settle-buttons";

const REASON_LABELS: Record<string, string> = {
  requested_by_customer: "Requested by the customer",
  duplicate: "Duplicate payment",
  fraudulent: "Fraudulent",
  other: "Other",
};

/** A payment's refunds, newest first, each with its status; a pending one can be settled by a writer. */
export function RefundsSection({
  refunds,
  currency,
  canSettle,
}: {
  refunds: RefundResource[];
  currency: string | null;
  canSettle: boolean;
}) {
  if (refunds.length === 0) return null;
  return (
    <section aria-labelledby="refunds-heading" className="space-y-3">
      <h2 id="refunds-heading" className="text-base font-semibold">
        Refunds
      </h2>
      <SimpleTable
        caption="Refunds"
        headings={["Refund", "Amount", "Status", "Reason", "Created", ""]}
        empty="No refunds."
      >
        {refunds.map((refund) => (
          <tr key={refund.id} data-testid="refund-row">
            <td className="px-4 py-3 font-mono">{refund.id}</td>
            <td className="px-4 py-3 text-right tabular-nums">{formatMoney(refund.amount, currency)}</td>
            <td className="px-4 py-3">
              <RefundStatusBadge status={refund.status} />
              {refund.failure_reason ? (
                <p className="mt-1 max-w-56 text-xs text-zinc-600 dark:text-zinc-400">
                  {refund.failure_reason}
                </p>
              ) : null}
            </td>
            <td className="px-4 py-3">{refund.reason ? REASON_LABELS[refund.reason] : "—"}</td>
            <td className="whitespace-nowrap px-4 py-3">
              <RelativeTime value={refund.created_at} />
            </td>
            <td className="w-max whitespace-nowrap px-4 py-3">
              {canSettle ? (
                <SettleButtons
                  action={settleTestRefund}
                  fields={{ refund_id: refund.id }}
                  open={refund.status === "pending"}
                  description="This is final: a succeeded or failed refund never changes again, and its event is sent to your webhook endpoints. A failed refund's amount can be refunded again."
                  choices={[
                    {
                      outcome: "succeeded",
                      label: "Mark refund succeeded",
                      title: `Mark refund ${refund.id} as succeeded?`,
                    },
                    {
                      outcome: "failed",
                      label: "Mark refund failed",
                      title: `Mark refund ${refund.id} as failed?`,
                      danger: true,
                    },
                  ]}
                />
              ) : null}
            </td>
          </tr>
        ))}
      </SimpleTable>
    </section>
  );
}
