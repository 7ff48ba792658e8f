import type { CreateApiKeyInput, CreatedApiKey } from '@courselens/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import { invalidateActivity } from '@/lib/query-keys';

import { apiKeysQueryOptions } from './get-api-keys';

/** `POST /api/api-keys`: the answer's `key` is the secret, returned this once. */
export function createApiKey(input: CreateApiKeyInput): Promise<CreatedApiKey> {
  return api.post<CreatedApiKey>('/api-keys', input);
}

export function useCreateApiKey(organizationId: string | null | undefined) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createApiKey,
    // Logged in the activity feed.
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: apiKeysQueryOptions(organizationId).queryKey }),
        invalidateActivity(queryClient, organizationId),
      ]),
  });
}
