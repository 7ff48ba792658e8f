import type { SetBroadcastResponse } from '@courselens/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import { invalidateActivity } from '@/lib/query-keys';

import { coursesBaseKey } from './get-courses';

/** `PUT /api/courses/{id}/broadcast` with `{message}`; null clears the message. */
export function setBroadcast({
  courseId,
  message,
}: {
  courseId: string;
  message: string | null;
}): Promise<SetBroadcastResponse> {
  return api.put<SetBroadcastResponse>(`/courses/${encodeURIComponent(courseId)}/broadcast`, { message });
}

export function useSetBroadcast(organizationId: string | null | undefined) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setBroadcast,
    // The course carries its current message; the broadcast is also logged in the activity feed.
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: coursesBaseKey(organizationId) }),
        invalidateActivity(queryClient, organizationId),
      ]),
  });
}
