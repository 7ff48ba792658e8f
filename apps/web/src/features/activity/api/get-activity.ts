import type { ActivityListResponse, ActivityQuery } from '@courselens/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import { organizationDomainKey } from '@/lib/query-keys';

/** The feed's filters as the URL and the API spell them (`kind` is a comma-separated list). */
export type ActivityParams = {
  page: number;
  pageSize: number;
  q?: string;
  kind?: string;
  actor?: string;
  from?: string;
  to?: string;
};

export function activityApiQuery(params: ActivityParams): Record<string, string | number | undefined> {
  return {
    page: params.page,
    pageSize: params.pageSize,
    q: params.q || undefined,
    kind: params.kind || undefined,
    actor: params.actor || undefined,
    from: params.from || undefined,
    to: params.to || undefined,
  } satisfies { [Key in keyof ActivityQuery]?: string | number | undefined };
}

/** `GET /api/activity`: one page of the feed, newest first. */
export async function getActivity(
  params: ActivityParams,
  { signal }: { signal?: AbortSignal } = {},
): Promise<ActivityListResponse> {
  return api.get<ActivityListResponse>('/activity', { query: activityApiQuery(params), signal });
}

export function activityQueryOptions(organizationId: string | null | undefined, params: ActivityParams) {
  return queryOptions({
    queryKey: [...organizationDomainKey(organizationId, 'activity'), 'feed', params] as const,
    queryFn: ({ signal }) => getActivity(params, { signal }),
    enabled: Boolean(organizationId),
    placeholderData: keepPreviousData,
  });
}

export function useActivity(organizationId: string | null | undefined, params: ActivityParams) {
  return useQuery(activityQueryOptions(organizationId, params));
}
