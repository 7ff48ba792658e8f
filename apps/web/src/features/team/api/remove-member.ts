import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import { invalidateActivity } from '@/lib/query-keys';

import { membersQueryOptions } from './get-members';

/** `DELETE /api/team/members/{userId}` (owners); the last owner cannot be removed. */
export function removeMember(userId: string): Promise<void> {
  return api.delete<void>(`/team/members/${encodeURIComponent(userId)}`);
}

export function useRemoveMember(organizationId: string | null | undefined) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removeMember,
    // Logged in the activity feed.
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: membersQueryOptions(organizationId).queryKey }),
        invalidateActivity(queryClient, organizationId),
      ]),
  });
}
