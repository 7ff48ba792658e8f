import {
  LEARNER_COURSE_DEFAULT_SORT,
  LEARNER_COURSE_SORT_KEYS,
  LEARNER_DEFAULT_SORT,
  LEARNER_RESPONSE_DEFAULT_SORT,
  LEARNER_RESPONSE_SORT_KEYS,
  LEARNER_SORT_KEYS,
  LEARNER_VARIABLE_DEFAULT_SORT,
  LEARNER_VARIABLE_SORT_KEYS,
} from '@courselens/contracts';
import type { QueryClient } from '@tanstack/react-query';
import type { RouteObject } from 'react-router';

import { paths } from '@/config/paths';
import { organizationLoader, type OrganizationPrefetchRoute } from '@/lib/route-loaders';
import { readListParams } from '@/lib/use-list-params';

import { learnerQueryOptions } from './api/get-learner';
import { learnerCoursesQueryOptions } from './api/get-learner-courses';
import { learnerResponsesQueryOptions } from './api/get-learner-responses';
import {
  learnerCourseVariablesQueryOptions,
  learnerVariablesQueryOptions,
} from './api/get-learner-variables';
import { learnersQueryOptions } from './api/get-learners';

/**
 * A learner tab's loader: the learner (the header every tab shares) and the
 * tab's own list, started together.
 */
function learnerTabLoader(
  queryClient: QueryClient,
  prefetchTab: (route: OrganizationPrefetchRoute & { learnerId: string }) => void,
) {
  return organizationLoader(queryClient, (route) => {
    const learnerId = route.params.learnerId ?? '';
    route.prefetch(learnerQueryOptions(route.organizationId, learnerId));
    prefetchTab({ ...route, learnerId });
  });
}

/**
 * The signed-in routes of this feature (lazy modules). The app router mounts
 * them under the auth guard; a path listed here replaces its placeholder screen.
 * The learner pages are flat routes that share `LearnerLayout` (header and tabs).
 * Each loader prefetches its page's first screen with the page's own query
 * options (see `organizationLoader`).
 */
export function learnerRoutes(queryClient: QueryClient): RouteObject[] {
  return [
    {
      path: paths.learners.list.path,
      loader: organizationLoader(queryClient, ({ organizationId, searchParams, prefetch }) => {
        const params = readListParams(searchParams, LEARNER_SORT_KEYS, LEARNER_DEFAULT_SORT);
        prefetch(learnersQueryOptions(organizationId, params));
      }),
      lazy: async () => ({ Component: (await import('./components/learners-page')).LearnersPage }),
    },
    {
      path: paths.learners.courses.path,
      loader: learnerTabLoader(queryClient, ({ organizationId, learnerId, searchParams, prefetch }) => {
        const params = readListParams(searchParams, LEARNER_COURSE_SORT_KEYS, LEARNER_COURSE_DEFAULT_SORT);
        prefetch(learnerCoursesQueryOptions(organizationId, learnerId, params));
      }),
      lazy: async () => ({
        Component: (await import('./components/learner-courses-page')).LearnerCoursesPage,
      }),
    },
    {
      path: paths.learners.variables.path,
      loader: learnerTabLoader(queryClient, ({ organizationId, learnerId, searchParams, prefetch }) => {
        const params = readListParams(
          searchParams,
          LEARNER_VARIABLE_SORT_KEYS,
          LEARNER_VARIABLE_DEFAULT_SORT,
        );
        prefetch(learnerVariablesQueryOptions(organizationId, learnerId, params));
      }),
      lazy: async () => ({
        Component: (await import('./components/learner-variables-page')).LearnerVariablesPage,
      }),
    },
    {
      path: paths.learners.responses.path,
      loader: learnerTabLoader(queryClient, ({ organizationId, learnerId, searchParams, prefetch }) => {
        const params = readListParams(
          searchParams,
          LEARNER_RESPONSE_SORT_KEYS,
          LEARNER_RESPONSE_DEFAULT_SORT,
        );
        prefetch(learnerResponsesQueryOptions(organizationId, learnerId, params));
      }),
      lazy: async () => ({
        Component: (await import('./components/learner-responses-page')).LearnerResponsesPage,
      }),
    },
    {
      path: paths.learners.courseVariables.path,
      loader: learnerTabLoader(
        queryClient,
        ({ organizationId, learnerId, params, searchParams, prefetch }) => {
          const list = readListParams(
            searchParams,
            LEARNER_VARIABLE_SORT_KEYS,
            LEARNER_VARIABLE_DEFAULT_SORT,
          );
          prefetch(
            learnerCourseVariablesQueryOptions(organizationId, learnerId, params.courseId ?? '', list),
          );
        },
      ),
      lazy: async () => ({
        Component: (await import('./components/learner-course-variables-page')).LearnerCourseVariablesPage,
      }),
    },
  ];
}
