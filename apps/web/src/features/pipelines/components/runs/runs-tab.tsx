import {
  PIPELINE_RUN_RETENTION_DAYS,
  PIPELINE_RUN_STATUSES,
  PIPELINE_TRIGGER_KINDS,
  type PipelineRunSummary,
} from '@courselens/contracts';
import { History, Play } from 'lucide-react';
import { useState } from 'react';
import { useSearchParams } from 'react-router';

import { FilterBar } from '@/components/filter-bar';
import { Button } from '@/components/ui/button';
import { DataTable, type DataTableColumn } from '@/components/ui/data-table';
import { EmptyState } from '@/components/ui/empty-state';
import { Pagination } from '@/components/ui/pagination';
import { inputClassName } from '@/components/ui/text-field';
import { isApiError } from '@/lib/api-client';
import { cn } from '@/lib/cn';
import { formatDateTime, formatRelative } from '@/lib/format';
import { toast } from '@/lib/toast';

import { RUNS_PAGE_SIZE, usePipelineRuns } from '../../api/get-pipeline-runs';
import { useRunPipeline } from '../../api/run-pipeline';
import { useUpdatePipeline } from '../../api/update-pipeline';
import { RUN_STATUS_LOOKS, RunStatusBadge, TRIGGER_LABELS, formatDuration } from '../status';

import { readRunListParams } from './run-list-params';
import { RunDetailSheet } from './run-detail-sheet';

export type RunsTabProps = {
  organizationId: string | undefined;
  pipelineId: string;
  /** The saved graph has a "Run by hand" source and the pipeline is on. */
  canRunByHand: boolean;
  /** The pipeline is on: new runs may appear at any time. */
  isActive: boolean;
  /** Days finished runs are kept before the daily prune deletes them. */
  runRetentionDays: number;
};

