import type { VariableReportResponse, VariableReportRow, VariableSummary } from '@courselens/contracts';
import { History, Users } from 'lucide-react';
import { useState } from 'react';

import { EmailText } from '@/components/email-text';
import { StatGrid, type Stat } from '@/components/stat-grid';
import { Button } from '@/components/ui/button';
import { DataTable, type DataTableColumn } from '@/components/ui/data-table';
import { Dialog } from '@/components/ui/dialog';
import { EmptyState } from '@/components/ui/empty-state';
import { Pagination } from '@/components/ui/pagination';
import { SearchField } from '@/components/ui/search-field';
import { Spinner } from '@/components/ui/spinner';
import { isApiError } from '@/lib/api-client';
import { formatDate, formatDateTime, formatDecimal, formatNumber, formatPercent } from '@/lib/format';

import {
  VARIABLE_REPORT_PAGE_SIZE,
  useVariableHistory,
  type VariableReportParams,
} from '../api/get-variable-report';
import type { VariableReportTarget } from '../api/report-target';

import { formatVariableValue, learnerLabel } from './format-value';
import { sourceWordsOf } from './source-words';

type SortKey = VariableReportParams['sort'];

/** The summary statistics of the variable's type. */
export function summaryStats(summary: VariableSummary): Stat[] {
  const base: Stat[] = [
    { label: 'Learners', value: formatNumber(summary.learners), hint: summary.definitions.learners },
    { label: 'Values', value: formatNumber(summary.values), hint: summary.definitions.values },
    { label: 'Distinct values', value: formatNumber(summary.distinct) },
  ];
  switch (summary.dataType) {
    case 'number':
      return [
        ...base,
        { label: 'Mean', value: formatDecimal(summary.mean) },
        { label: 'Median', value: formatDecimal(summary.median) },
        { label: 'Minimum', value: formatDecimal(summary.min) },
        { label: 'Maximum', value: formatDecimal(summary.max) },
        { label: 'Std deviation', value: formatDecimal(summary.stddev), hint: 'Sample standard deviation' },
      ];
    case 'boolean':
      return [
        ...base,
        { label: 'True', value: formatNumber(summary.trueCount) },
        { label: 'False', value: formatNumber(summary.falseCount) },
        { label: 'True rate', value: formatPercent(summary.trueRate) },
      ];
    case 'date':
      return [
        ...base,
        { label: 'Earliest', value: formatDate(summary.earliest) },
        { label: 'Latest', value: formatDate(summary.latest) },
      ];
    case 'text':
      return [
        ...base,
        ...summary.topValues.slice(0, 3).map((top, index) => ({
          label: `Top ${index + 1}: ${top.value}`,
          value: formatNumber(top.count),
          hint: top.value,
        })),
      ];
  }
}

export type VariableReportViewProps = {
  organizationId: string | null | undefined;
  target: VariableReportTarget;
  params: VariableReportParams;
  data: VariableReportResponse | undefined;
  isPending: boolean;
  isFetching: boolean;
  error: unknown;
  onChange: (changes: Record<string, string | number | undefined>) => void;
  hasFilters: boolean;
};

