import type { ChatbotSortKey, ListChatbotsResponse, SortOrder } from '@courselens/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import { organizationDomainKey, type OrganizationIdInput } from '@/lib/query-keys';

export const CHATBOTS_PAGE_SIZE = 20;

export type ChatbotListParams = {
  q: string;
  page: number;
  sort: ChatbotSortKey;
  order: SortOrder;
};

/** Every chatbot query of an organization starts with this key. */
export function chatbotsRootKey(organizationId: OrganizationIdInput) {
  return organizationDomainKey(organizationId, 'chatbots');
}

/** `GET /api/chatbots`: one page of the current organization's agents with their figures. */
export function getChatbots(
  params: ChatbotListParams,
  { signal }: { signal?: AbortSignal } = {},
): Promise<ListChatbotsResponse> {
  return api.get<ListChatbotsResponse>('/chatbots', {
    query: {
      q: params.q || undefined,
      page: params.page,
      pageSize: CHATBOTS_PAGE_SIZE,
      sort: params.sort,
      order: params.order,
    },
    signal,
  });
}

export function chatbotsQueryOptions(organizationId: OrganizationIdInput, params: ChatbotListParams) {
  return queryOptions({
    queryKey: [...chatbotsRootKey(organizationId), 'list', params] as const,
    queryFn: ({ signal }) => getChatbots(params, { signal }),
    enabled: Boolean(organizationId),
    placeholderData: keepPreviousData,
  });
}

export function useChatbots(organizationId: OrganizationIdInput, params: ChatbotListParams) {
  return useQuery(chatbotsQueryOptions(organizationId, params));
}
