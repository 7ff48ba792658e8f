import type { Member, MemberRole } from '@courselens/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import { invalidateActivity } from '@/lib/query-keys';

import { membersQueryOptions } from './get-members';

/** `PATCH /api/team/members/{userId}` (owners); the last owner cannot be demoted. */
export function updateMemberRole({ userId, role }: { userId: string; role: MemberRole }): Promise<Member> {
  return api.patch<Member>(`/team/members/${encodeURIComponent(userId)}`, { role });
}

export function useUpdateMemberRole(organizationId: string | null | undefined) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateMemberRole,
    // A role change is logged in the activity feed.
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: membersQueryOptions(organizationId).queryKey }),
        invalidateActivity(queryClient, organizationId),
      ]),
  });
}
