import type {
  CHAT_SESSION_SORT_KEYS,
  ChatSessionDetail,
  ListChatSessionsResponse,
  SortOrder,
} from '@courselens/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { OrganizationIdInput } from '@/lib/query-keys';

import { chatbotKey, chatbotPath } from './get-chatbot';

export const CHAT_SESSIONS_PAGE_SIZE = 20;

export type ChatSessionSortKey = (typeof CHAT_SESSION_SORT_KEYS)[number];

export type ChatSessionListParams = {
  q: string;
  page: number;
  sort: ChatSessionSortKey;
  order: SortOrder;
  /** true: every required variable captured; false: the others; null: all. */
  captured: boolean | null;
};

const sessionsPath = (chatbotId: string) => `${chatbotPath(chatbotId)}/sessions`;

function chatSessionsKey(organizationId: OrganizationIdInput, chatbotId: string) {
  return [...chatbotKey(organizationId, chatbotId), 'sessions'] as const;
}

/** `GET /api/chatbots/:chatbotId/sessions`: one page of an agent's conversations with what they captured. */
export function getChatSessions(
  chatbotId: string,
  params: ChatSessionListParams,
  { signal }: { signal?: AbortSignal } = {},
): Promise<ListChatSessionsResponse> {
  return api.get<ListChatSessionsResponse>(sessionsPath(chatbotId), {
    query: {
      q: params.q || undefined,
      captured: params.captured,
      page: params.page,
      pageSize: CHAT_SESSIONS_PAGE_SIZE,
      sort: params.sort,
      order: params.order,
    },
    signal,
  });
}

export function chatSessionsQueryOptions(
  organizationId: OrganizationIdInput,
  chatbotId: string,
  params: ChatSessionListParams,
) {
  return queryOptions({
    queryKey: [...chatSessionsKey(organizationId, chatbotId), 'list', params] as const,
    queryFn: ({ signal }) => getChatSessions(chatbotId, params, { signal }),
    enabled: Boolean(organizationId) && chatbotId !== '',
    placeholderData: keepPreviousData,
  });
}

export function useChatSessions(
  organizationId: OrganizationIdInput,
  chatbotId: string,
  params: ChatSessionListParams,
) {
  return useQuery(chatSessionsQueryOptions(organizationId, chatbotId, params));
}

/** `GET /api/chatbots/:chatbotId/sessions/:sessionId`: one conversation with its transcript. */
export function getChatSession(
  chatbotId: string,
  sessionId: string,
  { signal }: { signal?: AbortSignal } = {},
): Promise<ChatSessionDetail> {
  return api.get<ChatSessionDetail>(`${sessionsPath(chatbotId)}/${encodeURIComponent(sessionId)}`, {
    signal,
  });
}

export function chatSessionQueryOptions(
  organizationId: OrganizationIdInput,
  chatbotId: string,
  sessionId: string,
) {
  return queryOptions({
    queryKey: [...chatSessionsKey(organizationId, chatbotId), 'detail', sessionId] as const,
    queryFn: ({ signal }) => getChatSession(chatbotId, sessionId, { signal }),
    enabled: Boolean(organizationId) && chatbotId !== '' && sessionId !== '',
  });
}

export function useChatSession(
  organizationId: OrganizationIdInput,
  chatbotId: string,
  sessionId: string | null,
) {
  return useQuery({
    ...chatSessionQueryOptions(organizationId, chatbotId, sessionId ?? ''),
    enabled: Boolean(organizationId) && chatbotId !== '' && sessionId !== null,
  });
}
