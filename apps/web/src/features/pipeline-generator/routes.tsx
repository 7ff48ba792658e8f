import type { QueryClient } from '@tanstack/react-query';
import type { RouteObject } from 'react-router';

import { paths } from '@/config/paths';

/**
 * `/pipelines/ai-generator` (a lazy module, mounted under the auth guard).
 * It reads nothing before the person types, so it has no loader.
 */
export function pipelineGeneratorRoutes(_queryClient: QueryClient): RouteObject[] {
  return [
    {
      path: paths.pipelines.aiGenerator.path,
      lazy: async () => ({
        Component: (await import('./components/pipeline-generator-page')).PipelineGeneratorPage,
      }),
    },
  ];
}
