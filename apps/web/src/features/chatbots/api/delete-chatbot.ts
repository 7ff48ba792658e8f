import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import { invalidateActivity, organizationDomainKey, type OrganizationIdInput } from '@/lib/query-keys';

import { chatbotKey, chatbotPath } from './get-chatbot';
import { chatbotsRootKey } from './get-chatbots';

/** `DELETE /api/chatbots/:chatbotId`: the agent goes with its conversations and captured values. */
export function deleteChatbot(chatbotId: string): Promise<void> {
  return api.delete<void>(chatbotPath(chatbotId));
}

export function useDeleteChatbot(organizationId: OrganizationIdInput) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteChatbot,
    onSuccess: (_result, chatbotId) =>
      Promise.all([
        // The whole domain: the pipeline editor's agent picker lists agents too.
        queryClient.invalidateQueries({ queryKey: chatbotsRootKey(organizationId) }),
        // The page still showing it is leaving: no refetch that would answer 404 under it.
        queryClient.invalidateQueries({
          queryKey: chatbotKey(organizationId, chatbotId),
          refetchType: 'none',
        }),
        // Its captured values disappear from learners' pages.
        queryClient.invalidateQueries({ queryKey: organizationDomainKey(organizationId, 'learners') }),
        invalidateActivity(queryClient, organizationId),
      ]),
  });
}
