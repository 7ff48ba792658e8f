import type { QueryClient } from '@tanstack/react-query';
import type { RouteObject } from 'react-router';

import { paths } from '@/config/paths';
import { organizationLoader } from '@/lib/route-loaders';

import {
  aiSummaryQueryOptions,
  courseVariableSummarySource,
  variableSummarySource,
} from './api/get-ai-summary';

/**
 * The signed-in routes of this feature (lazy modules). The app router mounts
 * them under the auth guard; a path listed here replaces its placeholder screen.
 * Each loader prefetches the summary with the page's own query options (see
 * `organizationLoader`).
 */
export function aiSummaryRoutes(queryClient: QueryClient): RouteObject[] {
  return [
    {
      path: paths.variables.courseAiSummary.path,
      loader: organizationLoader(queryClient, ({ organizationId, params, prefetch }) => {
        prefetch(aiSummaryQueryOptions(organizationId, courseVariableSummarySource(params)));
      }),
      lazy: async () => ({
        Component: (await import('./components/ai-summary-pages')).CourseVariableAiSummaryPage,
      }),
    },
    {
      path: paths.variables.aiSummary.path,
      loader: organizationLoader(queryClient, ({ organizationId, params, prefetch }) => {
        const source = variableSummarySource(params);
        if (source) prefetch(aiSummaryQueryOptions(organizationId, source));
      }),
      lazy: async () => ({
        Component: (await import('./components/ai-summary-pages')).VariableAiSummaryPage,
      }),
    },
  ];
}
