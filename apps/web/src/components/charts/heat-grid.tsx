import { useId, useState, type ReactNode } from 'react';

import { cn } from '@/lib/cn';

import type { ChartTable, ChartTableCell } from './chart-frame';

/**
 * The colour scales of a heat grid, five steps each, in both themes. Every
 * step sets its own text colour so the value printed in the cell stays
 * readable (light steps dark text, dark steps white), and the cell always
 * prints its value: colour is never the only carrier.
 * - `sequential`: counts, from pale to deep indigo (more is darker).
 * - `diverging`: rates, orange (low) through grey to blue (high): a pair
 *   told apart with red-green colour blindness too.
 */
export type HeatScale = 'sequential' | 'diverging';

const SCALES: Record<HeatScale, readonly string[]> = {
  sequential: [
    'bg-brand-50 text-slate-900 dark:bg-brand-950/60 dark:text-slate-100',
    'bg-brand-100 text-slate-900 dark:bg-brand-900 dark:text-slate-100',
    'bg-brand-300 text-slate-950 dark:bg-brand-700 dark:text-white',
    'bg-brand-500 text-white dark:bg-brand-500 dark:text-white',
    'bg-brand-700 text-white dark:bg-brand-300 dark:text-slate-950',
  ],
  diverging: [
    'bg-orange-600 text-white dark:bg-orange-500 dark:text-slate-950',
    'bg-orange-200 text-slate-900 dark:bg-orange-300/80 dark:text-slate-950',
    'bg-slate-200 text-slate-900 dark:bg-slate-600 dark:text-white',
    'bg-sky-200 text-slate-900 dark:bg-sky-300/80 dark:text-slate-950',
    'bg-sky-700 text-white dark:bg-sky-400 dark:text-slate-950',
  ],
};

/** The step (0..4) of a value 0..1 on a scale; 1 is in the top step. */
export function heatStep(intensity: number): number {
  const clamped = Math.min(1, Math.max(0, intensity));
  return Math.min(4, Math.floor(clamped * 5 + 1e-9));
}

/** The classes of a value's step (background and text). */
export function heatCellClass(scale: HeatScale, intensity: number): string {
  return SCALES[scale][heatStep(intensity)] ?? '';
}

export type HeatGridCell = {
  /** Where the value sits on the colour scale, 0..1; null: nothing to colour (the cell stays blank). */
  intensity: number | null;
  /** What the cell prints ("80%", "12"): short. */
  text: string;
  /** The whole value in words, read by screen readers and shown on hover ("Slide 2, question 1: 80% correct…"). */
  label: string;
  /** Drawn hatched with a mark: a value to take with care (too few responses). */
  isMarked?: boolean;
  /** Makes the cell a button (e.g. "show this question"). */
  onSelect?: () => void;
};

export type HeatGridColumn = { key: string; label: string; title?: string };
export type HeatGridRow = {
  key: string;
  label: ReactNode;
  title?: string;
  cells: readonly (HeatGridCell | null)[];
};

/** One swatch of the legend: its label, drawn in the colour of `intensity`. */
export type HeatGridLegendItem = { label: string; intensity: number };

export type HeatGridProps = {
  title: string;
  description?: ReactNode;
  headingLevel?: 'h2' | 'h3';
  /** The header of the row labels' column ("Slide", "Learner"). */
  rowHeader: string;
  columns: readonly HeatGridColumn[];
  rows: readonly HeatGridRow[];
  scale: HeatScale;
  /** The legend's swatches, low to high ("0–19%", … or "✗ Wrong", "✓ Right"). */
  legend: readonly HeatGridLegendItem[];
  /** What a marked cell means ("Too few responses"), shown in the legend when a cell is marked. */
  markLabel?: string;
  /** The figures as a plain table, for the table view (default: one row per cell with its label). */
  table?: ChartTable;
  emptyText?: string;
  /** Above the grid, right: filters, sort, export. */
  actions?: ReactNode;
  /** Under the grid and the table: pagination, notes. */
  footer?: ReactNode;
  /** Width class of the cells ("min-w-12"); rows of many columns scroll sideways. */
  cellClassName?: string;
  className?: string;
};

