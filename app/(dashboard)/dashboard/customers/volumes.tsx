import { formatMoney } from "@/components/format";
import type { CustomerResource } from "@/lib/customers/customers";

/** A customer's sum of one kind, a line per currency ("€12.50", "¥1,500"): never one total. */
export function CustomerVolumes({
  volumes,
  kind,
}: {
  volumes: CustomerResource["volumes"];
  kind: "completed" | "refunded";
}) {
  if (volumes.length === 0) return <span className="text-zinc-500 dark:text-zinc-400">—</span>;
  return (
    <span className="inline-flex flex-col">
      {volumes.map((volume) => (
        <span key={volume.currency}>{formatMoney(volume[kind], volume.currency)}</span>
      ))}
    </span>
  );
}

/** The same on one line, for a card: "€12.50 · ¥1,500". */
export function inlineVolumes(volumes: CustomerResource["volumes"], kind: "completed" | "refunded"): string {
  if (volumes.length === 0) return "—";
  return volumes.map((volume) => formatMoney(volume[kind], volume.currency)).join(" · ");
}
