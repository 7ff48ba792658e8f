import type { CourseBody, UpdateCourseInput } from '@courselens/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { coursesBaseKey } from './get-courses';

/** `PATCH /api/courses/{id}` */
export function updateCourse({
  courseId,
  ...input
}: UpdateCourseInput & { courseId: string }): Promise<CourseBody> {
  return api.patch<CourseBody>(`/courses/${encodeURIComponent(courseId)}`, input);
}

export function useUpdateCourse(organizationId: string | null | undefined) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateCourse,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: coursesBaseKey(organizationId) }),
  });
}
