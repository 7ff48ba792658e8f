import type { CourseBody } from '@courselens/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { coursesBaseKey } from './get-courses';

/** `GET /api/courses/{id}`: one course with its counts (the course header of every course screen). */
export function getCourse(courseId: string, { signal }: { signal?: AbortSignal } = {}): Promise<CourseBody> {
  return api.get<CourseBody>(`/courses/${encodeURIComponent(courseId)}`, { signal });
}

export function courseQueryOptions(organizationId: string | null | undefined, courseId: string) {
  return queryOptions({
    queryKey: [...coursesBaseKey(organizationId), 'detail', courseId] as const,
    queryFn: ({ signal }) => getCourse(courseId, { signal }),
    enabled: Boolean(organizationId && courseId),
  });
}

export function useCourse(organizationId: string | null | undefined, courseId: string) {
  return useQuery(courseQueryOptions(organizationId, courseId));
}
