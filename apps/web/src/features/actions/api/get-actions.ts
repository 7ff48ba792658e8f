import type { ActionSortKey, ActionType, ListActionsResponse, SortOrder } from '@courselens/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import { organizationDomainKey, type OrganizationIdInput } from '@/lib/query-keys';

export const ACTIONS_PAGE_SIZE = 20;

export type ActionListParams = {
  q: string;
  page: number;
  sort: ActionSortKey;
  order: SortOrder;
  type: ActionType | null;
};

/** Every action query of an organization starts with this key. */
export function actionsRootKey(organizationId: OrganizationIdInput) {
  return organizationDomainKey(organizationId, 'actions');
}

/** `GET /api/actions`: one page of the current organization's actions. */
export function getActions(
  params: ActionListParams,
  { signal }: { signal?: AbortSignal } = {},
): Promise<ListActionsResponse> {
  return api.get<ListActionsResponse>('/actions', {
    query: {
      q: params.q || undefined,
      type: params.type ?? undefined,
      page: params.page,
      pageSize: ACTIONS_PAGE_SIZE,
      sort: params.sort,
      order: params.order,
    },
    signal,
  });
}

export function actionsQueryOptions(organizationId: OrganizationIdInput, params: ActionListParams) {
  return queryOptions({
    queryKey: [...actionsRootKey(organizationId), 'list', params] as const,
    queryFn: ({ signal }) => getActions(params, { signal }),
    enabled: Boolean(organizationId),
    placeholderData: keepPreviousData,
  });
}

export function useActions(organizationId: OrganizationIdInput, params: ActionListParams) {
  return useQuery(actionsQueryOptions(organizationId, params));
}
