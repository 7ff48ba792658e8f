import type { DeleteCourseOptions, DeleteCourseResponse } from '@courselens/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import { organizationKey, queryKeyMentions } from '@/lib/query-keys';

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

/**
 * After a deletion the course's own queries (its page, lists, reports,
 * summaries) could only answer 404, so they are dropped rather than
 * refetched; everything else of the organization may count or list the
 * course (courses, learners, variables, questions, dashboard, reports,
 * activity) and goes stale, the queries on screen refetching at once.
 */
export function useDeleteCourse(organizationId: string | null | undefined) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteCourse,
    onSuccess: (_result, { courseId }) => {
      const queryKey = organizationKey(organizationId);
      queryClient.removeQueries({
        queryKey,
        predicate: (query) => queryKeyMentions(query.queryKey, courseId),
      });
      return queryClient.invalidateQueries({ queryKey });
    },
  });
}
