import type { Member } from '@courselens/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import { organizationDomainKey } from '@/lib/query-keys';

/** `GET /api/team/members` of the current organization. */
export async function getMembers({ signal }: { signal?: AbortSignal } = {}): Promise<Member[]> {
  const body = await api.get<{ members: Member[] }>('/team/members', { signal });
  return body.members;
}

export function membersQueryOptions(organizationId: string | null | undefined) {
  return queryOptions({
    queryKey: [...organizationDomainKey(organizationId, 'team'), 'members'] as const,
    queryFn: ({ signal }) => getMembers({ signal }),
    enabled: Boolean(organizationId),
  });
}

export function useMembers(organizationId: string | null | undefined) {
  return useQuery(membersQueryOptions(organizationId));
}
