import type { ApiKeyBody } from '@courselens/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import { invalidateActivity } from '@/lib/query-keys';

import { apiKeysQueryOptions } from './get-api-keys';

/** `POST /api/api-keys/{id}/revoke` with an empty body: the key stops working at once. */
export function revokeApiKey(apiKeyId: string): Promise<ApiKeyBody> {
  return api.post<ApiKeyBody>(`/api-keys/${encodeURIComponent(apiKeyId)}/revoke`);
}

export function useRevokeApiKey(organizationId: string | null | undefined) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: revokeApiKey,
    // Logged in the activity feed.
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: apiKeysQueryOptions(organizationId).queryKey }),
        invalidateActivity(queryClient, organizationId),
      ]),
  });
}
