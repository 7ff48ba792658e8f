import type { VariableLeadersResponse } from '@courselens/contracts';
import { Trophy } from 'lucide-react';
import { useId } from 'react';

import { DataTable, type DataTableColumn } from '@/components/ui/data-table';
import { EmptyState } from '@/components/ui/empty-state';
import { inputClassName } from '@/components/ui/text-field';
import { isApiError } from '@/lib/api-client';
import { cn } from '@/lib/cn';
import { formatDateTime } from '@/lib/format';

import { formatVariableValue, learnerLabel } from './format-value';
import type { SourceWords } from './source-words';

type LeaderRow = VariableLeadersResponse['items'][number];

export type VariableLeadersViewProps = {
  data: VariableLeadersResponse | undefined;
  isPending: boolean;
  isFetching: boolean;
  error: unknown;
  order: 'asc' | 'desc';
  limit: number;
  limits: readonly number[];
  showCourse: boolean;
  sourceWords: SourceWords;
  isDate: boolean;
  onChange: (changes: Record<string, string | number | undefined>) => void;
};

/** Learners ranked by their latest value; ties share a rank; names only. */
export function VariableLeadersView({
  data,
  isPending,
  isFetching,
  error,
  order,
  limit,
  limits,
  showCourse,
  sourceWords,
  isDate,
  onChange,
}: VariableLeadersViewProps) {
  const id = useId();
  const dataType = data?.variable.dataType ?? (isDate ? 'date' : 'number');
  const columns: DataTableColumn<LeaderRow>[] = [
    {
      id: 'rank',
      header: 'Rank',
      cell: (row) => <span className="font-semibold text-fg tabular-nums">#{row.rank}</span>,
    },
    {
      id: 'learner',
      header: 'Learner',
      isRowHeader: true,
      cell: (row) => <span className="font-medium text-fg">{learnerLabel(row.learnerName)}</span>,
    },
    {
      id: 'value',
      header: 'Value',
      align: 'right',
      cell: (row) => (
        <span className="font-medium text-fg tabular-nums">
          {formatVariableValue(dataType, {
            value: row.value,
            valueNumber: row.valueNumber,
            valueDate: row.value,
          })}
        </span>
      ),
    },
    ...(showCourse
      ? [
          {
            id: 'course',
            header: sourceWords.label,
            className: 'hidden sm:table-cell',
            cell: (row: LeaderRow) => row.courseTitle,
          },
        ]
      : []),
    {
      id: 'recordedAt',
      header: 'Recorded',
      className: 'hidden md:table-cell',
      cell: (row) => formatDateTime(row.recordedAt),
    },
  ];
  const isNotRankable = isApiError(error) && error.status === 400;

  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center gap-3">
        <div className="flex items-center gap-2">
          <label htmlFor={`${id}-order`} className="text-sm text-fg-muted">
            Order
          </label>
          <select
            id={`${id}-order`}
            value={order}
            onChange={(event) => onChange({ rank: event.target.value === 'asc' ? 'asc' : undefined })}
            className={cn(inputClassName, 'w-44')}
          >
            <option value="desc">{isDate ? 'Latest first' : 'Highest first'}</option>
            <option value="asc">{isDate ? 'Earliest first' : 'Lowest first'}</option>
          </select>
        </div>
        <div className="flex items-center gap-2">
          <label htmlFor={`${id}-top`} className="text-sm text-fg-muted">
            Show top
          </label>
          <select
            id={`${id}-top`}
            value={limit}
            onChange={(event) =>
              onChange({ top: Number(event.target.value) === 10 ? undefined : event.target.value })
            }
            className={cn(inputClassName, 'w-24')}
          >
            {limits.map((value) => (
              <option key={value} value={value}>
                {value}
              </option>
            ))}
          </select>
        </div>
      </div>
      {isNotRankable ? (
        <EmptyState icon={<Trophy aria-hidden="true" />} title="No leaderboard for this variable">
          {error.message}
        </EmptyState>
      ) : (
        <DataTable
          caption="Leaders"
          columns={columns}
          rows={data?.items}
          rowKey={(row) => `${row.rank}:${row.learnerId}`}
          isLoading={isPending}
          isFetching={isFetching}
          error={
            error
              ? isApiError(error)
                ? error.message
                : 'The leaders could not be loaded. Please try again.'
              : null
          }
          empty={
            <EmptyState icon={<Trophy aria-hidden="true" />} title="No leaders yet">
              {sourceWords.noLeaders}
            </EmptyState>
          }
        />
      )}
    </div>
  );
}
