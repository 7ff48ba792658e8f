import type { Chatbot, ChatbotInput } from '@courselens/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import { invalidateActivity, organizationDomainKey, type OrganizationIdInput } from '@/lib/query-keys';

import { chatbotPath, chatbotQueryOptions } from './get-chatbot';
import { chatbotsRootKey } from './get-chatbots';

export type UpdateChatbotVariables = { chatbotId: string; input: ChatbotInput };

/** `PUT /api/chatbots/:chatbotId`: the whole agent; variables keep their captured values by name. */
export function updateChatbot({ chatbotId, input }: UpdateChatbotVariables): Promise<Chatbot> {
  return api.put<Chatbot>(chatbotPath(chatbotId), input);
}

export function useUpdateChatbot(organizationId: OrganizationIdInput) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateChatbot,
    onSuccess: (chatbot) => {
      queryClient.setQueryData(chatbotQueryOptions(organizationId, chatbot.id).queryKey, chatbot);
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: chatbotsRootKey(organizationId) }),
        // A renamed variable or agent shows under its new name on learners' pages.
        queryClient.invalidateQueries({ queryKey: organizationDomainKey(organizationId, 'learners') }),
        invalidateActivity(queryClient, organizationId),
      ]);
    },
  });
}
