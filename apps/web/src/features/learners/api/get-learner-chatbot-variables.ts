import type { LearnerChatbotVariablesResponse } from '@courselens/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { learnersRootKey } from './list-params';

/** `GET /api/learners/:learnerId/chatbot-variables`: the latest value each agent captured for the learner. */
export function getLearnerChatbotVariables(learnerId: string, { signal }: { signal?: AbortSignal } = {}) {
  return api.get<LearnerChatbotVariablesResponse>(
    `/learners/${encodeURIComponent(learnerId)}/chatbot-variables`,
    { signal },
  );
}

export function learnerChatbotVariablesQueryOptions(
  organizationId: string | null | undefined,
  learnerId: string,
) {
  return queryOptions({
    queryKey: [...learnersRootKey(organizationId), 'chatbot-variables', learnerId] as const,
    queryFn: ({ signal }) => getLearnerChatbotVariables(learnerId, { signal }),
    enabled: Boolean(organizationId) && learnerId !== '',
  });
}

export function useLearnerChatbotVariables(organizationId: string | null | undefined, learnerId: string) {
  return useQuery(learnerChatbotVariablesQueryOptions(organizationId, learnerId));
}
