import { useEffect, useId, useRef, useState } from 'react';

import { cn } from '@/lib/cn';

export type BarChartDatum = {
  /** Unique key of the bar, e.g. an ISO date. */
  key: string;
  /** Axis label (shortened by `tickEvery`). */
  label: string;
  /** Full label for the tooltip and the data table, e.g. "Mar 4, 2026". */
  fullLabel?: string;
  value: number;
  /** A period still running (today): drawn lighter and outlined, and read as "so far". */
  isPartial?: boolean;
};

export type BarChartProps = {
  /** Names the chart for assistive technology, e.g. "Course runs per day". */
  title: string;
  data: readonly BarChartDatum[];
  /** What one unit is, for tooltips and the table ("runs"). */
  valueLabel: string;
  /** Header of the table's first column and the title under the axis ("Day"). */
  categoryLabel?: string;
  /** The title beside the value axis; the value label, capitalized, when absent ("Runs"). */
  valueAxisTitle?: string;
  height?: number;
  className?: string;
  formatValue?: (value: number) => string;
};

const numberFormat = new Intl.NumberFormat('en-US');
// Room on the left for the ticks and the rotated axis title, below for the labels and the axis title.
const PADDING = { top: 12, right: 8, bottom: 46, left: 58 };
const PARTIAL_NOTE = 'so far';

/** 0, and up to four round steps that cover `max`. */
function niceTicks(max: number): number[] {
  if (max <= 0) return [0, 1];
  const rough = max / 4;
  const magnitude = 10 ** Math.floor(Math.log10(rough));
  const step =
    [1, 2, 2.5, 5, 10].map((factor) => factor * magnitude).find((value) => value >= rough) ?? rough;
  const niceStep = Math.max(1, step);
  const ticks: number[] = [];
  for (let tick = 0; tick < max + niceStep; tick += niceStep) ticks.push(tick);
  return ticks;
}

