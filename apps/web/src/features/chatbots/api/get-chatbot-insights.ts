import type { ChatbotInsights } from '@courselens/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { OrganizationIdInput } from '@/lib/query-keys';

import { chatbotKey, chatbotPath } from './get-chatbot';

/** `GET /api/chatbots/:chatbotId/insights`: capture per variable and what the knowledge could not answer. */
export function getChatbotInsights(
  chatbotId: string,
  { signal }: { signal?: AbortSignal } = {},
): Promise<ChatbotInsights> {
  return api.get<ChatbotInsights>(`${chatbotPath(chatbotId)}/insights`, { signal });
}

export function chatbotInsightsQueryOptions(organizationId: OrganizationIdInput, chatbotId: string) {
  return queryOptions({
    queryKey: [...chatbotKey(organizationId, chatbotId), 'insights'] as const,
    queryFn: ({ signal }) => getChatbotInsights(chatbotId, { signal }),
    enabled: Boolean(organizationId) && chatbotId !== '',
  });
}

export function useChatbotInsights(organizationId: OrganizationIdInput, chatbotId: string) {
  return useQuery(chatbotInsightsQueryOptions(organizationId, chatbotId));
}
