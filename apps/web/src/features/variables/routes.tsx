import type { RouteObject } from 'react-router';

import { paths } from '@/config/paths';

/**
 * The signed-in routes of this feature (lazy modules). The app router mounts
 * them under the auth guard; a path listed here replaces its placeholder screen.
 */
export const variableRoutes: RouteObject[] = [
  {
    path: paths.variables.list.path,
    lazy: async () => ({ Component: (await import('./components/variables-page')).VariablesPage }),
  },
];

/** The course's variables; the app router mounts it inside the course layout (one header). */
export const courseVariableRoutes: RouteObject[] = [
  {
    path: paths.courses.variables.path,
    lazy: async () => ({
      Component: (await import('./components/course-variables-page')).CourseVariablesPage,
    }),
  },
];
