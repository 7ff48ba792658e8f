import type { CourseBody, CreateCourseInput } from '@courselens/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import { organizationKey } from '@/lib/query-keys';

/** `POST /api/courses` */
export function createCourse(input: CreateCourseInput): Promise<CourseBody> {
  return api.post<CourseBody>('/courses', input);
}

/**
 * A new course shows in the course lists, the dashboard's counts, the
 * activity feed and the report builder's choices: the organization's queries
 * go stale (only those on screen refetch).
 */
export function useCreateCourse(organizationId: string | null | undefined) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createCourse,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: organizationKey(organizationId) }),
  });
}
