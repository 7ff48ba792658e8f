import {
  COURSE_QUESTION_DEFAULT_SORT,
  QUESTION_DEFAULT_SORT,
  QUESTION_SORT_KEYS,
} from '@courselens/contracts';

import type { OrganizationPrefetchRoute } from '@/lib/route-loaders';

import {
  courseQuestionsQueryOptions,
  questionCoursesQueryOptions,
  questionsQueryOptions,
} from './api/get-questions';
import { readQuestionFilters } from './components/use-question-filters';

/*
 * What each questions route starts before its page's code arrives, with the
 * page's own query options. Loaded by `routes.tsx` on demand (its own chunk),
 * so the contracts and query options stay out of the main chunk.
 */

/** `/questions`: the list its URL asks for, and the course filter's options. */
export function questionList({ organizationId, searchParams, prefetch }: OrganizationPrefetchRoute) {
  const params = readQuestionFilters(searchParams, QUESTION_SORT_KEYS, QUESTION_DEFAULT_SORT);
  prefetch(questionsQueryOptions(organizationId, params));
  prefetch(questionCoursesQueryOptions(organizationId, params.active));
}

/** `/course/:courseId/questions`: the course's questions its URL asks for. */
export function courseQuestionList({
  organizationId,
  params,
  searchParams,
  prefetch,
}: OrganizationPrefetchRoute) {
  const list = {
    ...readQuestionFilters(searchParams, QUESTION_SORT_KEYS, COURSE_QUESTION_DEFAULT_SORT),
    courseId: undefined,
  };
  prefetch(courseQuestionsQueryOptions(organizationId, params.courseId ?? '', list));
}
