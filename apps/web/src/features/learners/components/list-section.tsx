import type { ReactNode } from 'react';

import { ExportCsvButton } from '@/components/export-csv-button';
import { FilterBar } from '@/components/filter-bar';
import { SortSelect } from '@/components/sort-select';
import { DataTable, type DataTableColumn } from '@/components/ui/data-table';
import { Pagination } from '@/components/ui/pagination';
import { SearchField } from '@/components/ui/search-field';
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
  return (
    <div className="flex flex-col gap-4">
      <FilterBar
        search={
          <SearchField
            label={searchLabel}
            placeholder={searchPlaceholder}
            value={params.q}
            onChange={(q) => onParamsChange({ q })}
          />
        }
        actions={
          <ExportCsvButton
            path={exportPath}
            query={{ q: params.q || undefined, sort: params.sort, order: params.order }}
            fileName={exportFileName}
          />
        }
      >
        {/* Phones hide most columns and their sort buttons: every sort is offered here. */}
        <SortSelect
          columns={columns}
          sort={params.sort}
          order={params.order}
          onChange={(sort) => onParamsChange(sort)}
          className="md:hidden"
        />
      </FilterBar>
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
