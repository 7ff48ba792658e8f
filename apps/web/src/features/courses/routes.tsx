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
 * Each loader prefetches its page's first screen with the page's own query
 * options (see `organizationLoader` and `./prefetch`).
 */
export function courseRoutes(queryClient: QueryClient): RouteObject[] {
  return [
    {
      path: paths.courses.list.path,
      loader: organizationLoader(queryClient, async () => (await prefetches()).courseList),
      lazy: async () => ({ Component: (await import('./components/courses-page')).CoursesPage }),
    },
  ];
}

/**
 * The loader of the course layout (its header): the course itself. It runs
 * beside the tab's loader, so the course and the tab's list load together.
 */
export function courseLayoutLoader(queryClient: QueryClient) {
  return organizationLoader(queryClient, async () => (await prefetches()).courseLayout);
}

/** The course's own screens; the app router mounts them inside the course layout (one header). */
export function courseSectionRoutes(queryClient: QueryClient): RouteObject[] {
  return [
    {
      path: paths.courses.learners.path,
      loader: organizationLoader(queryClient, async () => (await prefetches()).courseLearners),
      lazy: async () => ({
        Component: (await import('./components/course-learners-page')).CourseLearnersPage,
      }),
    },
    {
      path: paths.courses.broadcasts.path,
      loader: organizationLoader(queryClient, async () => (await prefetches()).courseBroadcasts),
      lazy: async () => ({ Component: (await import('./components/broadcasts-page')).BroadcastsPage }),
    },
  ];
}
