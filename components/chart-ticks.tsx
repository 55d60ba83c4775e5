/** Round tick values for a y-axis from 0 to at least `max`: 1, 2 or 5 times a power of ten apart. */
export function niceTicks(max: number, count = 4): number[] {
  if (max <= 0) return [0, 1];
  const rough = max / count;
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 5, 10].map((factor) => factor * power).find((candidate) => candidate >= rough)!;
  const ticks = [];
  for (let value = 0; value < max + step; value += step) ticks.push(Math.round(value * 100) / 100);
  return ticks;
}

/** The same for a range that may go below 0 (a balance): round ticks from at most `min` to at least `max`. */
export function niceRangeTicks(min: number, max: number, count = 4): number[] {
  const low = Math.min(0, min);
  const high = Math.max(0, max);
  if (high === low) return [0, 1];
  const spread = niceTicks(high - low, count);
  const step = spread[1]! - spread[0]!;
  const first = Math.floor(low / step) * step;
  const ticks = [];
  for (let value = first; value < high + step; value += step) ticks.push(Math.round(value * 100) / 100);
  return ticks;
}

/** A chart's horizontal grid lines with their values at the left; the zero line stronger when `markZero`. */
export function YAxisTicks({
  ticks,
  left,
  width,
  y,
  label,
  markZero = false,
}: {
  ticks: number[];
  left: number;
  width: number;
  y: (value: number) => number;
  label: (value: number) => string;
  markZero?: boolean;
}) {
  return ticks.map((tick) => (
    <g key={tick}>
      <line
        x1={left}
        x2={width}
        y1={y(tick)}
        y2={y(tick)}
        className={
          markZero && tick === 0
            ? "stroke-zinc-400 dark:stroke-zinc-600"
            : "stroke-zinc-200 dark:stroke-zinc-800"
        }
      />
      <text x={left - 8} y={y(tick) + 4} textAnchor="end" className="fill-zinc-500 text-[11px] tabular-nums">
        {label(tick)}
      </text>
    </g>
  ));
}
