import type { QueryClient } from '@tanstack/react-query';
import type { RouteObject } from 'react-router';

import { paths } from '@/config/paths';
import { organizationLoader } from '@/lib/route-loaders';

// The loaders' bodies and what they import (query options, contracts) load
// on demand, beside the page's code, never with the main chunk.
const prefetches = () => import('./prefetch');

/**
 * The signed-in routes of actions (lazy modules, mounted under the auth
 * guard); each loader prefetches its page's first screen with the page's
 * own query options (see `organizationLoader` and `./prefetch`).
 */
export function actionRoutes(queryClient: QueryClient): RouteObject[] {
  return [
    {
      path: paths.actions.list.path,
      loader: organizationLoader(queryClient, async () => (await prefetches()).actionList),
      lazy: async () => ({ Component: (await import('./components/actions-page')).ActionsPage }),
    },
    {
      path: paths.actions.create.path,
      loader: organizationLoader(queryClient, async () => (await prefetches()).actionCreate),
      lazy: async () => ({ Component: (await import('./components/action-editor-page')).CreateActionPage }),
    },
    {
      path: paths.actions.edit.path,
      loader: organizationLoader(queryClient, async () => (await prefetches()).actionEdit),
      lazy: async () => ({ Component: (await import('./components/action-editor-page')).EditActionPage }),
    },
  ];
}
