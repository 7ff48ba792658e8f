import { useId, useState, type ReactNode } from 'react';

import { cn } from '@/lib/cn';

import { chartPaletteClass } from './chart-theme';

export type ChartTableCell = string | number | null;

/** The figures of a chart as a table: its fallback for screen readers and anyone who prefers numbers. */
export type ChartTable = {
  columns: readonly string[];
  rows: readonly (readonly ChartTableCell[])[];
};

/**
 * Titles of a cartesian chart's axes, with their units ("Learners",
 * "Correct rate (%)"). Written as text around the drawing, not inside the
 * SVG, so they wrap on a phone and never collide with ticks. A colour ties a
 * title to its series (as a swatch) when a chart has two vertical axes.
 */
export type AxisTitles = {
  /** Under the horizontal axis. */
  x?: string;
  /** Above the left vertical axis. */
  y?: string;
  /** Above the right vertical axis. */
  yRight?: string;
  /** The colour of the left axis' series, shown as a swatch beside its title (and its axis line). */
  yColor?: string;
  yRightColor?: string;
};

export type ChartFrameProps = {
  title: string;
  description?: ReactNode;
  /** Read out instead of the drawing (role="img"), e.g. "3 bars, highest: B with 12". */
  summary: string;
  table: ChartTable;
  /** Height of the drawing area in px. */
  height?: number;
  /** Heading level, so the chart fits the page's outline. */
  headingLevel?: 'h2' | 'h3' | 'h4';
  /** Shown instead of the chart when there is nothing to draw. */
  emptyText?: string;
  actions?: ReactNode;
  /** Axis titles drawn around the chart (see `AxisTitles`). */
  axisTitles?: AxisTitles;
  /** A legend under the drawing (hidden with it when the table shows). */
  legend?: ReactNode;
  /** A note under the chart and under its table, e.g. how many categories were folded into "Others". */
  footnote?: ReactNode;
  className?: string;
  children: ReactNode;
};

/**
 * A short line in a series' colour beside an axis title: ties the axis to its
 * line while the title itself stays in the text colour (series colours are
 * too light for small text).
 */
function AxisSwatch({ color }: { color: string }) {
  return (
    <svg width="14" height="4" viewBox="0 0 14 4" aria-hidden="true" className="shrink-0">
      <line x1="0" y1="2" x2="14" y2="2" stroke={color} strokeWidth="3" strokeLinecap="round" />
    </svg>
  );
}

function cellText(cell: ChartTableCell): string {
  if (cell === null) return '—';
  return typeof cell === 'number'
    ? new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 }).format(cell)
    : cell;
}

/**
 * The frame of every chart: title, description, the drawing exposed as one
 * image with a summary as its name, and a "Show as table" toggle that swaps
 * the drawing for a real table of the same figures.
 */
export function ChartFrame({
  title,
  description,
  summary,
  table,
  height = 280,
  headingLevel: Heading = 'h3',
  emptyText = 'No data to chart yet.',
  actions,
  axisTitles,
  legend,
  footnote,
  className,
  children,
}: ChartFrameProps) {
  const [showTable, setShowTable] = useState(false);
  const titleId = useId();
  const regionId = useId();
  const isEmpty = table.rows.length === 0;

  return (
    <figure
      aria-labelledby={titleId}
      className={cn(
        'flex min-w-0 flex-col gap-3 rounded-2xl border border-line bg-surface p-4 sm:p-5',
        chartPaletteClass,
        className,
      )}
    >
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <Heading id={titleId} className="text-sm font-semibold text-fg">
            {title}
          </Heading>
          {description ? <p className="mt-0.5 text-xs text-fg-muted">{description}</p> : null}
        </div>
        <div className="flex items-center gap-2">
          {actions}
          {isEmpty ? null : (
            <button
              type="button"
              aria-pressed={showTable}
              aria-controls={regionId}
              onClick={() => setShowTable((value) => !value)}
              className="rounded-md border border-line px-2 py-1 text-xs font-medium text-fg-muted hover:bg-surface-muted hover:text-fg"
            >
              {showTable ? 'Show as chart' : 'Show as table'}
            </button>
          )}
        </div>
      </div>
      <div id={regionId} className="min-w-0">
        {isEmpty ? (
          <p className="flex items-center justify-center rounded-lg border border-dashed border-line py-10 text-sm text-fg-muted">
            {emptyText}
          </p>
        ) : showTable ? (
          <div className="max-h-96 overflow-auto">
            <table className="w-full text-left text-sm">
              <caption className="sr-only">{title}</caption>
              <thead>
                <tr className="border-b border-line text-xs text-fg-muted">
                  {table.columns.map((column) => (
                    <th key={column} scope="col" className="px-2 py-1.5 font-medium">
                      {column}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {table.rows.map((row, rowIndex) => (
                  <tr key={rowIndex} className="border-b border-line last:border-0">
                    {row.map((cell, cellIndex) =>
                      cellIndex === 0 ? (
                        <th key={cellIndex} scope="row" className="px-2 py-1.5 font-normal text-fg">
                          {cellText(cell)}
                        </th>
                      ) : (
                        <td key={cellIndex} className="px-2 py-1.5 text-fg tabular-nums">
                          {cellText(cell)}
                        </td>
                      ),
                    )}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : (
          <>
            <div
              role="img"
              aria-label={`${title}: ${summary}`}
              style={{ height }}
              className="flex w-full min-w-0 flex-col"
            >
              {axisTitles?.y || axisTitles?.yRight ? (
                <div className="flex items-end justify-between gap-3 pb-1 text-xs leading-tight font-medium text-fg-muted">
                  <span
                    data-axis-title="y"
                    data-color={axisTitles.yColor}
                    className="flex min-w-0 items-center gap-1.5"
                  >
                    {axisTitles.yColor ? <AxisSwatch color={axisTitles.yColor} /> : null}
                    <span className="min-w-0">{axisTitles.y}</span>
                  </span>
                  {axisTitles.yRight ? (
                    <span
                      data-axis-title="y-right"
                      data-color={axisTitles.yRightColor}
                      className="flex min-w-0 items-center justify-end gap-1.5 text-right"
                    >
                      <span className="min-w-0">{axisTitles.yRight}</span>
                      {axisTitles.yRightColor ? <AxisSwatch color={axisTitles.yRightColor} /> : null}
                    </span>
                  ) : null}
                </div>
              ) : null}
              <div className="min-h-0 w-full min-w-0 flex-1">{children}</div>
              {axisTitles?.x ? (
                <div
                  data-axis-title="x"
                  className="pt-0.5 text-center text-xs leading-tight font-medium text-fg-muted"
                >
                  {axisTitles.x}
                </div>
              ) : null}
            </div>
            {legend}
          </>
        )}
        {!isEmpty && footnote ? <p className="mt-2 text-xs text-fg-muted">{footnote}</p> : null}
      </div>
    </figure>
  );
}
