import type { ChatTranscriptResponse } from '@courselens/contracts';
import { queryOptions, skipToken, useQuery } from '@tanstack/react-query';

import { isApiError } from '@/lib/api-client';

import { chatRootKey, isRetryable } from './get-public-chatbot';
import { publicJson } from './public-request';

export type ChatTranscriptParams = { chatbotId: string; sessionId: string; email: string };

/** `GET /api/chat/:chatbotId/sessions/:sessionId?email=`: a learner's own conversation, to resume it. */
export function getChatTranscript(
  { chatbotId, sessionId, email }: ChatTranscriptParams,
  signal?: AbortSignal,
): Promise<ChatTranscriptResponse> {
  return publicJson<ChatTranscriptResponse>(
    `/chat/${encodeURIComponent(chatbotId)}/sessions/${encodeURIComponent(sessionId)}`,
    { query: { email }, signal },
  );
}

/**
 * The conversation to resume, or null when there is none to resume: the
 * server answers 404 both for a conversation that is gone and for another
 * learner's (400 for an id this browser mangled), and either way the learner
 * simply starts a new one.
 */
export function chatTranscriptQueryOptions(params: ChatTranscriptParams | null) {
  return queryOptions({
    queryKey: [...chatRootKey, 'transcript', params] as const,
    queryFn: params
      ? async ({ signal }): Promise<ChatTranscriptResponse | null> => {
          try {
            return await getChatTranscript(params, signal);
          } catch (error) {
            if (isApiError(error) && (error.status === 404 || error.status === 400)) return null;
            throw error;
          }
        }
      : skipToken,
    retry: isRetryable,
    // The transcript seeds the page once; the turns sent afterwards live in
    // the page's state, so a refetch would show them twice.
    staleTime: Infinity,
    gcTime: 0,
  });
}

export function useChatTranscript(params: ChatTranscriptParams | null) {
  return useQuery(chatTranscriptQueryOptions(params));
}
