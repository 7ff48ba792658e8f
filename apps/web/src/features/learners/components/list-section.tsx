import type { ReactNode } from 'react';

import { ExportCsvButton } from '@/components/export-csv-button';
import { DataTable, type DataTableColumn } from '@/components/ui/data-table';
import { Pagination } from '@/components/ui/pagination';
import { SearchField } from '@/components/ui/search-field';
import { inputClassName } from '@/components/ui/text-field';
import { cn } from '@/lib/cn';
import type { ListParams } from '@/lib/use-list-params';

type Page<Row> = { items: Row[]; total: number; page: number; pageSize: number };

export type ListSectionProps<Row, Key extends string> = {
  /** Names the table (visually hidden caption) and its loading text. */
  caption: string;
  searchLabel: string;
  searchPlaceholder?: string;
  columns: readonly DataTableColumn<Row, Key>[];
  rowKey: (row: Row) => string;
  params: ListParams<Key>;
  onParamsChange: (changes: Partial<ListParams<Key>>) => void;
  query: {
    data: Page<Row> | undefined;
    isPending: boolean;
    isFetching: boolean;
    isPlaceholderData: boolean;
    error: Error | null;
  };
  /** The list's export under /api and the file the browser saves. */
  exportPath: string;
  exportFileName: string;
  /** Plural noun for the pagination text ("learners"). */
  noun: string;
  /** Shown when nothing matches the search. */
  emptySearch: ReactNode;
  /** Shown when there is nothing at all. */
  empty: ReactNode;
};

/**
 * One server-side list: debounced search, export of the same filters,
 * sortable table with loading, error and empty states, and pagination; all
 * of its state lives in the URL (`useListParams`).
 */
export function ListSection<Row, Key extends string>({
  caption,
  searchLabel,
  searchPlaceholder,
  columns,
  rowKey,
  params,
  onParamsChange,
  query,
  exportPath,
  exportFileName,
  noun,
  emptySearch,
  empty,
}: ListSectionProps<Row, Key>) {
  const { data } = query;
  // Phones hide most columns (and their sort buttons): a select offers every sort instead.
  const sortOptions = columns.flatMap((column) =>
    column.sortKey !== undefined && typeof column.header === 'string'
      ? [
          { value: `${column.sortKey}:asc`, label: `${column.header}, ascending` },
          { value: `${column.sortKey}:desc`, label: `${column.header}, descending` },
        ]
      : [],
  );
  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <SearchField
          label={searchLabel}
          placeholder={searchPlaceholder}
          value={params.q}
          onChange={(q) => onParamsChange({ q })}
        />
        <label className="flex items-center gap-2 text-sm whitespace-nowrap text-fg-muted sm:hidden">
          Sort by
          <select
            value={`${params.sort}:${params.order}`}
            onChange={(event) => {
              const [sort, order] = event.target.value.split(':') as [Key, 'asc' | 'desc'];
              onParamsChange({ sort, order });
            }}
            className={cn(inputClassName, 'min-w-0 flex-1')}
          >
            {sortOptions.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </select>
        </label>
        <ExportCsvButton
          path={exportPath}
          query={{ q: params.q || undefined, sort: params.sort, order: params.order }}
          fileName={exportFileName}
        />
      </div>
      <DataTable
        caption={caption}
        columns={columns}
        rows={data?.items}
        rowKey={rowKey}
        isLoading={query.isPending}
        isFetching={query.isFetching && query.isPlaceholderData}
        error={query.error && !data ? query.error.message : null}
        empty={params.q ? emptySearch : empty}
        sort={{ sort: params.sort, order: params.order }}
        onSortChange={(sort) => onParamsChange(sort)}
      />
      {data && data.total > 0 ? (
        <Pagination
          page={params.page}
          pageSize={data.pageSize}
          total={data.total}
          noun={noun}
          onPageChange={(page) => onParamsChange({ page })}
        />
      ) : null}
    </div>
  );
}