function cellText(cell: ChartTableCell): string {
  if (cell === null) return '—';
  return typeof cell === 'number'
    ? new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 }).format(cell)
    : cell;
}

function defaultTable(props: Pick<HeatGridProps, 'rows' | 'columns' | 'rowHeader'>): ChartTable {
  const rows: ChartTableCell[][] = [];
  for (const row of props.rows) {
    row.cells.forEach((cell, index) => {
      if (cell)
        rows.push([
          row.title ?? (typeof row.label === 'string' ? row.label : ''),
          props.columns[index]?.label ?? '',
          cell.label,
        ]);
    });
  }
  return { columns: [props.rowHeader, 'Column', 'Value'], rows };
}

const hatch =
  'bg-[repeating-linear-gradient(135deg,transparent_0,transparent_4px,rgb(0_0_0/0.18)_4px,rgb(0_0_0/0.18)_6px)] dark:bg-[repeating-linear-gradient(135deg,transparent_0,transparent_4px,rgb(255_255_255/0.22)_4px,rgb(255_255_255/0.22)_6px)]';

/**
 * An accessible heat grid: a real table whose every cell prints its value and
 * carries its full meaning as text (visually hidden, and as the hover title),
 * coloured on a five-step scale with a legend, with uncertain cells hatched
 * and marked. "Show as table" swaps it for a plain table of the same
 * figures. Wide grids scroll sideways inside their card, the row labels
 * staying in view.
 */
