import type { QueryClient } from '@tanstack/react-query';
import type { RouteObject } from 'react-router';

import { paths } from '@/config/paths';
import { organizationLoader } from '@/lib/route-loaders';

import { variableCoursesQueryOptions } from './api/get-variable-courses';
import { courseVariablesQueryOptions, variablesQueryOptions } from './api/get-variables';
import { readVariableFilters } from './components/use-variable-filters';

/**
 * The signed-in routes of this feature (lazy modules). The app router mounts
 * them under the auth guard; a path listed here replaces its placeholder screen.
 * Each loader prefetches its page's first screen with the page's own query
 * options (see `organizationLoader`).
 */
export function variableRoutes(queryClient: QueryClient): RouteObject[] {
  return [
    {
      path: paths.variables.list.path,
      loader: organizationLoader(queryClient, ({ organizationId, searchParams, prefetch }) => {
        prefetch(variablesQueryOptions(organizationId, readVariableFilters(searchParams).params));
        prefetch(variableCoursesQueryOptions(organizationId));
      }),
      lazy: async () => ({ Component: (await import('./components/variables-page')).VariablesPage }),
    },
  ];
}

/** The course's variables; the app router mounts it inside the course layout (one header). */
export function courseVariableRoutes(queryClient: QueryClient): RouteObject[] {
  return [
    {
      path: paths.courses.variables.path,
      loader: organizationLoader(queryClient, ({ organizationId, params, searchParams, prefetch }) => {
        const list = { ...readVariableFilters(searchParams).params, courseId: undefined };
        prefetch(courseVariablesQueryOptions(organizationId, params.courseId ?? '', list));
      }),
      lazy: async () => ({
        Component: (await import('./components/course-variables-page')).CourseVariablesPage,
      }),
    },
  ];
}
