import type { ReactNode } from "react";

const COLUMNS = { 2: "sm:grid-cols-2", 3: "sm:grid-cols-3" } as const;

/** A record's labelled values in a card (a payment's fields, a customer's figures), one column on a phone. */
export function FieldGrid({
  fields,
  columns,
  numeric = false,
}: {
  fields: Array<[string, ReactNode]>;
  columns: keyof typeof COLUMNS;
  /** Figures line up their digits. */
  numeric?: boolean;
}) {
  return (
    <dl
      className={`grid gap-x-6 gap-y-3 rounded-lg bg-white p-4 shadow-sm ring-1 ring-zinc-200 ${COLUMNS[columns]} dark:bg-zinc-900 dark:ring-zinc-800`}
    >
      {fields.map(([label, value]) => (
        <div key={label}>
          <dt className="text-xs uppercase tracking-wide text-zinc-600 dark:text-zinc-400">{label}</dt>
          <dd className={numeric ? "mt-1 text-sm tabular-nums" : "mt-1 text-sm"}>{value}</dd>
        </div>
      ))}
    </dl>
  );
}
