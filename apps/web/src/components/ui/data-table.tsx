import { ArrowDown, ArrowUp, ArrowUpDown } from 'lucide-react';
import type { ReactNode } from 'react';

import { cn } from '@/lib/cn';

import { Spinner } from './spinner';

export type SortState<Key extends string = string> = { sort: Key; order: 'asc' | 'desc' };

export type DataTableColumn<Row, Key extends string = string> = {
  /** Unique per table; the sort key sent to the server when `sortable`. */
  id: string;
  header: ReactNode;
  cell: (row: Row) => ReactNode;
  sortKey?: Key;
  align?: 'left' | 'right';
  /** Extra classes for the header and cells, e.g. `hidden md:table-cell` to drop a column on phones. */
  className?: string;
  /** The row's heading cell (`<th scope="row">`), read first by screen readers. */
  isRowHeader?: boolean;
};

export type DataTableProps<Row, Key extends string> = {
  /** Names the table for assistive technology (visually hidden). */
  caption: string;
  columns: readonly DataTableColumn<Row, Key>[];
  rows: readonly Row[] | undefined;
  rowKey: (row: Row) => string;
  isLoading?: boolean;
  /** A message to show instead of the rows (the request failed). */
  error?: string | null;
  /** Shown when there are no rows (and no error). */
  empty?: ReactNode;
  sort?: SortState<Key>;
  onSortChange?: (sort: SortState<Key>) => void;
  /** Dims the rows while a new page loads over the old one. */
  isFetching?: boolean;
};

/**
 * The table of every list screen: sortable headers (buttons with
 * `aria-sort`), a loading state, an error state and an empty state. Sorting
 * and paging happen on the server; this component only reports the choice.
 */
export function DataTable<Row, Key extends string>({
  caption,
  columns,
  rows,
  rowKey,
  isLoading = false,
  error,
  empty,
  sort,
  onSortChange,
  isFetching = false,
}: DataTableProps<Row, Key>) {
  function toggleSort(key: Key) {
    if (!onSortChange) return;
    const order = sort?.sort === key && sort.order === 'asc' ? 'desc' : 'asc';
    onSortChange({ sort: key, order });
  }

  const body = (() => {
    if (isLoading && !rows) {
      return (
        <tr>
          <td colSpan={columns.length} className="px-4 py-12 text-center text-fg-muted">
            <Spinner label={`Loading ${caption.toLowerCase()}`} />
          </td>
        </tr>
      );
    }
    if (error) {
      return (
        <tr>
          <td colSpan={columns.length} className="px-4 py-10 text-center">
            <p role="alert" className="text-sm text-rose-600 dark:text-rose-400">
              {error}
            </p>
          </td>
        </tr>
      );
    }
    if (!rows || rows.length === 0) {
      return (
        <tr>
          <td colSpan={columns.length} className="px-4 py-12 text-center text-sm text-fg-muted">
            {empty ?? 'Nothing here yet.'}
          </td>
        </tr>
      );
    }
    return rows.map((row) => (
      <tr key={rowKey(row)} className="transition-colors hover:bg-surface-muted/60">
        {columns.map((column) => {
          const className = cn(
            'px-3 py-3 sm:px-4 align-middle',
            column.align === 'right' ? 'text-right tabular-nums' : 'text-left',
            column.className,
          );
          return column.isRowHeader ? (
            <th key={column.id} scope="row" className={cn(className, 'font-medium text-fg')}>
              {column.cell(row)}
            </th>
          ) : (
            <td key={column.id} className={cn(className, 'text-fg-muted')}>
              {column.cell(row)}
            </td>
          );
        })}
      </tr>
    ));
  })();

  return (
    <div className="relative overflow-x-auto rounded-2xl border border-line bg-surface shadow-xs">
      <table
        className={cn('w-full border-collapse text-sm', isFetching && rows ? 'opacity-60' : undefined)}
        aria-busy={isLoading || isFetching}
      >
        <caption className="sr-only">{caption}</caption>
        <thead className="border-b border-line bg-surface-muted/50">
          <tr>
            {columns.map((column) => {
              const isSorted = column.sortKey !== undefined && sort?.sort === column.sortKey;
              const ariaSort = isSorted ? (sort.order === 'asc' ? 'ascending' : 'descending') : undefined;
              const alignClass = column.align === 'right' ? 'text-right' : 'text-left';
              return (
                <th
                  key={column.id}
                  scope="col"
                  aria-sort={ariaSort}
                  className={cn(
                    'px-3 py-2.5 sm:px-4 text-xs font-semibold tracking-wide whitespace-nowrap text-fg-subtle uppercase',
                    alignClass,
                    column.className,
                  )}
                >
                  {column.sortKey !== undefined && onSortChange ? (
                    <button
                      type="button"
                      onClick={() => toggleSort(column.sortKey as Key)}
                      className={cn(
                        'inline-flex items-center gap-1 rounded uppercase hover:text-fg',
                        'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-focus',
                        column.align === 'right' ? 'flex-row-reverse' : undefined,
                        isSorted ? 'text-fg' : undefined,
                      )}
                    >
                      {column.header}
                      {isSorted ? (
                        sort.order === 'asc' ? (
                          <ArrowUp aria-hidden="true" className="size-3.5" />
                        ) : (
                          <ArrowDown aria-hidden="true" className="size-3.5" />
                        )
                      ) : (
                        <ArrowUpDown aria-hidden="true" className="size-3.5 opacity-40" />
                      )}
                    </button>
                  ) : (
                    column.header
                  )}
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody className="divide-y divide-line">{body}</tbody>
      </table>
    </div>
  );
}
