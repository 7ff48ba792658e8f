import type { OrganizationBody, UpdateOrganizationInput } from '@courselens/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import { sessionQueryOptions } from '@/lib/auth';
import { invalidateActivity } from '@/lib/query-keys';

export type UpdateOrganizationVariables = { organizationId: string; input: UpdateOrganizationInput };

/** `PATCH /api/organizations/{id}` (owners): rename and/or change the subdomain. */
export function updateOrganization({
  organizationId,
  input,
}: UpdateOrganizationVariables): Promise<OrganizationBody> {
  return api.patch<OrganizationBody>(`/organizations/${encodeURIComponent(organizationId)}`, input, {
    headers: { 'X-Organization-Id': organizationId },
  });
}

export function useUpdateOrganization() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateOrganization,
    // The session lists the organization's name and subdomain; the change is logged in its activity feed.
    onSuccess: (_organization, { organizationId }) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: sessionQueryOptions().queryKey }),
        invalidateActivity(queryClient, organizationId),
      ]),
  });
}
