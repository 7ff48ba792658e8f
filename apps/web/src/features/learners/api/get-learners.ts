import type { LearnerSortKey, ListLearnersResponse } from '@courselens/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { learnersRootKey, toListQuery, type ListRequest } from './list-params';

export type LearnersRequest = ListRequest<LearnerSortKey>;

/** `GET /api/learners`: a page of the current organization's learners. */
export function getLearners(params: LearnersRequest, { signal }: { signal?: AbortSignal } = {}) {
  return api.get<ListLearnersResponse>('/learners', { query: toListQuery(params), signal });
}

export function learnersQueryOptions(organizationId: string | null | undefined, params: LearnersRequest) {
  return queryOptions({
    queryKey: [...learnersRootKey(organizationId), 'list', params] as const,
    queryFn: ({ signal }) => getLearners(params, { signal }),
    enabled: Boolean(organizationId),
    // The old page stays on screen (dimmed) while the next one loads.
    placeholderData: keepPreviousData,
  });
}

export function useLearners(organizationId: string | null | undefined, params: LearnersRequest) {
  return useQuery(learnersQueryOptions(organizationId, params));
}
