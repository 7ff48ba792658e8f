import type { VariableAiSummary } from '@courselens/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

/** What a summary page is about: a course variable (by course and name, or by id) or an agent variable. */
export type AiSummarySource =
  | { kind: 'course-variable'; courseId: string; variableName: string }
  | { kind: 'variable'; variableId: string }
  | { kind: 'chatbot-variable'; variableId: string };

/** The API path of a source's summary (GET reads it, POST regenerates it) and its query string. */
export function aiSummaryRequest(source: AiSummarySource): { path: string; query?: Record<string, string> } {
  switch (source.kind) {
    case 'course-variable':
      return {
        path: `/ai-summaries/courses/${encodeURIComponent(source.courseId)}/variables/${encodeURIComponent(source.variableName)}`,
      };
    case 'variable':
      return { path: `/ai-summaries/variables/${encodeURIComponent(source.variableId)}` };
    case 'chatbot-variable':
      return { path: '/ai-summaries/chatbot-variable', query: { variableId: source.variableId } };
  }
}

/** Every summary query of an organization starts with this key. */
export function aiSummariesRootKey(organizationId: string | null | undefined) {
  return ['ai-summaries', { organizationId: organizationId ?? null }] as const;
}

/** `GET /api/ai-summaries/...`: the cached summary, written on the first request. */
export function getAiSummary(
  source: AiSummarySource,
  { signal }: { signal?: AbortSignal } = {},
): Promise<VariableAiSummary> {
  const { path, query } = aiSummaryRequest(source);
  return api.get<VariableAiSummary>(path, { query, signal });
}

export function aiSummaryQueryOptions(organizationId: string | null | undefined, source: AiSummarySource) {
  return queryOptions({
    queryKey: [...aiSummariesRootKey(organizationId), source] as const,
    queryFn: ({ signal }) => getAiSummary(source, { signal }),
    enabled: Boolean(organizationId),
  });
}

export function useAiSummary(organizationId: string | null | undefined, source: AiSummarySource) {
  return useQuery(aiSummaryQueryOptions(organizationId, source));
}
