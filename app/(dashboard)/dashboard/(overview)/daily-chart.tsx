import { formatMoney } from "@/components/format";
import type { DailyTotals } from "@/lib/payments/stats";

/** Payments per day for the last 30 days, as plain SVG (no chart library for 30 bars). */
export function DailyChart({ daily }: { daily: DailyTotals }) {
  const max = Math.max(1, ...daily.map((day) => day.count));
  const width = 600;
  const height = 160;
  const barWidth = width / daily.length;
  return (
    <figure className="space-y-2">
      <figcaption className="text-sm font-medium">Payments per day, last 30 days (UTC)</figcaption>
      <svg
        viewBox={`0 0 ${width} ${height + 20}`}
        role="img"
        aria-label={`Payments per day: ${daily.map((day) => `${day.day} ${day.count}`).join(", ")}`}
        className="h-48 w-full"
      >
        {daily.map((day, index) => {
          const barHeight = (day.count / max) * height;
          return (
            <g key={day.day}>
              <title>{`${day.day}: ${day.count} payments, ${formatMoney(day.volume)}`}</title>
              <rect
                x={index * barWidth + 2}
                y={height - barHeight}
                width={barWidth - 4}
                height={Math.max(barHeight, 1)}
                rx={2}
                className="fill-indigo-500 dark:fill-indigo-400"
              />
            </g>
          );
        })}
        <text x={0} y={height + 16} className="fill-zinc-500 text-[10px]">
          {daily[0]?.day}
        </text>
        <text x={width} y={height + 16} textAnchor="end" className="fill-zinc-500 text-[10px]">
          {daily.at(-1)?.day}
        </text>
      </svg>
    </figure>
  );
}
