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
 * Each loader prefetches the summary with the page's own query options (see
 * `organizationLoader` and `./prefetch`).
 */
export function aiSummaryRoutes(queryClient: QueryClient): RouteObject[] {
  return [
    {
      path: paths.variables.courseAiSummary.path,
      loader: organizationLoader(queryClient, async () => (await prefetches()).courseVariableSummary),
      lazy: async () => ({
        Component: (await import('./components/ai-summary-pages')).CourseVariableAiSummaryPage,
      }),
    },
    {
      path: paths.variables.aiSummary.path,
      loader: organizationLoader(queryClient, async () => (await prefetches()).variableSummary),
      lazy: async () => ({
        Component: (await import('./components/ai-summary-pages')).VariableAiSummaryPage,
      }),
    },
  ];
}
