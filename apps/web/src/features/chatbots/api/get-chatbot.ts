import type { Chatbot } from '@courselens/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { OrganizationIdInput } from '@/lib/query-keys';

import { chatbotsRootKey } from './get-chatbots';

export const chatbotPath = (chatbotId: string) => `/chatbots/${encodeURIComponent(chatbotId)}`;

/** The key of one agent and of everything about it (its conversations, insights). */
export function chatbotKey(organizationId: OrganizationIdInput, chatbotId: string) {
  return [...chatbotsRootKey(organizationId), 'detail', chatbotId] as const;
}

/** `GET /api/chatbots/:chatbotId`: an agent with its variables and documents. */
export function getChatbot(chatbotId: string, { signal }: { signal?: AbortSignal } = {}): Promise<Chatbot> {
  return api.get<Chatbot>(chatbotPath(chatbotId), { signal });
}

export function chatbotQueryOptions(organizationId: OrganizationIdInput, chatbotId: string) {
  return queryOptions({
    queryKey: chatbotKey(organizationId, chatbotId),
    queryFn: ({ signal }) => getChatbot(chatbotId, { signal }),
    enabled: Boolean(organizationId) && chatbotId !== '',
  });
}

export function useChatbot(organizationId: OrganizationIdInput, chatbotId: string) {
  return useQuery(chatbotQueryOptions(organizationId, chatbotId));
}
