import type {
  ListCourseQuestionsResponse,
  ListQuestionCoursesResponse,
  ListQuestionsResponse,
  QuestionCourseOption,
  QuestionSortKey,
} from '@courselens/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import { organizationDomainKey, type OrganizationIdInput } from '@/lib/query-keys';

/** The list state a questions screen keeps in its URL. */
export type QuestionListParams = {
  q: string;
  page: number;
  sort: QuestionSortKey;
  order: 'asc' | 'desc';
  courseId?: string | undefined;
  /** true: the listed (active) questions; false: the hidden ones. */
  active: boolean;
};

export const QUESTIONS_PAGE_SIZE = 25;

/** Every questions query of an organization starts with this key, so one mutation can reach them all. */
export function questionsRootKey(organizationId: OrganizationIdInput) {
  return organizationDomainKey(organizationId, 'questions');
}

/** The query string of a list (and of its export: the same filters, no page). */
export function questionListQuery(params: QuestionListParams, withPage = true) {
  return {
    q: params.q || undefined,
    sort: params.sort,
    order: params.order,
    courseId: params.courseId,
    active: params.active ? undefined : false,
    ...(withPage ? { page: params.page, pageSize: QUESTIONS_PAGE_SIZE } : {}),
  };
}

/** `GET /api/questions`: one page of questions with their totals, and the totals of the whole filter. */
export function getQuestions(
  params: QuestionListParams,
  { signal }: { signal?: AbortSignal } = {},
): Promise<ListQuestionsResponse> {
  return api.get<ListQuestionsResponse>('/questions', { query: questionListQuery(params), signal });
}

export function questionsQueryOptions(organizationId: string | null | undefined, params: QuestionListParams) {
  return queryOptions({
    queryKey: [...questionsRootKey(organizationId), 'list', params] as const,
    queryFn: ({ signal }) => getQuestions(params, { signal }),
    enabled: Boolean(organizationId),
    placeholderData: keepPreviousData,
  });
}

export function useQuestions(organizationId: string | null | undefined, params: QuestionListParams) {
  return useQuery(questionsQueryOptions(organizationId, params));
}

/** `GET /api/courses/:courseId/questions`: one course's questions and the course. */
export function getCourseQuestions(
  courseId: string,
  params: QuestionListParams,
  { signal }: { signal?: AbortSignal } = {},
): Promise<ListCourseQuestionsResponse> {
  return api.get<ListCourseQuestionsResponse>(`/courses/${encodeURIComponent(courseId)}/questions`, {
    query: questionListQuery({ ...params, courseId: undefined }),
    signal,
  });
}

export function courseQuestionsQueryOptions(
  organizationId: string | null | undefined,
  courseId: string,
  params: QuestionListParams,
) {
  return queryOptions({
    queryKey: [...questionsRootKey(organizationId), 'course', courseId, params] as const,
    queryFn: ({ signal }) => getCourseQuestions(courseId, params, { signal }),
    enabled: Boolean(organizationId),
    placeholderData: keepPreviousData,
  });
}

export function useCourseQuestions(
  organizationId: string | null | undefined,
  courseId: string,
  params: QuestionListParams,
) {
  return useQuery(courseQuestionsQueryOptions(organizationId, courseId, params));
}

/** `GET /api/questions/courses`: the courses with (active or hidden) questions, for the course filter. */
export async function getQuestionCourses(
  active: boolean,
  { signal }: { signal?: AbortSignal } = {},
): Promise<QuestionCourseOption[]> {
  const body = await api.get<ListQuestionCoursesResponse>('/questions/courses', {
    query: { active: active ? undefined : false },
    signal,
  });
  return body.courses;
}

export function questionCoursesQueryOptions(organizationId: string | null | undefined, active: boolean) {
  return queryOptions({
    queryKey: [...questionsRootKey(organizationId), 'courses', { active }] as const,
    queryFn: ({ signal }) => getQuestionCourses(active, { signal }),
    enabled: Boolean(organizationId),
    staleTime: 60_000,
  });
}

export function useQuestionCourses(organizationId: string | null | undefined, active: boolean) {
  return useQuery(questionCoursesQueryOptions(organizationId, active));
}