function useWidth<T extends HTMLElement>(fallback: number) {
  const ref = useRef<T>(null);
  const [width, setWidth] = useState(fallback);
  useEffect(() => {
    const element = ref.current;
    if (!element || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver((entries) => {
      const next = entries[0]?.contentRect.width;
      if (next && next > 0) setWidth(Math.round(next));
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return [ref, width] as const;
}

/**
 * A vertical bar chart drawn in SVG, sized to its container. Screen readers
 * and keyboard users get the same figures as a table (visually hidden, so
 * nothing is lost without a pointer); each bar shows its value on hover.
 */
export function BarChart({
  title,
  data,
  valueLabel,
  categoryLabel = 'Day',
  valueAxisTitle,
  height = 240,
  className,
  formatValue = (value) => numberFormat.format(value),
}: BarChartProps) {
  const [containerRef, width] = useWidth<HTMLDivElement>(640);
  const [active, setActive] = useState<number | null>(null);
  const titleId = useId();
  const max = Math.max(0, ...data.map((datum) => datum.value));
  const ticks = niceTicks(max);
  const top = ticks.at(-1) ?? 1;
  const plotWidth = Math.max(1, width - PADDING.left - PADDING.right);
  const plotHeight = height - PADDING.top - PADDING.bottom;
  const slot = plotWidth / Math.max(1, data.length);
  const barWidth = Math.max(1, Math.min(36, slot * 0.72));
  // Room for about one label per 56 px.
  const labelEvery = Math.max(1, Math.ceil(data.length / Math.max(1, Math.floor(plotWidth / 56))));
  const y = (value: number) => PADDING.top + plotHeight - (value / top) * plotHeight;
  const activeDatum = active === null ? undefined : data[active];
  const yTitle = valueAxisTitle ?? `${valueLabel.charAt(0).toUpperCase()}${valueLabel.slice(1)}`;
  const hasPartial = data.some((datum) => datum.isPartial);
  const fullLabelOf = (datum: BarChartDatum) =>
    `${datum.fullLabel ?? datum.label}${datum.isPartial ? ` (${PARTIAL_NOTE})` : ''}`;

  return (
    <div ref={containerRef} className={cn('relative w-full', className)}>
      <svg
        width={width}
        height={height}
        role="img"
        aria-labelledby={titleId}
        className="block overflow-visible text-fg-subtle"
      >
        <title id={titleId}>
          {`${title}: ${data.length} bars, highest ${formatValue(max)} ${valueLabel}`}
        </title>
        <text
          transform={`translate(12 ${PADDING.top + plotHeight / 2}) rotate(-90)`}
          textAnchor="middle"
          className="fill-current text-[11px] font-medium"
        >
          {yTitle}
        </text>
        <text
          x={PADDING.left + plotWidth / 2}
          y={height - 4}
          textAnchor="middle"
          className="fill-current text-[11px] font-medium"
        >
          {categoryLabel}
        </text>
        {ticks.map((tick) => (
          <g key={tick}>
            <line
              x1={PADDING.left}
              x2={width - PADDING.right}
              y1={y(tick)}
              y2={y(tick)}
              className="stroke-line"
              strokeDasharray={tick === 0 ? undefined : '3 4'}
            />
            <text
              x={PADDING.left - 8}
              y={y(tick)}
              dy="0.32em"
              textAnchor="end"
              className="fill-current text-[11px] tabular-nums"
            >
              {formatValue(tick)}
            </text>
          </g>
        ))}
        {data.map((datum, index) => {
          const x = PADDING.left + index * slot + (slot - barWidth) / 2;
          const barTop = y(datum.value);
          const isActive = active === index;
          return (
            <g key={datum.key}>
              {/* The hit area is the whole slot, so thin bars are easy to point at. */}
              <rect
                x={PADDING.left + index * slot}
                y={PADDING.top}
                width={slot}
                height={plotHeight}
                className="fill-transparent"
                onMouseEnter={() => setActive(index)}
                onMouseLeave={() => setActive(null)}
              />
              <rect
                x={x}
                y={barTop}
                width={barWidth}
                height={Math.max(0, PADDING.top + plotHeight - barTop)}
                rx={Math.min(3, barWidth / 3)}
                strokeDasharray={datum.isPartial ? '3 2' : undefined}
                className={cn(
                  'pointer-events-none transition-colors',
                  datum.isPartial
                    ? 'fill-brand-200 stroke-brand-600 dark:fill-brand-800 dark:stroke-brand-300'
                    : isActive
                      ? 'fill-brand-700 dark:fill-brand-200'
                      : 'fill-brand-500 dark:fill-brand-400',
                )}
                data-partial={datum.isPartial ? 'true' : undefined}
              />
              {index % labelEvery === 0 ? (
                <text
                  x={PADDING.left + index * slot + slot / 2}
                  y={height - 24}
                  textAnchor="middle"
                  className="fill-current text-[11px]"
                >
                  {datum.label}
                </text>
              ) : null}
            </g>
          );
        })}
      </svg>
      {activeDatum && active !== null ? (
        <div
          aria-hidden="true"
          className="pointer-events-none absolute top-0 z-10 -translate-x-1/2 rounded-lg border border-line bg-surface px-2.5 py-1.5 text-xs whitespace-nowrap shadow-md"
          style={{
            left: Math.min(Math.max(PADDING.left + active * slot + slot / 2, 60), Math.max(60, width - 60)),
          }}
        >
          <span className="block text-fg-muted">{fullLabelOf(activeDatum)}</span>
          <span className="font-semibold text-fg tabular-nums">
            {formatValue(activeDatum.value)} {valueLabel}
          </span>
        </div>
      ) : null}
      {hasPartial ? (
        <p className="mt-1 flex items-center gap-1.5 text-xs text-fg-subtle" data-testid="partial-note">
          <span
            aria-hidden="true"
            className="inline-block size-2.5 rounded-sm border border-dashed border-brand-600 bg-brand-200 dark:border-brand-300 dark:bg-brand-800"
          />
          Lighter bar: still counting ({PARTIAL_NOTE})
        </p>
      ) : null}
      {/* A table ignores a width smaller than its content: the visually hidden box is a div around it. */}
      <div className="sr-only">
        <table>
          <caption>{title}</caption>
          <thead>
            <tr>
              <th scope="col">{categoryLabel}</th>
              <th scope="col">{valueLabel}</th>
            </tr>
          </thead>
          <tbody>
            {data.map((datum) => (
              <tr key={datum.key}>
                <th scope="row">{fullLabelOf(datum)}</th>
                <td>{formatValue(datum.value)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
