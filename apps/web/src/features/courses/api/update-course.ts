import type { CourseBody, UpdateCourseInput } from '@courselens/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import { organizationKey } from '@/lib/query-keys';

/** `PATCH /api/courses/{id}` */
export function updateCourse({
  courseId,
  ...input
}: UpdateCourseInput & { courseId: string }): Promise<CourseBody> {
  return api.patch<CourseBody>(`/courses/${encodeURIComponent(courseId)}`, input);
}

/**
 * A course's title shows wherever the course does (lists, reports, learner
 * pages, dashboard, activity): the organization's queries go stale (only
 * those on screen refetch).
 */
export function useUpdateCourse(organizationId: string | null | undefined) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateCourse,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: organizationKey(organizationId) }),
  });
}
