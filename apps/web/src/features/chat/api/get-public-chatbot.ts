import type { PublicChatbot } from '@courselens/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';

import { isApiError } from '@/lib/api-client';
import { sharedViewKey } from '@/lib/query-keys';

import { publicJson } from './public-request';

/** Every query of the public chat page: it belongs to no organization. */
export const chatRootKey = sharedViewKey('chat');

const agentPath = (chatbotId: string) => `/chat/${encodeURIComponent(chatbotId)}`;

/** `GET /api/chat/:chatbotId`: what the page may show of an agent. */
export function getPublicChatbot(chatbotId: string, signal?: AbortSignal): Promise<PublicChatbot> {
  return publicJson<PublicChatbot>(agentPath(chatbotId), { signal });
}

/** An answer about the request itself (unknown agent, malformed id) will not change by asking again. */
export function isRetryable(failureCount: number, error: unknown): boolean {
  if (isApiError(error) && error.status >= 400 && error.status < 500) return false;
  return failureCount < 2;
}

export function publicChatbotQueryOptions(chatbotId: string) {
  return queryOptions({
    queryKey: [...chatRootKey, 'agent', chatbotId] as const,
    queryFn: ({ signal }) => getPublicChatbot(chatbotId, signal),
    retry: isRetryable,
  });
}

export function usePublicChatbot(chatbotId: string) {
  return useQuery(publicChatbotQueryOptions(chatbotId));
}
