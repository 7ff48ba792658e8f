import type { RouteObject } from 'react-router';

import { paths } from '@/config/paths';

/**
 * The signed-in routes of this feature (lazy modules). The app router mounts
 * them under the auth guard; a path listed here replaces its placeholder screen.
 * The learner pages are flat routes that share `LearnerLayout` (header and tabs).
 */
export const learnerRoutes: RouteObject[] = [
  {
    path: paths.learners.list.path,
    lazy: async () => ({ Component: (await import('./components/learners-page')).LearnersPage }),
  },
  {
    path: paths.learners.courses.path,
    lazy: async () => ({
      Component: (await import('./components/learner-courses-page')).LearnerCoursesPage,
    }),
  },
  {
    path: paths.learners.variables.path,
    lazy: async () => ({
      Component: (await import('./components/learner-variables-page')).LearnerVariablesPage,
    }),
  },
  {
    path: paths.learners.responses.path,
    lazy: async () => ({
      Component: (await import('./components/learner-responses-page')).LearnerResponsesPage,
    }),
  },
  {
    path: paths.learners.courseVariables.path,
    lazy: async () => ({
      Component: (await import('./components/learner-course-variables-page')).LearnerCourseVariablesPage,
    }),
  },
];
