import type { CreateInvitationInput, SentInvitation } from '@courselens/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import { invalidateActivity } from '@/lib/query-keys';

import { invitationsQueryOptions } from './get-invitations';

/** `POST /api/invitations` (owners): the answer carries the link, shown now only. */
export function createInvitation(input: CreateInvitationInput): Promise<SentInvitation> {
  return api.post<SentInvitation>('/invitations', input);
}

export function useCreateInvitation(organizationId: string | null | undefined) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createInvitation,
    // Logged in the activity feed.
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: invitationsQueryOptions(organizationId).queryKey }),
        invalidateActivity(queryClient, organizationId),
      ]),
  });
}