export function HeatGrid({
  title,
  description,
  headingLevel: Heading = 'h3',
  rowHeader,
  columns,
  rows,
  scale,
  legend,
  markLabel,
  table,
  emptyText = 'Nothing to show yet.',
  actions,
  footer,
  cellClassName = 'min-w-12',
  className,
}: HeatGridProps) {
  const [showTable, setShowTable] = useState(false);
  const titleId = useId();
  const regionId = useId();
  const isEmpty = rows.length === 0 || columns.length === 0;
  const hasMarked = rows.some((row) => row.cells.some((cell) => cell?.isMarked));
  const tableData = showTable ? (table ?? defaultTable({ rows, columns, rowHeader })) : null;

  return (
    <section
      aria-labelledby={titleId}
      className={cn(
        'flex min-w-0 flex-col gap-3 rounded-2xl border border-line bg-surface p-4 sm:p-5',
        className,
      )}
    >
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <Heading id={titleId} className="text-sm font-semibold text-fg">
            {title}
          </Heading>
          {description ? <div className="mt-0.5 text-xs text-fg-muted">{description}</div> : null}
        </div>
        <div className="flex flex-wrap items-center gap-2">
          {actions}
          {isEmpty ? null : (
            <button
              type="button"
              aria-pressed={showTable}
              aria-controls={regionId}
              onClick={() => setShowTable((value) => !value)}
              className="rounded-md border border-line px-2 py-1 text-xs font-medium text-fg-muted hover:bg-surface-muted hover:text-fg focus-visible:outline-2 focus-visible:outline-focus"
            >
              {showTable ? 'Show as grid' : 'Show as table'}
            </button>
          )}
        </div>
      </div>
      <div id={regionId} className="min-w-0">
        {isEmpty ? (
          <p className="flex items-center justify-center rounded-lg border border-dashed border-line px-4 py-10 text-center text-sm text-fg-muted">
            {emptyText}
          </p>
        ) : tableData ? (
          <div className="max-h-[32rem] overflow-auto">
            <table className="w-full text-left text-sm">
              <caption className="sr-only">{title}</caption>
              <thead className="sticky top-0 bg-surface">
                <tr className="border-b border-line text-xs text-fg-muted">
                  {tableData.columns.map((column) => (
                    <th key={column} scope="col" className="px-2 py-1.5 font-medium">
                      {column}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {tableData.rows.map((row, rowIndex) => (
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
            <div className="overflow-x-auto">
              <table className="border-separate border-spacing-0.5 text-xs">
                <caption className="sr-only">{title}</caption>
                <thead>
                  <tr>
                    <th
                      scope="col"
                      className="sticky left-0 z-10 bg-surface px-2 py-1 text-left font-medium text-fg-muted"
                    >
                      {rowHeader}
                    </th>
                    {columns.map((column) => (
                      <th
                        key={column.key}
                        scope="col"
                        title={column.title}
                        className="px-1 py-1 text-center font-medium whitespace-nowrap text-fg-muted"
                      >
                        {column.label}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {rows.map((row) => (
                    <tr key={row.key}>
                      <th
                        scope="row"
                        title={row.title}
                        className="sticky left-0 z-10 max-w-48 truncate bg-surface px-2 py-1 text-left font-normal text-fg"
                      >
                        {row.label}
                      </th>
                      {row.cells.map((cell, index) => (
                        <HeatCell
                          key={columns[index]?.key ?? index}
                          cell={cell}
                          scale={scale}
                          className={cellClassName}
                        />
                      ))}
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <HeatLegend scale={scale} legend={legend} markLabel={hasMarked ? markLabel : undefined} />
          </>
        )}
        {footer ? <div className="mt-3">{footer}</div> : null}
      </div>
    </section>
  );
}

function HeatCell({
  cell,
  scale,
  className,
}: {
  cell: HeatGridCell | null;
  scale: HeatScale;
  className: string;
}) {
  if (!cell) {
    return (
      <td className={cn('h-9 rounded-md bg-surface-muted/60 text-center text-fg-subtle', className)}>
        <span aria-hidden="true">·</span>
        <span className="sr-only">No value</span>
      </td>
    );
  }
  const colour =
    cell.intensity === null ? 'bg-surface-muted text-fg-muted' : heatCellClass(scale, cell.intensity);
  const content = (
    <>
      <span aria-hidden="true" className="tabular-nums">
        {cell.text}
        {cell.isMarked ? <sup className="ml-px font-bold">*</sup> : null}
      </span>
      <span className="sr-only">{cell.label}</span>
    </>
  );
  return (
    <td
      title={cell.label}
      data-step={cell.intensity === null ? undefined : heatStep(cell.intensity)}
      data-marked={cell.isMarked ? 'true' : undefined}
      className={cn('relative h-9 rounded-md px-1 text-center font-medium', colour, className)}
    >
      {cell.isMarked ? (
        <span aria-hidden="true" className={cn('absolute inset-0 rounded-md', hatch)} />
      ) : null}
      {cell.onSelect ? (
        <button
          type="button"
          onClick={cell.onSelect}
          className="relative flex size-full items-center justify-center rounded-md focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-focus"
        >
          {content}
        </button>
      ) : (
        <span className="relative">{content}</span>
      )}
    </td>
  );
}

function HeatLegend({
  scale,
  legend,
  markLabel,
}: {
  scale: HeatScale;
  legend: readonly HeatGridLegendItem[];
  markLabel?: string | undefined;
}) {
  return (
    <div className="mt-3 flex flex-wrap items-center gap-x-4 gap-y-2 text-xs text-fg-muted">
      <ul className="flex flex-wrap items-center gap-1" aria-label="Colour scale">
        {legend.map((item) => (
          <li
            key={item.label}
            className={cn(
              'rounded px-1.5 py-0.5 font-medium tabular-nums',
              heatCellClass(scale, item.intensity),
            )}
          >
            {item.label}
          </li>
        ))}
      </ul>
      {markLabel ? (
        <p className="flex items-center gap-1.5">
          <span
            aria-hidden="true"
            className={cn('relative inline-block size-4 rounded bg-slate-200 dark:bg-slate-600', hatch)}
          />
          <span>
            <span aria-hidden="true">* </span>
            {markLabel}
          </span>
        </p>
      ) : null}
    </div>
  );
}
