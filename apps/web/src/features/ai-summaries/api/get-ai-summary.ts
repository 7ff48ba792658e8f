import { AI_SUMMARY_VARIABLE_TYPES, type VariableAiSummary } from '@courselens/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Params } from 'react-router';

import { api } from '@/lib/api-client';
import { organizationDomainKey, type OrganizationIdInput } from '@/lib/query-keys';

/** What a summary page is about: a course variable (by course and name, or by id) or an agent variable. */
export type AiSummarySource =
  | { kind: 'course-variable'; courseId: string; variableName: string }
  | { kind: 'variable'; variableId: string }
  | { kind: 'chatbot-variable'; variableId: string };

/** The source `/course/:courseId/variable/:variableName/ai-summary` names (its page and loader read it alike). */
export function courseVariableSummarySource(params: Params): AiSummarySource {
  return {
    kind: 'course-variable',
    courseId: params.courseId ?? '',
    variableName: params.variableName ?? '',
  };
}

/**
 * The source `/variable/:variableId/:variableType/ai-summary` names (its
 * page and loader read it alike); null for a type that is neither `course`
 * nor `chatbot`.
 */
export function variableSummarySource(params: Params): AiSummarySource | null {
  const variableId = params.variableId ?? '';
  const type = AI_SUMMARY_VARIABLE_TYPES.find((known) => known === params.variableType);
  if (!type) return null;
  return type === 'course' ? { kind: 'variable', variableId } : { kind: 'chatbot-variable', variableId };
}

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
export function aiSummariesRootKey(organizationId: OrganizationIdInput) {
  return organizationDomainKey(organizationId, 'ai-summaries');
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
