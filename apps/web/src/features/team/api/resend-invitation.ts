import type { SentInvitation } from '@courselens/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { invitationsQueryOptions } from './get-invitations';

/** `POST /api/invitations/{id}/resend` (owners): a new link; the old one stops working. */
export function resendInvitation(invitationId: string): Promise<SentInvitation> {
  return api.post<SentInvitation>(`/invitations/${encodeURIComponent(invitationId)}/resend`);
}

export function useResendInvitation(organizationId: string | null | undefined) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: resendInvitation,
    onSuccess: () =>
      queryClient.invalidateQueries({ queryKey: invitationsQueryOptions(organizationId).queryKey }),
  });
}
