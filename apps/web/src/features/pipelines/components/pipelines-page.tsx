import {
  PIPELINE_NODE_LABELS,
  PIPELINE_SORT_KEYS,
  PIPELINE_STATUSES,
  type PipelineRunStatus,
  type PipelineSummary,
} from '@courselens/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { Plus, Sparkles, Workflow, Zap } from 'lucide-react';
import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';

import { FilterBar } from '@/components/filter-bar';
import { PageHeader } from '@/components/page-header';
import { SortSelect } from '@/components/sort-select';
import { Button, buttonClassName } from '@/components/ui/button';
import { DataTable, type DataTableColumn } from '@/components/ui/data-table';
import { EmptyState } from '@/components/ui/empty-state';
import { Pagination } from '@/components/ui/pagination';
import { SearchField } from '@/components/ui/search-field';
import { Switch } from '@/components/ui/switch';
import { inputClassName } from '@/components/ui/text-field';
import { paths } from '@/config/paths';
import { isApiError } from '@/lib/api-client';
import { useSession } from '@/lib/auth';
import { cn } from '@/lib/cn';
import { formatDateTime, formatNumber, formatRelative } from '@/lib/format';
import { toast } from '@/lib/toast';
import { useListParams } from '@/lib/use-list-params';

import {
  pipelinesRootKey,
  PIPELINES_PAGE_SIZE,
  usePipelines,
  type PipelineSortKey,
} from '../api/get-pipelines';
import { useUpdatePipeline } from '../api/update-pipeline';

import { NewPipelineDialog } from './new-pipeline-dialog';
import type { EditorLocationState } from './pipeline-editor-page';
import { PIPELINE_LIST_DEFAULTS, readPipelineStatus } from './pipeline-list-params';
import { PIPELINE_STATUS_LOOKS, PipelineStatusBadge, RUN_STATUS_LOOKS, RunStatusBadge } from './status';

function triggerText(pipeline: PipelineSummary): string {
  if (pipeline.sources.length === 0) return 'No source yet';
  return [...new Set(pipeline.sources)].map((source) => PIPELINE_NODE_LABELS[source]).join(', ');
}

function isRunStatus(value: string | null): value is PipelineRunStatus {
  return value !== null && value in RUN_STATUS_LOOKS;
}

