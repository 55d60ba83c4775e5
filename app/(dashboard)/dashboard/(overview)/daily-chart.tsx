"use client";

import { useState } from "react";
import { niceTicks, YAxisTicks } from "@/components/chart-ticks";
import { formatMoney } from "@/components/format";
import { useElementWidth } from "@/components/use-element-width";
import type { ChartPoint } from "@/lib/payments/stats";

const HEIGHT = 224; // h-56
const LEFT = 64;
const BOTTOM = 24;
const TOP = 8;

type Metric = "volume" | "count";

const bucketLabel = (day: string, bucket: "day" | "month") =>
  new Date(`${day}T00:00:00Z`).toLocaleDateString(
    "en-US",
    bucket === "day"
      ? { month: "short", day: "numeric", timeZone: "UTC" }
      : { month: "short", year: "numeric", timeZone: "UTC" },
  );

const compact = (value: number) =>
  value.toLocaleString("en-US", { notation: "compact", maximumFractionDigits: 1 });

/**
 * Completed payments per day (per month for all time) as SVG bars, and the refunds that succeeded as a line
 * over them: a y-axis, date ticks, values on hover, volume or count.
 */
export function DailyChart({
  series,
  bucket,
  rangeLabel,
  currency,
}: {
  series: ChartPoint[];
  bucket: "day" | "month";
  rangeLabel: string;
  currency: string;
}) {
  const [metric, setMetric] = useState<Metric>("volume");
  const [hovered, setHovered] = useState<number | null>(null);
  const [frame, width] = useElementWidth<HTMLDivElement>();
  const daily = series;
  // Numbers only to place marks on the drawing; every figure shown is the decimal string.
  const values = daily.map((day) => (metric === "count" ? day.count : Number(day.volume)));
  const refundValues = daily.map((day) => (metric === "count" ? day.refunds : Number(day.refunded)));
  const ticks = niceTicks(Math.max(...values, ...refundValues, 0));
  const top = ticks.at(-1)!;
  const plotWidth = width - LEFT;
  const plotHeight = HEIGHT - BOTTOM - TOP;
  const slot = plotWidth / daily.length;
  const y = (value: number) => TOP + plotHeight - (value / top) * plotHeight;
  // About one date label per 110 px.
  const labelEvery = Math.ceil(daily.length / Math.max(2, Math.floor(plotWidth / 110)));
  const active = hovered === null ? undefined : daily[hovered];
  const tabClass =
    "rounded-md px-2 py-1 text-xs font-medium aria-[current=true]:bg-zinc-200 aria-[pressed=true]:bg-zinc-200 hover:bg-zinc-100 dark:aria-[current=true]:bg-zinc-800 dark:aria-[pressed=true]:bg-zinc-800 dark:hover:bg-zinc-800";
  return (
    <figure className="relative space-y-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <figcaption className="text-sm font-medium">
          {metric === "volume" ? "Completed volume" : "Completed payments"} per {bucket}, {rangeLabel} (UTC)
        </figcaption>
        <div className="flex flex-wrap items-center gap-3">
          <p className="flex items-center gap-3 text-xs text-zinc-600 dark:text-zinc-400" aria-hidden="true">
            <span className="flex items-center gap-1">
              <span className="inline-block size-2.5 rounded-sm bg-indigo-500 dark:bg-indigo-400" /> Completed
            </span>
            <span className="flex items-center gap-1">
              <span className="inline-block h-0.5 w-3 bg-amber-500 dark:bg-amber-400" /> Refunds
            </span>
          </p>
          <div role="group" aria-label="Measure" className="flex gap-1">
            {(["volume", "count"] as const).map((option) => (
              <button
                key={option}
                type="button"
                aria-pressed={metric === option}
                onClick={() => setMetric(option)}
                className={tabClass}
              >
                {option === "volume" ? "Volume" : "Count"}
              </button>
            ))}
          </div>
        </div>
      </div>
      <div ref={frame} className="relative">
        <svg viewBox={`0 0 ${width} ${HEIGHT}`} aria-hidden="true" className="h-56 w-full">
          <YAxisTicks ticks={ticks} left={LEFT} width={width} y={y} label={compact} />
          {daily.map((day, index) => {
            const value = values[index]!;
            const x = LEFT + index * slot;
            return (
              <g key={day.day} onMouseEnter={() => setHovered(index)} onMouseLeave={() => setHovered(null)}>
                <rect x={x} y={TOP} width={slot} height={plotHeight} className="fill-transparent" />
                <rect
                  x={x + slot * 0.15}
                  y={y(value)}
                  width={slot * 0.7}
                  height={Math.max(TOP + plotHeight - y(value), value > 0 ? 1 : 0)}
                  rx={2}
                  className={
                    hovered === index
                      ? "fill-indigo-700 dark:fill-indigo-300"
                      : "fill-indigo-500 dark:fill-indigo-400"
                  }
                />
                {index % labelEvery === 0 ? (
                  <text
                    x={x + slot / 2}
                    y={HEIGHT - 6}
                    textAnchor="middle"
                    className="fill-zinc-500 text-[11px]"
                  >
                    {bucketLabel(day.day, bucket)}
                  </text>
                ) : null}
              </g>
            );
          })}
          <polyline
            points={refundValues
              .map((value, index) => `${LEFT + index * slot + slot / 2},${y(value)}`)
              .join(" ")}
            fill="none"
            strokeWidth={2}
            strokeLinejoin="round"
            className="pointer-events-none stroke-amber-500 dark:stroke-amber-400"
          />
        </svg>
        {active ? (
          <div
            role="tooltip"
            className="pointer-events-none absolute top-0 rounded-md bg-zinc-900 px-3 py-2 text-xs text-white shadow-lg dark:bg-zinc-100 dark:text-zinc-900"
            style={{
              left: `${((LEFT + hovered! * slot + slot / 2) / width) * 100}%`,
              transform: hovered! > daily.length / 2 ? "translateX(-105%)" : "translateX(5%)",
            }}
          >
            <p className="font-medium">{bucketLabel(active.day, bucket)}</p>
            <p className="tabular-nums">
              {active.count.toLocaleString("en-US")} completed · {formatMoney(active.volume, currency)}
            </p>
            <p className="tabular-nums">
              {active.refunds.toLocaleString("en-US")} refund{active.refunds === 1 ? "" : "s"} ·{" "}
              {formatMoney(active.refunded, currency)}
            </p>
          </div>
        ) : null}
      </div>
      {/*
        The chart's numbers for screen readers. The clip sits on a div: a table ignores height and overflow, so
        a sr-only table grows a cell per word and stretches the page far below its content.
      */}
      <div className="sr-only">
        <table>
          <caption>
            Completed payments and refunds per {bucket}, {rangeLabel} (UTC)
          </caption>
          <thead>
            <tr>
              <th scope="col">{bucket === "day" ? "Day" : "Month"}</th>
              <th scope="col">Completed payments</th>
              <th scope="col">Completed volume</th>
              <th scope="col">Refunds</th>
              <th scope="col">Refunded</th>
            </tr>
          </thead>
          <tbody>
            {daily.map((day) => (
              <tr key={day.day}>
                <td>{bucket === "day" ? day.day : day.day.slice(0, 7)}</td>
                <td>{day.count}</td>
                <td>{formatMoney(day.volume, currency)}</td>
                <td>{day.refunds}</td>
                <td>{formatMoney(day.refunded, currency)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}
