import type { Chatbot, ChatbotInput } from '@courselens/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import { invalidateActivity, type OrganizationIdInput } from '@/lib/query-keys';

import { chatbotQueryOptions } from './get-chatbot';
import { chatbotsRootKey } from './get-chatbots';

/** `POST /api/chatbots`: the saved agent (201). */
export function createChatbot(input: ChatbotInput): Promise<Chatbot> {
  return api.post<Chatbot>('/chatbots', input);
}

export function useCreateChatbot(organizationId: OrganizationIdInput) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createChatbot,
    onSuccess: (chatbot) => {
      // The edit page opens next: it reads the agent at once instead of loading it again.
      queryClient.setQueryData(chatbotQueryOptions(organizationId, chatbot.id).queryKey, chatbot);
      return Promise.all([
        // The whole domain: the pipeline editor's agent picker lists agents too.
        queryClient.invalidateQueries({ queryKey: chatbotsRootKey(organizationId) }),
        invalidateActivity(queryClient, organizationId),
      ]);
    },
  });
}
