import type {
  QuestionChartResponse,
  QuestionLeadersResponse,
  QuestionReportResponse,
  QuestionReportSortKey,
  QuestionResponseRow,
} from '@courselens/contracts';
import { MessageSquare, Trophy } from 'lucide-react';
import { useId } from 'react';

import { CategoryBarChart, isCurrentPeriod, partialPeriodLabel, TrendLineChart } from '@/components/charts';
import { EmailText } from '@/components/email-text';
import { StatGrid } from '@/components/stat-grid';
import { Badge } from '@/components/ui/badge';
import { DataTable, type DataTableColumn } from '@/components/ui/data-table';
import { EmptyState } from '@/components/ui/empty-state';
import { Pagination } from '@/components/ui/pagination';
import { SearchField } from '@/components/ui/search-field';
import { Spinner } from '@/components/ui/spinner';
import { inputClassName } from '@/components/ui/text-field';
import { isApiError } from '@/lib/api-client';
import { cn } from '@/lib/cn';
import { formatDateTime, formatDecimal, formatNumber, formatPercent } from '@/lib/format';

import { QUESTION_REPORT_PAGE_SIZE, type QuestionReportParams } from '../api/get-question-report';

type Change = (changes: Record<string, string | number | undefined>) => void;

const learnerLabel = (name: string | null) => name?.trim() || 'Unnamed learner';

function errorText(error: unknown, what: string): string | null {
  if (!error) return null;
  return isApiError(error) ? error.message : `The ${what} could not be loaded. Please try again.`;
}

function Correctness({ correct }: { correct: boolean | null }) {
  if (correct === null) return <Badge>Ungraded</Badge>;
  return correct ? <Badge variant="success">Correct</Badge> : <Badge variant="danger">Incorrect</Badge>;
}

export type QuestionReportViewProps = {
  params: QuestionReportParams;
  data: QuestionReportResponse | undefined;
  isPending: boolean;
  isFetching: boolean;
  error: unknown;
  onChange: Change;
  /**
   * Members search the answers by learner name or e-mail; a shared view has
   * no search (it would let a visitor test whether an e-mail is among them).
   */
  canSearch: boolean;
};

/** Totals of the date range, then every answer: search, correctness filter, sort, pages. */
export function QuestionReportView({
  params,
  data,
  isPending,
  isFetching,
  error,
  onChange,
  canSearch,
}: QuestionReportViewProps) {
  const id = useId();
  const columns: DataTableColumn<QuestionResponseRow, QuestionReportSortKey>[] = [
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
        </div>
      ),
    },
    {
      id: 'answer',
      header: 'Answer',
      sortKey: 'answer',
      cell: (row) => <span className="break-words text-fg">{row.answer ?? '—'}</span>,
    },
    {
      id: 'correct',
      header: 'Result',
      sortKey: 'correct',
      cell: (row) => <Correctness correct={row.correct} />,
    },
    {
      id: 'points',
      header: 'Points',
      sortKey: 'points',
      align: 'right',
      className: 'hidden sm:table-cell',
      cell: (row) => formatDecimal(row.points),
    },
    {
      id: 'answeredAt',
      header: 'Answered',
      sortKey: 'answeredAt',
      className: 'hidden md:table-cell',
      cell: (row) => (
        <time dateTime={row.answeredAt} className="whitespace-nowrap">
          {formatDateTime(row.answeredAt)}
        </time>
      ),
    },
  ];
  const filtered = Boolean(params.q || params.correct || params.from || params.to);

  return (
    <div className="flex flex-col gap-4">
      {data ? (
        <StatGrid
          label="Totals"
          stats={[
            { label: 'Answers', value: formatNumber(data.totals.responses) },
            { label: 'Learners', value: formatNumber(data.totals.learners) },
            { label: 'Correct', value: formatNumber(data.totals.correct) },
            {
              label: 'Correct rate',
              value: formatPercent(data.totals.correctRate),
              hint: 'Correct answers out of graded ones',
            },
            { label: 'Points', value: formatDecimal(data.totals.points) },
          ]}
        />
      ) : null}
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center">
        {canSearch ? (
          <SearchField
            label="Search learners"
            placeholder="Search by learner name or e-mail"
            value={params.q}
            onChange={(q) => onChange({ q })}
            className="sm:max-w-sm"
          />
        ) : null}
        <label htmlFor={`${id}-correct`} className="sr-only">
          Result
        </label>
        <select
          id={`${id}-correct`}
          value={params.correct ?? ''}
          onChange={(event) => onChange({ correct: event.target.value })}
          className={cn(inputClassName, 'sm:w-44')}
        >
          <option value="">Every result</option>
          <option value="true">Correct only</option>
          <option value="false">Incorrect only</option>
          <option value="ungraded">Ungraded only</option>
        </select>
      </div>
      <DataTable
        caption="Answers"
        columns={columns}
        rows={data?.items}
        rowKey={(row) => row.id}
        isLoading={isPending}
        isFetching={isFetching}
        error={errorText(error, 'answers')}
        sort={{ sort: params.sort, order: params.order }}
        onSortChange={(sort) => onChange(sort)}
        empty={
          <EmptyState
            icon={<MessageSquare aria-hidden="true" />}
            title={filtered ? 'No answers match' : 'No answers yet'}
          >
            {filtered
              ? 'Try another search or filter.'
              : 'Answers appear here when learners answer this question.'}
          </EmptyState>
        }
      />
      {data && data.total > 0 ? (
        <Pagination
          page={data.page}
          pageSize={QUESTION_REPORT_PAGE_SIZE}
          total={data.total}
          onPageChange={(page) => onChange({ page })}
          noun="answers"
        />
      ) : null}
    </div>
  );
}

