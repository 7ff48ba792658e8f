import {
  COURSE_LEARNER_LIST_DEFAULTS,
  COURSE_LEARNER_SORT_KEYS,
  COURSE_LIST_DEFAULTS,
  COURSE_SORT_KEYS,
} from '@courselens/contracts';
import type { QueryClient } from '@tanstack/react-query';
import type { RouteObject } from 'react-router';

import { paths } from '@/config/paths';
import { organizationLoader } from '@/lib/route-loaders';
import { readListParams } from '@/lib/use-list-params';

import { broadcastsPageOf, broadcastsQueryOptions } from './api/get-broadcasts';
import { courseQueryOptions } from './api/get-course';
import { courseLearnersQueryOptions } from './api/get-course-learners';
import { coursesQueryOptions } from './api/get-courses';

/**
 * The signed-in routes of this feature (lazy modules). The app router mounts
 * them under the auth guard; a path listed here replaces its placeholder screen.
 * Each loader prefetches its page's first screen with the page's own query
 * options (see `organizationLoader`).
 */
export function courseRoutes(queryClient: QueryClient): RouteObject[] {
  return [
    {
      path: paths.courses.list.path,
      loader: organizationLoader(queryClient, ({ organizationId, searchParams, prefetch }) => {
        const params = readListParams(searchParams, COURSE_SORT_KEYS, COURSE_LIST_DEFAULTS);
        prefetch(coursesQueryOptions(organizationId, params));
      }),
      lazy: async () => ({ Component: (await import('./components/courses-page')).CoursesPage }),
    },
  ];
}

/**
 * The loader of the course layout (its header): the course itself. It runs
 * beside the tab's loader, so the course and the tab's list load together.
 */
export function courseLayoutLoader(queryClient: QueryClient) {
  return organizationLoader(queryClient, ({ organizationId, params, prefetch }) => {
    prefetch(courseQueryOptions(organizationId, params.courseId ?? ''));
  });
}

/** The course's own screens; the app router mounts them inside the course layout (one header). */
export function courseSectionRoutes(queryClient: QueryClient): RouteObject[] {
  return [
    {
      path: paths.courses.learners.path,
      loader: organizationLoader(queryClient, ({ organizationId, params, searchParams, prefetch }) => {
        const list = readListParams(searchParams, COURSE_LEARNER_SORT_KEYS, COURSE_LEARNER_LIST_DEFAULTS);
        prefetch(courseLearnersQueryOptions(organizationId, params.courseId ?? '', list));
      }),
      lazy: async () => ({
        Component: (await import('./components/course-learners-page')).CourseLearnersPage,
      }),
    },
    {
      path: paths.courses.broadcasts.path,
      loader: organizationLoader(queryClient, ({ organizationId, params, searchParams, prefetch }) => {
        prefetch(
          broadcastsQueryOptions(organizationId, params.courseId ?? '', broadcastsPageOf(searchParams)),
        );
      }),
      lazy: async () => ({ Component: (await import('./components/broadcasts-page')).BroadcastsPage }),
    },
  ];
}
