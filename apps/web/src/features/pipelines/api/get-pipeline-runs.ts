import type {
  Paginated,
  PipelineRunDetail,
  PipelineRunStatus,
  PipelineRunSummary,
  PipelineTriggerKind,
} from '@courselens/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { OrganizationIdInput } from '@/lib/query-keys';

import { pipelineKey } from './get-pipeline';

export const RUNS_PAGE_SIZE = 20;

export type PipelineRunListParams = {
  page: number;
  status: PipelineRunStatus | null;
  trigger: PipelineTriggerKind | null;
  from: string | null;
  to: string | null;
};

/** Runs still under way: the list and a run's page refresh themselves while one shows. */
export const LIVE_RUN_STATUSES: readonly PipelineRunStatus[] = ['queued', 'running', 'waiting'];
const LIVE_REFRESH_MS = 2_000;

const runsPath = (pipelineId: string) => `/pipelines/${encodeURIComponent(pipelineId)}/runs`;

export function pipelineRunsKey(organizationId: OrganizationIdInput, pipelineId: string) {
  return [...pipelineKey(organizationId, pipelineId), 'runs'] as const;
}

/** `GET /api/pipelines/:pipelineId/runs`: one page of runs, newest first. */
export function getPipelineRuns(
  pipelineId: string,
  params: PipelineRunListParams,
  { signal }: { signal?: AbortSignal } = {},
): Promise<Paginated<PipelineRunSummary>> {
  return api.get<Paginated<PipelineRunSummary>>(runsPath(pipelineId), {
    query: {
      page: params.page,
      pageSize: RUNS_PAGE_SIZE,
      status: params.status,
      trigger: params.trigger,
      from: params.from,
      to: params.to,
    },
    signal,
  });
}

export function pipelineRunsQueryOptions(
  organizationId: OrganizationIdInput,
  pipelineId: string,
  params: PipelineRunListParams,
) {
  return queryOptions({
    queryKey: [...pipelineRunsKey(organizationId, pipelineId), 'list', params] as const,
    queryFn: ({ signal }) => getPipelineRuns(pipelineId, params, { signal }),
    enabled: Boolean(organizationId) && pipelineId !== '',
    placeholderData: keepPreviousData,
    refetchInterval: (query) =>
      query.state.data?.items.some((run) => LIVE_RUN_STATUSES.includes(run.status)) ? LIVE_REFRESH_MS : false,
  });
}

/** While a pipeline is on, new runs may come at any time: the open list looks for them this often. */
const WATCH_REFRESH_MS = 5_000;

export function usePipelineRuns(
  organizationId: OrganizationIdInput,
  pipelineId: string,
  params: PipelineRunListParams,
  { isWatching = false }: { isWatching?: boolean } = {},
) {
  const options = pipelineRunsQueryOptions(organizationId, pipelineId, params);
  return useQuery({
    ...options,
    refetchInterval: (query) => {
      const live = query.state.data?.items.some((run) => LIVE_RUN_STATUSES.includes(run.status));
      return live ? LIVE_REFRESH_MS : isWatching ? WATCH_REFRESH_MS : false;
    },
  });
}

/** `GET /api/pipelines/:pipelineId/runs/:runId`: a run with each step's input, output and status. */
export function getPipelineRun(pipelineId: string, runId: string, { signal }: { signal?: AbortSignal } = {}) {
  return api.get<PipelineRunDetail>(`${runsPath(pipelineId)}/${encodeURIComponent(runId)}`, { signal });
}

export function pipelineRunQueryOptions(
  organizationId: OrganizationIdInput,
  pipelineId: string,
  runId: string,
) {
  return queryOptions({
    queryKey: [...pipelineRunsKey(organizationId, pipelineId), 'detail', runId] as const,
    queryFn: ({ signal }) => getPipelineRun(pipelineId, runId, { signal }),
    enabled: Boolean(organizationId) && pipelineId !== '' && runId !== '',
    refetchInterval: (query) =>
      query.state.data && LIVE_RUN_STATUSES.includes(query.state.data.status) ? LIVE_REFRESH_MS : false,
  });
}

export function usePipelineRun(
  organizationId: OrganizationIdInput,
  pipelineId: string,
  runId: string | null,
) {
  return useQuery({
    ...pipelineRunQueryOptions(organizationId, pipelineId, runId ?? ''),
    enabled: Boolean(organizationId) && runId !== null,
  });
}
