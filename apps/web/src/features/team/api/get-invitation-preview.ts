import type { InvitationPreview } from '@courselens/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import { sharedViewKey } from '@/lib/query-keys';

/** `GET /api/invitations/{token}` (public): organization, inviter and invited e-mail for /team-signup. */
export function getInvitationPreview(token: string, { signal }: { signal?: AbortSignal } = {}) {
  return api.get<InvitationPreview>(`/invitations/${encodeURIComponent(token)}`, { signal });
}

export function invitationPreviewQueryOptions(token: string) {
  return queryOptions({
    queryKey: [...sharedViewKey('invitation'), token] as const,
    queryFn: ({ signal }) => getInvitationPreview(token, { signal }),
    enabled: token !== '',
    retry: false,
  });
}

export function useInvitationPreview(token: string) {
  return useQuery(invitationPreviewQueryOptions(token));
}
