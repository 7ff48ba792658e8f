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
export function questionRoutes(queryClient: QueryClient): RouteObject[] {
  return [
    {
      path: paths.questions.list.path,
      loader: organizationLoader(queryClient, async () => (await prefetches()).questionList),
      lazy: async () => ({ Component: (await import('./components/questions-page')).QuestionsPage }),
    },
  ];
}

/** The course's questions; the app router mounts it inside the course layout (one header). */
export function courseQuestionRoutes(queryClient: QueryClient): RouteObject[] {
  return [
    {
      path: paths.courses.questions.path,
      loader: organizationLoader(queryClient, async () => (await prefetches()).courseQuestionList),
      lazy: async () => ({
        Component: (await import('./components/course-questions-page')).CourseQuestionsPage,
      }),
    },
  ];
}
