import type { LearnerResponseSortKey, ListLearnerResponsesResponse } from '@courselens/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { learnersRootKey, toListQuery, type ListRequest } from './list-params';

export type LearnerResponsesRequest = ListRequest<LearnerResponseSortKey>;

/** `GET /api/learners/:learnerId/responses`: a page of the learner's answers. */
export function getLearnerResponses(
  learnerId: string,
  params: LearnerResponsesRequest,
  { signal }: { signal?: AbortSignal } = {},
) {
  return api.get<ListLearnerResponsesResponse>(`/learners/${encodeURIComponent(learnerId)}/responses`, {
    query: toListQuery(params),
    signal,
  });
}

export function learnerResponsesQueryOptions(
  organizationId: string | null | undefined,
  learnerId: string,
  params: LearnerResponsesRequest,
) {
  return queryOptions({
    queryKey: [...learnersRootKey(organizationId), 'responses', learnerId, params] as const,
    queryFn: ({ signal }) => getLearnerResponses(learnerId, params, { signal }),
    enabled: Boolean(organizationId),
    placeholderData: keepPreviousData,
  });
}

export function useLearnerResponses(
  organizationId: string | null | undefined,
  learnerId: string,
  params: LearnerResponsesRequest,
) {
  return useQuery(learnerResponsesQueryOptions(organizationId, learnerId, params));
}
