import type { QueryClient } from '@tanstack/react-query';
import type { RouteObject } from 'react-router';

import { paths } from '@/config/paths';
import { organizationLoader } from '@/lib/route-loaders';

// The loaders' bodies and what they import (query options, contracts) load
// on demand, beside the page's code, never with the main chunk.
const prefetches = () => import('./prefetch');

/**
 * The signed-in routes of pipelines (lazy modules, mounted under the auth
 * guard): the list, and the editor with its Runs tab (`?tab=runs`). Each
 * loader prefetches its page's first screen with the page's own query
 * options. The generator (`/pipelines/ai-generator`) is another screen's.
 */
export function pipelineRoutes(queryClient: QueryClient): RouteObject[] {
  return [
    {
      path: paths.pipelines.list.path,
      loader: organizationLoader(queryClient, async () => (await prefetches()).pipelineList),
      lazy: async () => ({ Component: (await import('./components/pipelines-page')).PipelinesPage }),
    },
    {
      path: paths.pipelines.editor.path,
      loader: organizationLoader(queryClient, async () => (await prefetches()).pipelineEditor),
      lazy: async () => ({
        Component: (await import('./components/pipeline-editor-page')).PipelineEditorPage,
      }),
    },
  ];
}
