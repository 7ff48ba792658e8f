import type { InvitationBody } from '@courselens/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { invitationsQueryOptions } from './get-invitations';

/** `POST /api/invitations/{id}/revoke` (owners). */
export function revokeInvitation(invitationId: string): Promise<InvitationBody> {
  return api.post<InvitationBody>(`/invitations/${encodeURIComponent(invitationId)}/revoke`);
}

export function useRevokeInvitation(organizationId: string | null | undefined) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: revokeInvitation,
    onSuccess: () =>
      queryClient.invalidateQueries({ queryKey: invitationsQueryOptions(organizationId).queryKey }),
  });
}
