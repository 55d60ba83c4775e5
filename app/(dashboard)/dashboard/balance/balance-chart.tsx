"use client";

import { useState } from "react";
import { niceRangeTicks, YAxisTicks } from "@/components/chart-ticks";
import { formatMoney } from "@/components/format";
import { useElementWidth } from "@/components/use-element-width";
import type { BalancePoint } from "@/lib/ledger/balance";

const HEIGHT = 192; // h-48
const LEFT = 64;
const BOTTOM = 24;
const TOP = 8;

const dayLabel = (day: string) =>
  new Date(`${day}T00:00:00Z`).toLocaleDateString("en-US", {
    month: "short",
    day: "numeric",
    timeZone: "UTC",
  });
const compact = (value: number) =>
  value.toLocaleString("en-US", { notation: "compact", maximumFractionDigits: 1 });

/** The balance (available and pending) at the end of each day, as a line, with the day's value on hover. */
export function BalanceChart({ points, currency }: { points: BalancePoint[]; currency: string }) {
  const [hovered, setHovered] = useState<number | null>(null);
  const [frame, width] = useElementWidth<HTMLDivElement>();
  // Numbers only to place the line; every figure shown is the decimal string.
  const values = points.map((point) => Number(point.balance));
  const ticks = niceRangeTicks(Math.min(...values), Math.max(...values));
  const low = ticks[0]!;
  const high = ticks.at(-1)!;
  const plotWidth = width - LEFT;
  const plotHeight = HEIGHT - BOTTOM - TOP;
  const slot = plotWidth / points.length;
  const x = (index: number) => LEFT + index * slot + slot / 2;
  const y = (value: number) => TOP + plotHeight - ((value - low) / (high - low)) * plotHeight;
  const labelEvery = Math.ceil(points.length / Math.max(2, Math.floor(plotWidth / 110)));
  const active = hovered === null ? undefined : points[hovered];
  const caption = `Balance in ${currency} at the end of each day, last ${points.length} days (UTC)`;
  return (
    <figure className="space-y-3">
      <figcaption className="text-sm font-medium">{caption}</figcaption>
      <div ref={frame} className="relative">
        <svg viewBox={`0 0 ${width} ${HEIGHT}`} aria-hidden="true" className="h-48 w-full">
          <YAxisTicks ticks={ticks} left={LEFT} width={width} y={y} label={compact} markZero />
          <polyline
            points={values.map((value, index) => `${x(index)},${y(value)}`).join(" ")}
            fill="none"
            strokeWidth={2}
            strokeLinejoin="round"
            className="stroke-indigo-500 dark:stroke-indigo-400"
          />
          {points.map((point, index) => (
            <g key={point.day} onMouseEnter={() => setHovered(index)} onMouseLeave={() => setHovered(null)}>
              <rect
                x={LEFT + index * slot}
                y={TOP}
                width={slot}
                height={plotHeight}
                className="fill-transparent"
              />
              {hovered === index ? (
                <circle
                  cx={x(index)}
                  cy={y(values[index]!)}
                  r={4}
                  className="fill-indigo-600 dark:fill-indigo-300"
                />
              ) : null}
              {index % labelEvery === 0 ? (
                <text x={x(index)} y={HEIGHT - 6} textAnchor="middle" className="fill-zinc-500 text-[11px]">
                  {dayLabel(point.day)}
                </text>
              ) : null}
            </g>
          ))}
        </svg>
        {active ? (
          <div
            role="tooltip"
            className="pointer-events-none absolute top-0 rounded-md bg-zinc-900 px-3 py-2 text-xs text-white shadow-lg dark:bg-zinc-100 dark:text-zinc-900"
            style={{
              left: `${(x(hovered!) / width) * 100}%`,
              transform: hovered! > points.length / 2 ? "translateX(-105%)" : "translateX(5%)",
            }}
          >
            <p className="font-medium">{dayLabel(active.day)}</p>
            <p className="tabular-nums">{formatMoney(active.balance, currency)}</p>
          </div>
        ) : null}
      </div>
      {/* The numbers for screen readers, clipped on a div (a table ignores height and overflow). */}
      <div className="sr-only">
        <table>
          <caption>{caption}</caption>
          <thead>
            <tr>
              <th scope="col">Day</th>
              <th scope="col">Balance</th>
            </tr>
          </thead>
          <tbody>
            {points.map((point) => (
              <tr key={point.day}>
                <td>{point.day}</td>
                <td>{formatMoney(point.balance, currency)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}
