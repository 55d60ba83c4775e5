import { Link } from "@/components/link";
import { CardList } from "@/components/ui/card-list";
import { LinkedRow } from "@/components/ui/linked-row";
import { SimpleTable } from "@/components/ui/simple-table";
import type { RefundResource } from "@/lib/refunds/schemas";
import { RefundCard, RefundDetailCells } from "./refund-parts";

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
  caption,
  empty,
}: {
  refunds: RefundResource[];
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
          <LinkedRow key={refund.id} href={`/dashboard/payments/${refund.payment_id}#refund-${refund.id}`}>
            <td className="px-4 py-3 font-mono">{refund.id}</td>
            <td className="px-4 py-3">
              <PaymentLink refund={refund} />
            </td>
            <RefundDetailCells refund={refund} />
          </LinkedRow>
        ))}
      </SimpleTable>
      <CardList label={caption} empty={empty}>
        {refunds.map((refund) => (
          <RefundCard
            key={refund.id}
            refund={refund}
            of={
              <>
                payment <PaymentLink refund={refund} />
              </>
            }
          />
        ))}
      </CardList>
    </>
  );
}
