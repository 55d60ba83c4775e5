import { formatMoney } from "@/components/format";
import { Link } from "@/components/link";
import { LocalTime, RelativeTime } from "@/components/relative-time";
import { Card, CardList } from "@/components/ui/card-list";
import { LinkedRow } from "@/components/ui/linked-row";
import { SimpleTable } from "@/components/ui/simple-table";
import type { BalanceTransaction } from "@/lib/ledger/balance-transactions";

export const TYPE_LABELS: Record<BalanceTransaction["type"], string> = {
  payment: "Payment",
  refund: "Refund",
  refund_failure: "Refund failed",
  dispute: "Dispute",
  dispute_won: "Dispute won",
  payout: "Payout",
  payout_failure: "Payout returned",
  carried_forward: "Carried forward",
  brought_forward: "Brought forward",
  adjustment: "Adjustment",
};

/**
 * The page of what moved the money: a payment's, a payout's or a dispute's own, a refund's payment (where its
 * refunds are); an adjustment has none.
 */
function sourceHref(move: BalanceTransaction): string | undefined {
  if (["payout", "payout_failure", "carried_forward", "brought_forward"].includes(move.type))
    return `/dashboard/payouts/${move.source_id}`;
  if (move.type === "dispute" || move.type === "dispute_won") return `/dashboard/disputes/${move.source_id}`;
  return move.payment_id === null ? undefined : `/dashboard/payments/${move.payment_id}`;
}

/** What moved the money, linked where the dashboard has a page for it. */
function Source({ move }: { move: BalanceTransaction }) {
  const href = sourceHref(move);
  const label = `${TYPE_LABELS[move.type]} ${move.source_id}`;
  return href ? (
    <Link href={href} className="text-indigo-700 hover:underline dark:text-indigo-300">
      {label}
    </Link>
  ) : (
    <span>{label}</span>
  );
}

/**
 * Balance transactions as a table from 640 px, as cards on a phone (the Balance page, All transactions, a
 * payout's page); each row opens what moved the money.
 */
export function BalanceTransactionsTable({
  moves,
  caption,
  empty,
  exactTimes = false,
}: {
  moves: BalanceTransaction[];
  caption: string;
  empty: string;
  /** Times as an accountant matches them ("2 Nov 2026, 00:30 CET"), not "3 days ago": All transactions. */
  exactTimes?: boolean;
}) {
  const status = (move: BalanceTransaction) => (move.status === "available" ? "Available" : "Pending");
  // Exact times wrap below their date in the table's columns, so the table keeps to the page's width.
  const timeOf = (value: string | Date) =>
    exactTimes ? <LocalTime value={value} wrap /> : <RelativeTime value={value} />;
  const timeCell = exactTimes ? "min-w-28 px-4 py-3" : "whitespace-nowrap px-4 py-3";
  return (
    <>
      <SimpleTable
        className="hidden sm:block"
        caption={caption}
        headings={[
          "Source",
          "Order",
          { label: "Amount", align: "right" },
          { label: "Fee", align: "right" },
          { label: "Net", align: "right" },
          "Status",
          "Available on",
          "Created",
        ]}
        empty={empty}
      >
        {moves.map((move) => (
          <LinkedRow key={move.id} href={sourceHref(move)}>
            <td className="px-4 py-3">
              <Source move={move} />
            </td>
            <td className="max-w-40 truncate px-4 py-3" title={move.external_id ?? undefined}>
              {move.external_id ?? "—"}
            </td>
            <td className="px-4 py-3 text-right tabular-nums">{formatMoney(move.amount, move.currency)}</td>
            <td className="px-4 py-3 text-right tabular-nums">{formatMoney(move.fee, move.currency)}</td>
            <td className="px-4 py-3 text-right tabular-nums">{formatMoney(move.net, move.currency)}</td>
            <td className="px-4 py-3">{status(move)}</td>
            <td className={timeCell}>{timeOf(move.available_on)}</td>
            <td className={timeCell}>{timeOf(move.created_at)}</td>
          </LinkedRow>
        ))}
      </SimpleTable>
      <CardList label={caption} empty={empty}>
        {moves.map((move) => (
          <Card key={move.id}>
            <p className="flex justify-between gap-2">
              <Source move={move} />
              <span className="tabular-nums">{formatMoney(move.net, move.currency)}</span>
            </p>
            <p className="text-xs text-zinc-600 dark:text-zinc-400">
              {move.external_id ? `Order ${move.external_id} · ` : ""}
              {status(move)} · {timeOf(move.created_at)}
            </p>
          </Card>
        ))}
      </CardList>
    </>
  );
}
