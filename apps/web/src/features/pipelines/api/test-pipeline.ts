import type {
  DryRunResponse,
  PipelineEdgeInput,
  PipelineNodeInput,
  TestRunResponse,
  testEventSchema,
} from '@courselens/contracts';
import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';

import { api } from '@/lib/api-client';
import type { OrganizationIdInput } from '@/lib/query-keys';

import { pipelineKey } from './get-pipeline';

export type TestEvent = z.infer<typeof testEventSchema>;

type Graph = { nodes: PipelineNodeInput[]; edges: PipelineEdgeInput[] };

const base = (pipelineId: string) => `/pipelines/${encodeURIComponent(pipelineId)}`;

/** `GET /api/pipelines/:pipelineId/test-events`: recent events of the log its sources react to. */
export function getTestEvents(pipelineId: string, { signal }: { signal?: AbortSignal } = {}) {
  return api.get<{ items: TestEvent[] }>(`${base(pipelineId)}/test-events`, { signal });
}

export function testEventsQueryOptions(organizationId: OrganizationIdInput, pipelineId: string) {
  return queryOptions({
    queryKey: [...pipelineKey(organizationId, pipelineId), 'test-events'] as const,
    queryFn: ({ signal }) => getTestEvents(pipelineId, { signal }),
    enabled: Boolean(organizationId) && pipelineId !== '',
    // Fresh each time the dialog opens: a test wants the latest events.
    staleTime: 0,
  });
}

export function useTestEvents(organizationId: OrganizationIdInput, pipelineId: string, enabled: boolean) {
  return useQuery({
    ...testEventsQueryOptions(organizationId, pipelineId),
    enabled: enabled && Boolean(organizationId),
  });
}

export type TestRunVariables = Graph & { eventId: string; execute: boolean };

/** `POST /api/pipelines/:pipelineId/test`: the graph on the editor run on one real event (dry unless `execute`). */
export function testPipeline(pipelineId: string, input: TestRunVariables) {
  return api.post<TestRunResponse>(`${base(pipelineId)}/test`, input);
}

export function useTestPipeline(pipelineId: string) {
  return useMutation({ mutationFn: (input: TestRunVariables) => testPipeline(pipelineId, input) });
}

export type DryRunVariables = Graph & { from: string; to: string; page?: number; pageSize?: number };

/** `POST /api/pipelines/:pipelineId/dry-run`: what the graph would have done over a past period, with no side effect. */
export function dryRunPipeline(pipelineId: string, input: DryRunVariables) {
  return api.post<DryRunResponse>(`${base(pipelineId)}/dry-run`, input);
}

export function useDryRunPipeline(pipelineId: string) {
  return useMutation({ mutationFn: (input: DryRunVariables) => dryRunPipeline(pipelineId, input) });
}
