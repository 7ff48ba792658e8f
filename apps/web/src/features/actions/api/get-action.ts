import type { ActionBody } from '@courselens/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { OrganizationIdInput } from '@/lib/query-keys';

import { actionsRootKey } from './get-actions';

export const actionPath = (actionId: string) => `/actions/${encodeURIComponent(actionId)}`;

/** `GET /api/actions/:actionId`: an action with its settings (never a secret). */
export function getAction(actionId: string, { signal }: { signal?: AbortSignal } = {}): Promise<ActionBody> {
  return api.get<ActionBody>(actionPath(actionId), { signal });
}

export function actionQueryOptions(organizationId: OrganizationIdInput, actionId: string) {
  return queryOptions({
    queryKey: [...actionsRootKey(organizationId), 'detail', actionId] as const,
    queryFn: ({ signal }) => getAction(actionId, { signal }),
    enabled: Boolean(organizationId) && actionId !== '',
  });
}

export function useAction(organizationId: OrganizationIdInput, actionId: string) {
  return useQuery(actionQueryOptions(organizationId, actionId));
}