/** The Runs tab: every run of the pipeline, filterable, newest first; a run opens beside the list. */
export function RunsTab({
  organizationId,
  pipelineId,
  canRunByHand,
  isActive,
  runRetentionDays,
}: RunsTabProps) {
  const [searchParams, setSearchParams] = useSearchParams();
  const params = readRunListParams(searchParams);
  const runs = usePipelineRuns(organizationId, pipelineId, params, { isWatching: isActive });
  const runPipeline = useRunPipeline(organizationId, pipelineId);
  const updatePipeline = useUpdatePipeline(organizationId);
  const openRunId = searchParams.get('run');
  const [learnerEmail, setLearnerEmail] = useState('');

  function setParam(changes: Record<string, string | null>) {
    setSearchParams(
      (previous) => {
        const next = new URLSearchParams(previous);
        for (const [key, value] of Object.entries(changes)) {
          if (value) next.set(key, value);
          else next.delete(key);
        }
        if (!('page' in changes)) next.delete('page');
        if (next.get('page') === '1') next.delete('page');
        return next;
      },
      { replace: true },
    );
  }

  function openRun(runId: string | null) {
    setSearchParams(
      (previous) => {
        const next = new URLSearchParams(previous);
        if (runId) next.set('run', runId);
        else next.delete('run');
        return next;
      },
      { replace: false },
    );
  }

  async function handleRunNow() {
    try {
      await runPipeline.mutateAsync(learnerEmail.trim() || undefined);
      toast.success('Run started');
    } catch (error) {
      toast.error(isApiError(error) ? error.message : 'The pipeline could not be run. Please try again.');
    }
  }

  async function handleRetentionChange(days: number) {
    try {
      await updatePipeline.mutateAsync({ pipelineId, input: { runRetentionDays: days } });
      toast.success(`Runs are now kept ${days} days`);
    } catch (error) {
      toast.error(
        isApiError(error) ? error.message : 'The retention could not be changed. Please try again.',
      );
    }
  }

  const columns: DataTableColumn<PipelineRunSummary>[] = [
    {
      id: 'started',
      header: 'Started',
      isRowHeader: true,
      cell: (run) => (
        <button
          type="button"
          onClick={() => openRun(run.id)}
          className="flex flex-col items-start rounded text-left hover:underline focus-visible:outline-2 focus-visible:outline-focus"
          aria-label={`Open the run started ${formatDateTime(run.startedAt)}: ${RUN_STATUS_LOOKS[run.status]?.label ?? run.status}`}
        >
          <time dateTime={run.startedAt} className="font-medium whitespace-nowrap text-fg">
            {formatRelative(run.startedAt)}
          </time>
          <span className="text-xs font-normal whitespace-nowrap text-fg-subtle">
            {formatDateTime(run.startedAt)}
          </span>
          {/* Phones hide the status and event columns: they move here. */}
          <span className="mt-1 sm:hidden">
            <RunStatusBadge status={run.status} />
          </span>
          <span className="mt-1 text-xs font-normal [overflow-wrap:anywhere] text-fg-muted md:hidden">
            {[run.eventType, run.learnerEmail].filter(Boolean).join(' · ')}
          </span>
        </button>
      ),
    },
    {
      id: 'status',
      header: 'Status',
      className: 'hidden sm:table-cell',
      cell: (run) => <RunStatusBadge status={run.status} />,
    },
    {
      id: 'trigger',
      header: 'Trigger',
      className: 'hidden sm:table-cell whitespace-nowrap',
      cell: (run) => TRIGGER_LABELS[run.trigger],
    },
    {
      id: 'event',
      header: 'Event',
      className: 'hidden md:table-cell max-w-72',
      cell: (run) => (
        <span className="flex min-w-0 flex-col">
          <span className="truncate text-fg">{run.eventType ?? '—'}</span>
          {run.learnerEmail ? (
            <span className="truncate text-xs text-fg-subtle">{run.learnerEmail}</span>
          ) : null}
          {run.error ? (
            <span className="truncate text-xs text-rose-700 dark:text-rose-300" title={run.error}>
              {run.error}
            </span>
          ) : null}
        </span>
      ),
    },
    {
      id: 'duration',
      header: 'Duration',
      align: 'right',
      className: 'hidden sm:table-cell whitespace-nowrap',
      cell: (run) => formatDuration(run.durationMs),
    },
    {
      id: 'version',
      header: 'Version',
      align: 'right',
      className: 'hidden lg:table-cell',
      cell: (run) => run.version,
    },
  ];

  const data = runs.data;
  const activeFilters = [params.status, params.trigger, params.from, params.to].filter(Boolean).length;

  return (
    <div className="flex flex-col gap-4">
      {canRunByHand ? (
        <form
          className="flex flex-col gap-2 rounded-2xl border border-line bg-surface p-4 sm:flex-row sm:items-end"
          onSubmit={(event) => {
            event.preventDefault();
            void handleRunNow();
          }}
        >
          <label className="flex min-w-0 flex-1 flex-col gap-1.5 text-sm font-medium text-fg">
            <span>
              Learner <span className="text-xs font-normal text-fg-subtle">Optional</span>
            </span>
            <input
              type="email"
              value={learnerEmail}
              onChange={(event) => setLearnerEmail(event.target.value)}
              placeholder="Learner’s e-mail address"
              className={inputClassName}
            />
          </label>
          <Button type="submit" isLoading={runPipeline.isPending}>
            <Play aria-hidden="true" />
            Run now
          </Button>
        </form>
      ) : null}
      <FilterBar activeCount={activeFilters}>
        <label className="flex items-center gap-2 text-sm whitespace-nowrap text-fg-muted">
          Status
          <select
            value={params.status ?? ''}
            onChange={(event) => setParam({ status: event.target.value || null })}
            className={cn(inputClassName, 'min-w-0 flex-1 md:w-36')}
          >
            <option value="">Any status</option>
            {PIPELINE_RUN_STATUSES.map((status) => (
              <option key={status} value={status}>
                {RUN_STATUS_LOOKS[status].label}
              </option>
            ))}
          </select>
        </label>
        <label className="flex items-center gap-2 text-sm whitespace-nowrap text-fg-muted">
          Trigger
          <select
            value={params.trigger ?? ''}
            onChange={(event) => setParam({ trigger: event.target.value || null })}
            className={cn(inputClassName, 'min-w-0 flex-1 md:w-36')}
          >
            <option value="">Any trigger</option>
            {PIPELINE_TRIGGER_KINDS.map((trigger) => (
              <option key={trigger} value={trigger}>
                {TRIGGER_LABELS[trigger]}
              </option>
            ))}
          </select>
        </label>
        <label className="flex items-center gap-2 text-sm whitespace-nowrap text-fg-muted">
          From
          <input
            type="date"
            value={params.from ?? ''}
            max={params.to ?? undefined}
            onChange={(event) => setParam({ from: event.target.value || null })}
            className={cn(inputClassName, 'min-w-0 flex-1 md:w-40')}
          />
        </label>
        <label className="flex items-center gap-2 text-sm whitespace-nowrap text-fg-muted">
          To
          <input
            type="date"
            value={params.to ?? ''}
            min={params.from ?? undefined}
            onChange={(event) => setParam({ to: event.target.value || null })}
            className={cn(inputClassName, 'min-w-0 flex-1 md:w-40')}
          />
        </label>
        {activeFilters > 0 ? (
          <Button
            variant="ghost"
            size="sm"
            onClick={() => setParam({ status: null, trigger: null, from: null, to: null })}
          >
            Clear filters
          </Button>
        ) : null}
      </FilterBar>
      <p className="flex flex-wrap items-center gap-2 text-sm text-fg-muted">
        <label htmlFor="run-retention">Keep finished runs for</label>
        <select
          id="run-retention"
          value={runRetentionDays}
          disabled={updatePipeline.isPending}
          onChange={(event) => void handleRetentionChange(Number(event.target.value))}
          className={cn(inputClassName, 'w-auto')}
        >
          {PIPELINE_RUN_RETENTION_DAYS.map((days) => (
            <option key={days} value={days}>
              {days} days
            </option>
          ))}
        </select>
        <span className="text-xs text-fg-subtle">Older finished runs are deleted once a day.</span>
      </p>
      <DataTable
        caption="Runs"
        columns={columns}
        rows={data?.items}
        rowKey={(run) => run.id}
        isLoading={runs.isPending}
        isFetching={runs.isFetching && runs.isPlaceholderData}
        error={runs.isError && !data ? runs.error.message : null}
        empty={
          activeFilters > 0 ? (
            <EmptyState icon={<History />} title="No run matches">
              Try another status, trigger or period.
            </EmptyState>
          ) : (
            <EmptyState icon={<History />} title="No run yet">
              Runs appear here as soon as the pipeline is on and one of its sources reacts to an event. A test
              run from the editor shows here too.
            </EmptyState>
          )
        }
      />
      {data && data.total > 0 ? (
        <Pagination
          page={params.page}
          pageSize={data.pageSize || RUNS_PAGE_SIZE}
          total={data.total}
          onPageChange={(page) => setParam({ page: String(page) })}
          noun="runs"
        />
      ) : null}
      <RunDetailSheet
        organizationId={organizationId}
        pipelineId={pipelineId}
        runId={openRunId}
        onClose={() => openRun(null)}
        onOpenRun={(runId) => openRun(runId)}
      />
    </div>
  );
}