export function QuestionChartView({
  data,
  isPending,
  error,
}: {
  data: QuestionChartResponse | undefined;
  isPending: boolean;
  error: unknown;
}) {
  if (isPending) {
    return (
      <div className="flex justify-center py-16">
        <Spinner label="Loading the chart" />
      </div>
    );
  }
  if (error || !data) {
    return (
      <p role="alert" className="rounded-2xl border border-line bg-surface p-6 text-sm text-fg-muted">
        {errorText(error, 'chart') ?? 'The chart could not be loaded. Please try again.'}
      </p>
    );
  }
  const correct = data.choices.find((choice) => choice.isCorrect)?.label ?? null;
  return (
    <div className="grid gap-4 lg:grid-cols-2">
      <CategoryBarChart
        title="Answers by choice"
        description={
          correct ? `The correct answer (${correct}) is highlighted.` : 'How often each answer was given.'
        }
        data={data.choices.map((choice) => ({ label: choice.label, value: choice.count }))}
        valueLabel="Answers"
        categoryLabel="Answer"
        highlight={correct}
        highlightLabel="correct answer"
        orientation="horizontal"
        isAdditive
        emptyText="No answers yet."
      />
      <TrendLineChart
        title={data.trend.interval === 'week' ? 'Correct rate per week' : 'Correct rate per day'}
        description="Correct answers out of graded ones, in percent."
        data={data.trend.points.map((point) => ({
          date: point.date,
          rate: point.correctRate === null ? null : Math.round(point.correctRate * 1000) / 10,
          responses: point.responses,
          isPartial: point.isPartial ?? isCurrentPeriod(point.date, data.trend.interval),
        }))}
        series={[
          {
            key: 'rate',
            label: 'Correct rate',
            unit: '%',
            format: (value) => `${formatDecimal(value)}%`,
            domain: [0, 100],
          },
          { key: 'responses', label: 'Answers', axis: 'right' },
        ]}
        dateLabel={data.trend.interval === 'week' ? 'Week of' : 'Day'}
        xLabel={data.trend.interval === 'week' ? 'Week (from Monday, UTC)' : 'Day (UTC)'}
        partialLabel={partialPeriodLabel(data.trend.interval)}
        emptyText="No answers yet."
      />
    </div>
  );
}

type LeaderRow = QuestionLeadersResponse['items'][number];

export function QuestionLeadersView({
  data,
  isPending,
  isFetching,
  error,
  limit,
  limits,
  onChange,
}: {
  data: QuestionLeadersResponse | undefined;
  isPending: boolean;
  isFetching: boolean;
  error: unknown;
  limit: number;
  limits: readonly number[];
  onChange: Change;
}) {
  const id = useId();
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
      id: 'points',
      header: 'Points',
      align: 'right',
      cell: (row) => <span className="font-medium tabular-nums">{formatDecimal(row.points)}</span>,
    },
    {
      id: 'correct',
      header: 'Correct',
      align: 'right',
      className: 'hidden sm:table-cell',
      cell: (row) => `${row.correct} of ${row.responses}`,
    },
  ];
  return (
    <div className="flex flex-col gap-4">
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
      <DataTable
        caption="Leaders by points"
        columns={columns}
        rows={data?.items}
        rowKey={(row) => row.learnerId}
        isLoading={isPending}
        isFetching={isFetching}
        error={errorText(error, 'leaders')}
        empty={
          <EmptyState icon={<Trophy aria-hidden="true" />} title="No leaders yet">
            Learners appear here once they answer this question.
          </EmptyState>
        }
      />
    </div>
  );
}
