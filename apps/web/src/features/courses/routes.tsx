import type { RouteObject } from 'react-router';

import { paths } from '@/config/paths';

/**
 * The signed-in routes of this feature (lazy modules). The app router mounts
 * them under the auth guard; a path listed here replaces its placeholder screen.
 */
export const courseRoutes: RouteObject[] = [
  {
    path: paths.courses.list.path,
    lazy: async () => ({ Component: (await import('./components/courses-page')).CoursesPage }),
  },
];

/** The course's own screens; the app router mounts them inside the course layout (one header). */
export const courseSectionRoutes: RouteObject[] = [
  {
    path: paths.courses.learners.path,
    lazy: async () => ({ Component: (await import('./components/course-learners-page')).CourseLearnersPage }),
  },
  {
    path: paths.courses.broadcasts.path,
    lazy: async () => ({ Component: (await import('./components/broadcasts-page')).BroadcastsPage }),
  },
];
