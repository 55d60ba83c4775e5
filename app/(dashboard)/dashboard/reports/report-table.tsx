import { formatMoney } from "@/components/format";
import { Card, CardList } from "@/components/ui/card-list";
import { SimpleTable } from "@/components/ui/simple-table";

/** A report's row: a balance or total (net only), or a line with its count, amount and fees. */
export type ReportRow = {
  key: string;
  label: string;
  net: string;
  line?: { count: number; amount: string; fee: string };
  /** `total`: bold, a balance or a sum; `part`: indented, what a balance is made of. */
  emphasis?: "total" | "part";
  /** Names the row's card, for tests on a phone. */
  testId?: string;
};

const cell = "px-4 py-3 text-right tabular-nums whitespace-nowrap";
const figure = "text-right tabular-nums whitespace-nowrap";
const labelClass = (row: ReportRow) =>
  row.emphasis === "total"
    ? "font-semibold"
    : row.emphasis === "part"
      ? "pl-8 font-normal text-zinc-600 dark:text-zinc-400"
      : "font-normal";

/**
 * The reports' figures as a table, and below 640 px as a card per row (five columns do not fit a phone, and
 * every figure must show). Negative amounts never wrap after their minus sign.
 */
export function ReportTable({
  caption,
  rows,
  currency,
}: {
  caption: string;
  rows: ReportRow[];
  currency: string;
}) {
  const money = (amount: string) => formatMoney(amount, currency);
  return (
    <>
      <SimpleTable
        className="hidden sm:block"
        caption={caption}
        headings={[
          "Line",
          { label: "Count", align: "right" },
          { label: "Amount", align: "right" },
          { label: "Fees", align: "right" },
          { label: "Net", align: "right" },
        ]}
        empty=""
      >
        {rows.map((row) => (
          <tr key={row.key} className={row.emphasis === "total" ? "font-semibold" : undefined}>
            <th scope="row" className={`px-4 py-3 text-left ${labelClass(row)}`}>
              {row.label}
            </th>
            <td className={cell}>{row.line?.count.toLocaleString("en-US")}</td>
            <td className={cell}>{row.line ? money(row.line.amount) : null}</td>
            <td className={cell}>{row.line ? money(row.line.fee) : null}</td>
            <td className={cell}>{money(row.net)}</td>
          </tr>
        ))}
      </SimpleTable>
      <CardList label={caption} empty="">
        {rows.map((row) => (
          <Card key={row.key}>
            <p className={`flex justify-between gap-3 ${labelClass(row)}`} data-testid={row.testId}>
              <span>{row.label}</span>
              <span className={figure}>{money(row.net)}</span>
            </p>
            {row.line ? (
              <dl className="grid grid-cols-2 gap-x-3 gap-y-1 text-xs">
                {(
                  [
                    ["Count", row.line.count.toLocaleString("en-US")],
                    ["Amount", money(row.line.amount)],
                    ["Fees", money(row.line.fee)],
                  ] as const
                ).map(([term, value]) => (
                  <div key={term} className="contents">
                    <dt className="text-zinc-600 dark:text-zinc-400">{term}</dt>
                    <dd className={figure}>{value}</dd>
                  </div>
                ))}
              </dl>
            ) : null}
          </Card>
        ))}
      </CardList>
    </>
  );
}
