import type { BroadcastListResponse } from '@courselens/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { coursesBaseKey } from './get-courses';

export const BROADCASTS_PAGE_SIZE = 10;

/** The page of history `?page=` asks for (the screen and its route loader read the URL alike). */
export function broadcastsPageOf(searchParams: URLSearchParams): number {
  return Math.max(1, Number.parseInt(searchParams.get('page') ?? '1', 10) || 1);
}

/** `GET /api/courses/{id}/broadcasts`: the current message and past broadcasts, newest first. */
export function getBroadcasts(
  courseId: string,
  page: number,
  { signal }: { signal?: AbortSignal } = {},
): Promise<BroadcastListResponse> {
  return api.get<BroadcastListResponse>(`/courses/${encodeURIComponent(courseId)}/broadcasts`, {
    query: { page, pageSize: BROADCASTS_PAGE_SIZE },
    signal,
  });
}

export function broadcastsQueryOptions(
  organizationId: string | null | undefined,
  courseId: string,
  page: number,
) {
  return queryOptions({
    queryKey: [...coursesBaseKey(organizationId), 'broadcasts', courseId, page] as const,
    queryFn: ({ signal }) => getBroadcasts(courseId, page, { signal }),
    enabled: Boolean(organizationId && courseId),
    placeholderData: keepPreviousData,
  });
}

export function useBroadcasts(organizationId: string | null | undefined, courseId: string, page: number) {
  return useQuery(broadcastsQueryOptions(organizationId, courseId, page));
}
