import type { InvitationBody } from '@courselens/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import { organizationDomainKey } from '@/lib/query-keys';

/** `GET /api/invitations` of the current organization (owners). */
export async function getInvitations({ signal }: { signal?: AbortSignal } = {}): Promise<InvitationBody[]> {
  const body = await api.get<{ invitations: InvitationBody[] }>('/invitations', { signal });
  return body.invitations;
}

export function invitationsQueryOptions(organizationId: string | null | undefined) {
  return queryOptions({
    queryKey: [...organizationDomainKey(organizationId, 'team'), 'invitations'] as const,
    queryFn: ({ signal }) => getInvitations({ signal }),
    enabled: Boolean(organizationId),
  });
}

export function useInvitations(organizationId: string | null | undefined) {
  return useQuery(invitationsQueryOptions(organizationId));
}
