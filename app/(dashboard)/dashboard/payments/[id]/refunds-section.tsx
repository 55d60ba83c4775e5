import { CardList } from "@/components/ui/card-list";
import { SimpleTable } from "@/components/ui/simple-table";
import type { RefundResource } from "@/lib/refunds/schemas";
import { RefundCard, RefundDetailCells } from "../../refunds/refund-parts";
import { settleTestRefund } from "../actions";
import { SettleButtons } from "./settle-buttons";

function SettleRefund({ refund }: { refund: RefundResource }) {
  return (
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
  );
}

/**
 * A payment's refunds, newest first, each with its status; a pending one can be settled by a writer. A table,
 * and cards below 640 px. Each refund is `#refund-{id}`, where the timeline's refund rows link.
 */
export function RefundsSection({ refunds, canSettle }: { refunds: RefundResource[]; canSettle: boolean }) {
  if (refunds.length === 0) return null;
  // Not "Refunds": the section is the region named so, and landmarks' names must differ.
  const caption = "This payment's refunds";
  return (
    <section aria-labelledby="refunds-heading" className="space-y-3">
      <h2 id="refunds-heading" className="text-base font-semibold">
        Refunds
      </h2>
      <SimpleTable
        className="hidden sm:block"
        caption={caption}
        headings={["Refund", { label: "Amount", align: "right" }, "Status", "Reason", "Created", ""]}
        empty="No refunds."
      >
        {refunds.map((refund) => (
          <tr
            key={refund.id}
            id={`refund-${refund.id}`}
            data-testid="refund-row"
            className="target:bg-amber-50 dark:target:bg-amber-950"
          >
            <td className="px-4 py-3 font-mono">{refund.id}</td>
            <RefundDetailCells refund={refund} />
            <td className="w-max whitespace-nowrap px-4 py-3">
              {canSettle ? <SettleRefund refund={refund} /> : null}
            </td>
          </tr>
        ))}
      </SimpleTable>
      <CardList label={caption} empty="No refunds.">
        {refunds.map((refund) => (
          <RefundCard key={refund.id} refund={refund}>
            {canSettle && refund.status === "pending" ? <SettleRefund refund={refund} /> : null}
          </RefundCard>
        ))}
      </CardList>
    </section>
  );
}
