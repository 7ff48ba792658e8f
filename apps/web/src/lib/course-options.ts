import type { CourseListResponse } from '@courselens/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import { organizationDomainKey, type OrganizationIdInput } from '@/lib/query-keys';

/** Courses a picker offers, at most this many (by title); more are found by typing. */
const COURSE_OPTIONS_LIMIT = 100;

export type CourseOption = { id: string; title: string; externalCourseId: string | null };

/** `GET /api/courses` by title: the courses a picker (broadcast action, analytics) offers. */
export async function getCourseOptions({ signal }: { signal?: AbortSignal } = {}): Promise<CourseOption[]> {
  const page = await api.get<CourseListResponse>('/courses', {
    query: { sort: 'title', order: 'asc', pageSize: COURSE_OPTIONS_LIMIT },
    signal,
  });
  return page.items.map((course) => ({
    id: course.id,
    title: course.courseTitle,
    externalCourseId: course.externalCourseId,
  }));
}

/** Under the courses domain, so a course created, renamed or deleted refreshes the picker. */
export function courseOptionsQueryOptions(organizationId: OrganizationIdInput) {
  return queryOptions({
    queryKey: [...organizationDomainKey(organizationId, 'courses'), 'options'] as const,
    queryFn: ({ signal }) => getCourseOptions({ signal }),
    enabled: Boolean(organizationId),
    staleTime: 60_000,
  });
}

export function useCourseOptions(organizationId: OrganizationIdInput) {
  return useQuery(courseOptionsQueryOptions(organizationId));
}
