import type { ActivityActor, ActivityActorsResponse } from '@courselens/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import { organizationDomainKey } from '@/lib/query-keys';

/** `GET /api/activity/actors`: the people who appear in the feed, for its actor filter. */
export async function getActivityActors({ signal }: { signal?: AbortSignal } = {}): Promise<ActivityActor[]> {
  const body = await api.get<ActivityActorsResponse>('/activity/actors', { signal });
  return body.actors;
}

export function activityActorsQueryOptions(organizationId: string | null | undefined) {
  return queryOptions({
    queryKey: [...organizationDomainKey(organizationId, 'activity'), 'actors'] as const,
    queryFn: ({ signal }) => getActivityActors({ signal }),
    enabled: Boolean(organizationId),
    staleTime: 60_000,
  });
}

export function useActivityActors(organizationId: string | null | undefined) {
  return useQuery(activityActorsQueryOptions(organizationId));
}
