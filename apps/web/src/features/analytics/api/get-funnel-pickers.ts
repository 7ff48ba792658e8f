import {
  MAX_PAGE_SIZE,
  type ListCourseQuestionsResponse,
  type ListVariablesResponse,
} from '@courselens/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import { organizationDomainKey, type OrganizationIdInput } from '@/lib/query-keys';

/*
 * What the funnel builder's pickers offer: a course's questions, a course's
 * variables, and the variable names a breakdown can use, read from the
 * existing list APIs (courses come from `lib/course-options`).
 */

export type FunnelQuestionOption = {
  id: string;
  slideNumber: number | null;
  questionNumber: number | null;
  text: string | null;
  interactionId: string;
};

export type FunnelVariableOption = { id: string; name: string; title: string | null };

/** Questions of a course a picker lists at most (by slide); a course rarely has more. */
const QUESTIONS_LIMIT = MAX_PAGE_SIZE;

/** `GET /api/courses/:courseId/questions` by slide. */
export async function getFunnelQuestionOptions(
  courseId: string,
  signal?: AbortSignal,
): Promise<FunnelQuestionOption[]> {
  const page = await api.get<ListCourseQuestionsResponse>(
    `/courses/${encodeURIComponent(courseId)}/questions`,
    {
      query: { sort: 'slide', order: 'asc', pageSize: QUESTIONS_LIMIT },
      signal,
    },
  );
  return page.items.map((question) => ({
    id: question.id,
    slideNumber: question.slideNumber,
    questionNumber: question.questionNumber,
    text: question.questionText,
    interactionId: question.interactionId,
  }));
}

export function funnelQuestionOptionsQueryOptions(
  organizationId: OrganizationIdInput,
  courseId: string | null,
) {
  return queryOptions({
    queryKey: [...organizationDomainKey(organizationId, 'questions'), 'funnel-options', courseId] as const,
    queryFn: ({ signal }) => getFunnelQuestionOptions(courseId ?? '', signal),
    enabled: Boolean(organizationId) && Boolean(courseId),
    staleTime: 60_000,
  });
}

export function useFunnelQuestionOptions(organizationId: OrganizationIdInput, courseId: string | null) {
  return useQuery(funnelQuestionOptionsQueryOptions(organizationId, courseId));
}

/** `GET /api/courses/:courseId/variables` by name. */
export async function getFunnelVariableOptions(
  courseId: string,
  signal?: AbortSignal,
): Promise<FunnelVariableOption[]> {
  const page = await api.get<ListVariablesResponse>(`/courses/${encodeURIComponent(courseId)}/variables`, {
    query: { sort: 'name', order: 'asc', pageSize: MAX_PAGE_SIZE },
    signal,
  });
  return page.items.map((variable) => ({ id: variable.id, name: variable.name, title: variable.title }));
}

export function funnelVariableOptionsQueryOptions(
  organizationId: OrganizationIdInput,
  courseId: string | null,
) {
  return queryOptions({
    queryKey: [...organizationDomainKey(organizationId, 'variables'), 'funnel-options', courseId] as const,
    queryFn: ({ signal }) => getFunnelVariableOptions(courseId ?? '', signal),
    enabled: Boolean(organizationId) && Boolean(courseId),
    staleTime: 60_000,
  });
}

export function useFunnelVariableOptions(organizationId: OrganizationIdInput, courseId: string | null) {
  return useQuery(funnelVariableOptionsQueryOptions(organizationId, courseId));
}

/** `GET /api/variables` by name: the distinct names a breakdown can group by (first page of 100). */
export async function getFunnelVariableNames(signal?: AbortSignal): Promise<string[]> {
  const page = await api.get<ListVariablesResponse>('/variables', {
    query: { sort: 'name', order: 'asc', pageSize: MAX_PAGE_SIZE },
    signal,
  });
  return [...new Set(page.items.map((variable) => variable.name))];
}

export function funnelVariableNamesQueryOptions(organizationId: OrganizationIdInput) {
  return queryOptions({
    queryKey: [...organizationDomainKey(organizationId, 'variables'), 'funnel-names'] as const,
    queryFn: ({ signal }) => getFunnelVariableNames(signal),
    enabled: Boolean(organizationId),
    staleTime: 60_000,
  });
}

export function useFunnelVariableNames(organizationId: OrganizationIdInput) {
  return useQuery(funnelVariableNamesQueryOptions(organizationId));
}
