"use client";

import Link from "next/link";
import { useEffect, useRef, useState } from "react";
import { formatMoney } from "@/components/format";
import { CHART_RANGES, type ChartRange } from "@/lib/payments/filters";
import type { DailyTotals } from "@/lib/payments/stats";

const HEIGHT = 224; // h-56
const LEFT = 64;
const BOTTOM = 24;
const TOP = 8;

type Metric = "volume" | "count";

/** Round tick values for a y-axis from 0 to at least `max`: 1, 2 or 5 times a power of ten apart. */
function niceTicks(max: number, count = 4): number[] {
  if (max <= 0) return [0, 1];
  const rough = max / count;
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 5, 10].map((factor) => factor * power).find((candidate) => candidate >= rough)!;
  const ticks = [];
  for (let value = 0; value < max + step; value += step) ticks.push(Math.round(value * 100) / 100);
  return ticks;
}

const dayLabel = (day: string) =>
  new Date(`${day}T00:00:00Z`).toLocaleDateString("en-US", {
    month: "short",
    day: "numeric",
    timeZone: "UTC",
  });

const compact = (value: number) =>
  value.toLocaleString("en-US", { notation: "compact", maximumFractionDigits: 1 });

/** Payments per day as an SVG bar chart: a y-axis, date ticks, values on hover, volume or count. */
export function DailyChart({
  daily,
  days,
  currency,
}: {
  daily: DailyTotals;
  days: ChartRange;
  currency: string | null;
}) {
  const [metric, setMetric] = useState<Metric>("volume");
  const [hovered, setHovered] = useState<number | null>(null);
  // The drawing is as wide as its card, in CSS pixels, so labels keep their size at any width.
  const frame = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(720);
  useEffect(() => {
    const element = frame.current;
    if (!element) return;
    const observer = new ResizeObserver(([entry]) =>
      setWidth(Math.max(280, Math.round(entry!.contentRect.width))),
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  const values = daily.map((day) => (metric === "count" ? day.count : Number(day.volume)));
  const ticks = niceTicks(Math.max(...values, 0));
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
          {metric === "volume" ? "Volume" : "Payments"} per day, last {days} days (UTC)
        </figcaption>
        <div className="flex flex-wrap gap-3">
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
          <nav aria-label="Chart range" className="flex gap-1">
            {CHART_RANGES.map((range) => (
              <Link
                key={range}
                href={range === 30 ? "/dashboard" : `/dashboard?range=${range}`}
                aria-current={range === days ? "true" : undefined}
                scroll={false}
                className={tabClass}
              >
                {range} days
              </Link>
            ))}
          </nav>
        </div>
      </div>
      <div ref={frame} className="relative">
        <svg viewBox={`0 0 ${width} ${HEIGHT}`} aria-hidden="true" className="h-56 w-full">
          {ticks.map((tick) => (
            <g key={tick}>
              <line
                x1={LEFT}
                x2={width}
                y1={y(tick)}
                y2={y(tick)}
                className="stroke-zinc-200 dark:stroke-zinc-800"
              />
              <text
                x={LEFT - 8}
                y={y(tick) + 4}
                textAnchor="end"
                className="fill-zinc-500 text-[11px] tabular-nums"
              >
                {compact(tick)}
              </text>
            </g>
          ))}
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
                    {dayLabel(day.day)}
                  </text>
                ) : null}
              </g>
            );
          })}
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
            <p className="font-medium">{dayLabel(active.day)}</p>
            <p className="tabular-nums">
              {active.count.toLocaleString("en-US")} payment{active.count === 1 ? "" : "s"}
            </p>
            <p className="tabular-nums">{formatMoney(active.volume, currency)}</p>
          </div>
        ) : null}
      </div>
      {/*
        The chart's numbers for screen readers. The clip sits on a div: a table ignores height and overflow, so
        a sr-only table grows a cell per word and stretches the page far below its content.
      */}
      <div className="sr-only">
        <table>
          <caption>Payments per day, last {days} days (UTC)</caption>
          <thead>
            <tr>
              <th scope="col">Day</th>
              <th scope="col">Payments</th>
              <th scope="col">Volume</th>
            </tr>
          </thead>
          <tbody>
            {daily.map((day) => (
              <tr key={day.day}>
                <td>{day.day}</td>
                <td>{day.count}</td>
                <td>{formatMoney(day.volume, currency)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}