/** Summary statistics, then every learner's latest value: searchable, sortable, paged, with history. */
export function VariableReportView({
  organizationId,
  target,
  params,
  data,
  isPending,
  isFetching,
  error,
  onChange,
  hasFilters,
}: VariableReportViewProps) {
  const [historyOf, setHistoryOf] = useState<VariableReportRow | null>(null);
  const isShared = target.kind === 'shared';
  const isOrganizationWide = target.kind === 'variable';
  const sourceWords = sourceWordsOf(target);
  const dataType = data?.variable.dataType ?? 'text';

  const columns: DataTableColumn<VariableReportRow, SortKey>[] = [
    {
      id: 'learner',
      header: 'Learner',
      sortKey: 'learner',
      isRowHeader: true,
      cell: (row) => (
        <div className="min-w-0">
          <div className="font-medium text-fg">{learnerLabel(row.learnerName)}</div>
          {row.learnerEmail ? (
            <EmailText email={row.learnerEmail} className="block text-xs text-fg-muted" />
          ) : null}
          <div className="mt-0.5 text-xs text-fg-subtle sm:hidden">{formatDateTime(row.recordedAt)}</div>
        </div>
      ),
    },
    {
      id: 'value',
      header: 'Value',
      sortKey: 'value',
      align: dataType === 'number' ? 'right' : 'left',
      cell: (row) => (
        <span className="font-medium break-words text-fg tabular-nums">
          {formatVariableValue(dataType, row)}
        </span>
      ),
    },
    ...(isOrganizationWide
      ? [
          {
            id: 'course',
            header: sourceWords.label,
            sortKey: 'course',
            className: 'hidden md:table-cell',
            cell: (row: VariableReportRow) => row.courseTitle,
          } satisfies DataTableColumn<VariableReportRow, SortKey>,
        ]
      : []),
    {
      id: 'recordedAt',
      header: 'Recorded',
      sortKey: 'recordedAt',
      className: 'hidden sm:table-cell',
      cell: (row) => (
        <time dateTime={row.recordedAt} className="whitespace-nowrap">
          {formatDateTime(row.recordedAt)}
        </time>
      ),
    },
    ...(isShared
      ? []
      : [
          {
            id: 'history',
            header: <span className="sr-only">History</span>,
            align: 'right',
            cell: (row: VariableReportRow) => (
              <Button
                variant="ghost"
                size="sm"
                onClick={() => setHistoryOf(row)}
                aria-label={`History of ${learnerLabel(row.learnerName)}`}
              >
                <History aria-hidden="true" />
                <span className="hidden lg:inline">History</span>
              </Button>
            ),
          } satisfies DataTableColumn<VariableReportRow, SortKey>,
        ]),
  ];

  const errorMessage = error
    ? isApiError(error)
      ? error.message
      : 'The report could not be loaded. Please try again.'
    : null;

  return (
    <div className="flex flex-col gap-4">
      {data ? <StatGrid label="Summary statistics" stats={summaryStats(data.summary)} /> : null}
      {/* A shared view has no search: it would let a visitor test whether an e-mail is among the learners. */}
      {isShared ? null : (
        <SearchField
          label="Search learners"
          placeholder="Search by learner name or e-mail"
          value={params.q}
          onChange={(q) => onChange({ q })}
          className="sm:max-w-sm"
        />
      )}
      <DataTable
        caption="Latest value of each learner"
        columns={columns}
        rows={data?.items}
        rowKey={(row) => `${row.learnerId}:${row.variableId}`}
        isLoading={isPending}
        isFetching={isFetching}
        error={errorMessage}
        sort={{ sort: params.sort, order: params.order }}
        onSortChange={(sort) => onChange(sort)}
        empty={
          <EmptyState
            icon={<Users aria-hidden="true" />}
            title={hasFilters || params.q ? 'No values match' : 'No values yet'}
          >
            {hasFilters || params.q ? 'Try another search or clear the filters.' : sourceWords.noValues}
          </EmptyState>
        }
      />
      {data && data.total > 0 ? (
        <Pagination
          page={data.page}
          pageSize={VARIABLE_REPORT_PAGE_SIZE}
          total={data.total}
          onPageChange={(page) => onChange({ page })}
          noun="values"
        />
      ) : null}
      {isShared ? null : (
        <HistoryDialog
          organizationId={organizationId}
          target={target}
          row={historyOf}
          onClose={() => setHistoryOf(null)}
        />
      )}
    </div>
  );
}

function HistoryDialog({
  organizationId,
  target,
  row,
  onClose,
}: {
  organizationId: string | null | undefined;
  target: VariableReportTarget;
  row: VariableReportRow | null;
  onClose: () => void;
}) {
  const history = useVariableHistory(organizationId, target, row?.learnerId ?? null);
  return (
    <Dialog
      open={row !== null}
      onClose={onClose}
      title={row ? `Values of ${learnerLabel(row.learnerName)}` : 'Values'}
      description="Every value recorded, newest first."
    >
      {history.isPending ? (
        <div className="flex justify-center py-6">
          <Spinner label="Loading the history" />
        </div>
      ) : history.error ? (
        <p role="alert" className="text-sm text-fg-muted">
          {isApiError(history.error) ? history.error.message : 'The history could not be loaded.'}
        </p>
      ) : (
        <ol className="max-h-80 divide-y divide-line overflow-auto">
          {history.data.items.map((item) => (
            <li
              key={`${item.recordedAt}:${item.courseId}`}
              className="flex items-baseline justify-between gap-4 py-2 text-sm"
            >
              <span className="font-medium break-all text-fg">{item.value ?? '—'}</span>
              <span className="shrink-0 text-right text-xs text-fg-muted">
                {formatDateTime(item.recordedAt)}
                <span className="block">{item.courseTitle}</span>
              </span>
            </li>
          ))}
        </ol>
      )}
    </Dialog>
  );
}
