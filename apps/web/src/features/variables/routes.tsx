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
export function variableRoutes(queryClient: QueryClient): RouteObject[] {
  return [
    {
      path: paths.variables.list.path,
      loader: organizationLoader(queryClient, async () => (await prefetches()).variableList),
      lazy: async () => ({ Component: (await import('./components/variables-page')).VariablesPage }),
    },
  ];
}

/** The course's variables; the app router mounts it inside the course layout (one header). */
export function courseVariableRoutes(queryClient: QueryClient): RouteObject[] {
  return [
    {
      path: paths.courses.variables.path,
      loader: organizationLoader(queryClient, async () => (await prefetches()).courseVariableList),
      lazy: async () => ({
        Component: (await import('./components/course-variables-page')).CourseVariablesPage,
      }),
    },
  ];
}
