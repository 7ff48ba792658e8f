import type { OrganizationBody, UpdateOrganizationInput } from '@courselens/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import { sessionQueryOptions } from '@/lib/auth';

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
    onSuccess: () => queryClient.invalidateQueries({ queryKey: sessionQueryOptions().queryKey }),
  });
}
