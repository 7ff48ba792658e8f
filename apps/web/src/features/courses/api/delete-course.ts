import type { DeleteCourseOptions, DeleteCourseResponse } from '@courselens/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { coursesBaseKey } from './get-courses';

/**
 * `DELETE /api/courses/{id}?keepLearnerData=&deleteRelatedReports=&removePipelineReferences=`
 * (spec section 7: the flags travel in the query string).
 */
export function deleteCourse({
  courseId,
  ...options
}: DeleteCourseOptions & { courseId: string }): Promise<DeleteCourseResponse> {
  return api.delete<DeleteCourseResponse>(`/courses/${encodeURIComponent(courseId)}`, {
    query: {
      keepLearnerData: options.keepLearnerData,
      deleteRelatedReports: options.deleteRelatedReports,
      removePipelineReferences: options.removePipelineReferences,
    },
  });
}

export function useDeleteCourse(organizationId: string | null | undefined) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteCourse,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: coursesBaseKey(organizationId) }),
  });
}
