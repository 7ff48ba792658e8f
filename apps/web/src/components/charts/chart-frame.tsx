import { useId, useState, type ReactNode } from 'react';

import { cn } from '@/lib/cn';

import { chartPaletteClass } from './chart-theme';

export type ChartTableCell = string | number | null;

/** The figures of a chart as a table: its fallback for screen readers and anyone who prefers numbers. */
export type ChartTable = {
  columns: readonly string[];
  rows: readonly (readonly ChartTableCell[])[];
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
  className?: string;
  children: ReactNode;
};

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
          <div role="img" aria-label={`${title}: ${summary}`} style={{ height }} className="w-full min-w-0">
            {children}
          </div>
        )}
      </div>
    </figure>
  );
}
