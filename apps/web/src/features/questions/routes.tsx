import {
  COURSE_QUESTION_DEFAULT_SORT,
  QUESTION_DEFAULT_SORT,
  QUESTION_SORT_KEYS,
} from '@courselens/contracts';
import type { QueryClient } from '@tanstack/react-query';
import type { RouteObject } from 'react-router';

import { paths } from '@/config/paths';
import { organizationLoader } from '@/lib/route-loaders';

import {
  courseQuestionsQueryOptions,
  questionCoursesQueryOptions,
  questionsQueryOptions,
} from './api/get-questions';
import { readQuestionFilters } from './components/use-question-filters';

/**
 * The signed-in routes of this feature (lazy modules). The app router mounts
 * them under the auth guard; a path listed here replaces its placeholder screen.
 * Each loader prefetches its page's first screen with the page's own query
 * options (see `organizationLoader`).
 */
export function questionRoutes(queryClient: QueryClient): RouteObject[] {
  return [
    {
      path: paths.questions.list.path,
      loader: organizationLoader(queryClient, ({ organizationId, searchParams, prefetch }) => {
        const params = readQuestionFilters(searchParams, QUESTION_SORT_KEYS, QUESTION_DEFAULT_SORT);
        prefetch(questionsQueryOptions(organizationId, params));
        prefetch(questionCoursesQueryOptions(organizationId, params.active));
      }),
      lazy: async () => ({ Component: (await import('./components/questions-page')).QuestionsPage }),
    },
  ];
}

/** The course's questions; the app router mounts it inside the course layout (one header). */
export function courseQuestionRoutes(queryClient: QueryClient): RouteObject[] {
  return [
    {
      path: paths.courses.questions.path,
      loader: organizationLoader(queryClient, ({ organizationId, params, searchParams, prefetch }) => {
        const list = {
          ...readQuestionFilters(searchParams, QUESTION_SORT_KEYS, COURSE_QUESTION_DEFAULT_SORT),
          courseId: undefined,
        };
        prefetch(courseQuestionsQueryOptions(organizationId, params.courseId ?? '', list));
      }),
      lazy: async () => ({
        Component: (await import('./components/course-questions-page')).CourseQuestionsPage,
      }),
    },
  ];
}
