import type { OrganizationBody } from '@courselens/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import { sessionQueryOptions } from '@/lib/auth';

/** `POST /api/invitations/{token}/accept`: the signed-in person joins the organization. */
export function acceptInvitation(token: string): Promise<OrganizationBody> {
  return api.post<OrganizationBody>(`/invitations/${encodeURIComponent(token)}/accept`);
}

export function useAcceptInvitation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: acceptInvitation,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: sessionQueryOptions().queryKey }),
  });
}
