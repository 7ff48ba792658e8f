import type { LearnerProfile } from '@courselens/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { learnersRootKey } from './list-params';

/** `GET /api/learners/:learnerId`: the learner with their totals. */
export function getLearner(learnerId: string, { signal }: { signal?: AbortSignal } = {}) {
  return api.get<LearnerProfile>(`/learners/${encodeURIComponent(learnerId)}`, { signal });
}

export function learnerQueryOptions(organizationId: string | null | undefined, learnerId: string) {
  return queryOptions({
    queryKey: [...learnersRootKey(organizationId), 'detail', learnerId] as const,
    queryFn: ({ signal }) => getLearner(learnerId, { signal }),
    enabled: Boolean(organizationId),
  });
}

export function useLearner(organizationId: string | null | undefined, learnerId: string) {
  return useQuery(learnerQueryOptions(organizationId, learnerId));
}
