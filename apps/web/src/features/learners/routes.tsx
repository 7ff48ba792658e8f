import type { QueryClient } from '@tanstack/react-query';
import type { RouteObject } from 'react-router';

import { paths } from '@/config/paths';
import { organizationLoader } from '@/lib/route-loaders';

// The loaders' bodies and what they import (query options, contracts) load
// on demand, beside the page's code, never with the main chunk.
const prefetches = () => import('./prefetch');

/**
 * The signed-in routes of this feature (lazy modules). The app router mounts
 * them under the auth guard; a path listed here replaces its placeholder screen.
 * The learner pages are flat routes that share `LearnerLayout` (header and tabs).
 * Each loader prefetches its page's first screen with the page's own query
 * options (see `organizationLoader` and `./prefetch`); a learner tab's, the
 * learner and the tab's list together.
 */
export function learnerRoutes(queryClient: QueryClient): RouteObject[] {
  return [
    {
      path: paths.learners.list.path,
      loader: organizationLoader(queryClient, async () => (await prefetches()).learnerList),
      lazy: async () => ({ Component: (await import('./components/learners-page')).LearnersPage }),
    },
    {
      path: paths.learners.courses.path,
      loader: organizationLoader(queryClient, async () => (await prefetches()).learnerCourses),
      lazy: async () => ({
        Component: (await import('./components/learner-courses-page')).LearnerCoursesPage,
      }),
    },
    {
      path: paths.learners.variables.path,
      loader: organizationLoader(queryClient, async () => (await prefetches()).learnerVariables),
      lazy: async () => ({
        Component: (await import('./components/learner-variables-page')).LearnerVariablesPage,
      }),
    },
    {
      path: paths.learners.responses.path,
      loader: organizationLoader(queryClient, async () => (await prefetches()).learnerResponses),
      lazy: async () => ({
        Component: (await import('./components/learner-responses-page')).LearnerResponsesPage,
      }),
    },
    {
      path: paths.learners.courseVariables.path,
      loader: organizationLoader(queryClient, async () => (await prefetches()).learnerCourseVariables),
      lazy: async () => ({
        Component: (await import('./components/learner-course-variables-page')).LearnerCourseVariablesPage,
      }),
    },
  ];
}
