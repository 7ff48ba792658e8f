import type { CreateOrganizationInput, OrganizationBody } from '@courselens/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import { sessionQueryOptions } from '@/lib/auth';

/** `POST /api/organizations`: the caller becomes its owner; it is not primary. */
export function createOrganization(input: CreateOrganizationInput): Promise<OrganizationBody> {
  return api.post<OrganizationBody>('/organizations', input);
}

export function useCreateOrganization() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createOrganization,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: sessionQueryOptions().queryKey }),
  });
}