/** `/pipelines`: the organization's pipelines, their state, last run and runs of the last 30 days. */
export function PipelinesPage() {
  const organizationId = useSession().currentOrganization?.id;
  const [params, setParams] = useListParams(PIPELINE_SORT_KEYS, PIPELINE_LIST_DEFAULTS);
  const [searchParams, setSearchParams] = useSearchParams();
  const status = readPipelineStatus(searchParams);
  const pipelines = usePipelines(organizationId, { ...params, status });
  const update = useUpdatePipeline(organizationId);
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [isCreating, setIsCreating] = useState(false);
  const [switching, setSwitching] = useState<string | null>(null);

  function handleStatusChange(value: string) {
    setSearchParams(
      (previous) => {
        const next = new URLSearchParams(previous);
        if (value) next.set('status', value);
        else next.delete('status');
        next.delete('page');
        return next;
      },
      { replace: true },
    );
  }

  async function handleActiveChange(pipeline: PipelineSummary, active: boolean) {
    setSwitching(pipeline.id);
    try {
      await update.mutateAsync({ pipelineId: pipeline.id, input: { active } });
      toast.success(active ? `“${pipeline.name}” is on` : `“${pipeline.name}” is off`);
    } catch (error) {
      toast.error(isApiError(error) ? error.message : 'The pipeline could not be changed. Please try again.');
      if (active) {
        // Refused because of its problems: the editor shows them.
        await queryClient.invalidateQueries({ queryKey: pipelinesRootKey(organizationId) });
        const state: EditorLocationState = { showProblems: true };
        void navigate(paths.pipelines.editor.href(pipeline.id), { state });
      }
    } finally {
      setSwitching(null);
    }
  }

  const columns: DataTableColumn<PipelineSummary, PipelineSortKey>[] = [
    {
      id: 'name',
      header: 'Name',
      sortKey: 'name',
      isRowHeader: true,
      cell: (pipeline) => (
        <div className="flex min-w-0 flex-col gap-1">
          <Link
            to={paths.pipelines.editor.href(pipeline.id)}
            className="self-start rounded font-medium break-words hover:underline focus-visible:outline-2 focus-visible:outline-focus"
          >
            {pipeline.name}
          </Link>
          {pipeline.description ? (
            <span className="line-clamp-2 text-xs font-normal break-words text-fg-muted">
              {pipeline.description}
            </span>
          ) : null}
          {/* Phones have no hover and hide the status and trigger columns: they show here, with the reason. */}
          <span className="flex flex-col gap-1 font-normal md:hidden">
            <span>
              <PipelineStatusBadge status={pipeline.status} />
            </span>
            {pipeline.status === 'failing' || pipeline.status === 'invalid' ? (
              <span className="text-xs text-fg-muted">{PIPELINE_STATUS_LOOKS[pipeline.status].reason}</span>
            ) : null}
            <span className="text-xs text-fg-subtle">
              {triggerText(pipeline)} ·{' '}
              {pipeline.lastRunAt ? `last run ${formatRelative(pipeline.lastRunAt)}` : 'never run'}
              {pipeline.runs.failed > 0 ? ` · ${formatNumber(pipeline.runs.failed)} failed in 30 days` : ''}
            </span>
          </span>
        </div>
      ),
    },
    {
      id: 'status',
      header: 'Status',
      className: 'hidden md:table-cell whitespace-nowrap',
      cell: (pipeline) => (
        <span className="inline-flex">
          <PipelineStatusBadge status={pipeline.status} />
          <span className="sr-only">{`: ${PIPELINE_STATUS_LOOKS[pipeline.status].reason}`}</span>
        </span>
      ),
    },
    {
      id: 'trigger',
      header: 'Trigger',
      className: 'hidden md:table-cell max-w-56',
      cell: (pipeline) => <span className="text-sm text-fg-muted">{triggerText(pipeline)}</span>,
    },
    {
      id: 'lastRun',
      header: 'Last run',
      sortKey: 'lastRunAt',
      className: 'hidden sm:table-cell whitespace-nowrap',
      cell: (pipeline) =>
        pipeline.lastRunAt ? (
          <span className="flex flex-col items-start gap-1">
            <time dateTime={pipeline.lastRunAt} title={formatDateTime(pipeline.lastRunAt)}>
              {formatRelative(pipeline.lastRunAt)}
            </time>
            {isRunStatus(pipeline.lastRunStatus) ? <RunStatusBadge status={pipeline.lastRunStatus} /> : null}
          </span>
        ) : (
          <span className="text-fg-subtle">Never</span>
        ),
    },
    {
      id: 'runs',
      header: 'Runs (30 days)',
      className: 'hidden lg:table-cell whitespace-nowrap',
      cell: (pipeline) =>
        pipeline.runs.total === 0 ? (
          <span className="text-fg-subtle">None</span>
        ) : (
          <span className="flex flex-col text-sm">
            <span className="text-emerald-700 dark:text-emerald-300">
              {formatNumber(pipeline.runs.succeeded)} succeeded
            </span>
            <span
              className={pipeline.runs.failed > 0 ? 'text-rose-700 dark:text-rose-300' : 'text-fg-subtle'}
            >
              {formatNumber(pipeline.runs.failed)} failed
            </span>
          </span>
        ),
    },
    {
      id: 'updated',
      header: 'Updated',
      sortKey: 'updatedAt',
      className: 'hidden xl:table-cell whitespace-nowrap',
      cell: (pipeline) => (
        <time dateTime={pipeline.updatedAt} title={formatDateTime(pipeline.updatedAt)}>
          {formatRelative(pipeline.updatedAt)}
        </time>
      ),
    },
    {
      id: 'active',
      header: 'Active',
      align: 'right',
      cell: (pipeline) => (
        <Switch
          label={`Active: ${pipeline.name}`}
          checked={pipeline.active}
          disabled={switching === pipeline.id}
          onChange={(active) => void handleActiveChange(pipeline, active)}
        />
      ),
    },
  ];

  const data = pipelines.data;
  const isFiltered = params.q !== '' || status !== null;
  const newPipeline = (
    <Button onClick={() => setIsCreating(true)}>
      <Plus aria-hidden="true" />
      New pipeline
    </Button>
  );
  const describeIt = (
    <Link to={paths.pipelines.aiGenerator.href()} className={buttonClassName({ variant: 'outline' })}>
      <Sparkles aria-hidden="true" />
      Describe it in words
    </Link>
  );

  return (
    <div className="mx-auto flex w-full max-w-6xl min-w-0 flex-col gap-6 px-4 py-8 sm:px-6 lg:px-8">
      <title>Pipelines · CourseLens</title>
      <PageHeader
        title="Pipelines"
        description="Act on what learners do: when something happens in a course, check it, wait, and run your actions."
        actions={
          <>
            <Link to={paths.actions.list.href()} className={buttonClassName({ variant: 'ghost' })}>
              <Zap aria-hidden="true" />
              Manage actions
            </Link>
            {describeIt}
            {newPipeline}
          </>
        }
      />
      <FilterBar
        activeCount={status === null ? 0 : 1}
        search={
          <SearchField
            label="Search pipelines"
            placeholder="Search by name"
            value={params.q}
            onChange={(q) => setParams({ q })}
          />
        }
      >
        <label className="flex items-center gap-2 text-sm whitespace-nowrap text-fg-muted">
          Status
          <select
            value={status ?? ''}
            onChange={(event) => handleStatusChange(event.target.value)}
            className={cn(inputClassName, 'min-w-0 flex-1 md:w-44')}
          >
            <option value="">Every status</option>
            {PIPELINE_STATUSES.map((option) => (
              <option key={option} value={option}>
                {PIPELINE_STATUS_LOOKS[option].label}
              </option>
            ))}
          </select>
        </label>
        <SortSelect
          columns={[...columns, { id: 'created', header: 'Created', sortKey: 'createdAt', cell: () => null }]}
          sort={params.sort}
          order={params.order}
          onChange={(sort) => setParams(sort)}
          className="md:hidden"
        />
      </FilterBar>
      <DataTable
        caption="Pipelines"
        columns={columns}
        rows={data?.items}
        rowKey={(pipeline) => pipeline.id}
        isLoading={pipelines.isPending}
        isFetching={pipelines.isFetching && pipelines.isPlaceholderData}
        error={pipelines.isError && !data ? pipelines.error.message : null}
        sort={{ sort: params.sort, order: params.order }}
        onSortChange={(sort) => setParams(sort)}
        empty={
          isFiltered ? (
            <EmptyState icon={<Workflow />} title="No pipeline matches">
              Try another name or status.
            </EmptyState>
          ) : (
            <EmptyState
              icon={<Workflow />}
              title="No pipelines yet"
              action={
                <div className="flex flex-wrap justify-center gap-2">
                  {newPipeline}
                  {describeIt}
                </div>
              }
            >
              A pipeline acts when learners do something: post to a webhook when a course is completed, alert
              a manager when a learner fails twice, or report the final score of five courses as one variable.
            </EmptyState>
          )
        }
      />
      {data && data.total > 0 ? (
        <Pagination
          page={params.page}
          pageSize={data.pageSize || PIPELINES_PAGE_SIZE}
          total={data.total}
          onPageChange={(page) => setParams({ page })}
          noun="pipelines"
        />
      ) : null}
      <NewPipelineDialog
        open={isCreating}
        onClose={() => setIsCreating(false)}
        organizationId={organizationId}
      />
    </div>
  );
}
