import type { ListQuestionsResponse, QuestionBody } from '@courselens/contracts';
import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import { organizationDomainKey } from '@/lib/query-keys';

import { questionsRootKey } from './get-questions';

type QuestionUpdate = { questionId: string; active: boolean };

/** `PATCH /api/questions/:questionId`: turns a question on (listed) or off (hidden). */
export function updateQuestion({ questionId, active }: QuestionUpdate): Promise<QuestionBody> {
  return api.patch<QuestionBody>(`/questions/${encodeURIComponent(questionId)}`, { active });
}

function isQuestionList(data: unknown): data is ListQuestionsResponse {
  return typeof data === 'object' && data !== null && Array.isArray((data as { items?: unknown }).items);
}

/**
 * Turns a question on or off with an optimistic update of every cached list;
 * a refusal puts the lists back as they were (the caller shows the error).
 * Lists refetch afterwards: the question moves between active and hidden.
 */
export function useUpdateQuestion(organizationId: string | null | undefined) {
  const queryClient = useQueryClient();
  const rootKey = questionsRootKey(organizationId);
  return useMutation({
    mutationFn: updateQuestion,
    onMutate: async (update: QuestionUpdate) => {
      await queryClient.cancelQueries({ queryKey: rootKey });
      const previous = queryClient.getQueriesData<unknown>({ queryKey: rootKey });
      for (const [key, data] of previous) {
        if (!isQuestionList(data)) continue;
        queryClient.setQueryData(key, {
          ...data,
          items: data.items.map((item) =>
            item.id === update.questionId ? { ...item, active: update.active } : item,
          ),
        });
      }
      return { previous };
    },
    onError: (_error, _update, context?: { previous: [QueryKey, unknown][] }) => {
      for (const [key, data] of context?.previous ?? []) queryClient.setQueryData(key, data);
    },
    // The dashboard's hardest questions count only listed (active) questions.
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: rootKey }),
        queryClient.invalidateQueries({ queryKey: organizationDomainKey(organizationId, 'dashboard') }),
      ]),
  });
}
