import type { QueryClient } from '@tanstack/react-query';
import type { RouteObject } from 'react-router';

import { paths } from '@/config/paths';
import { organizationLoader } from '@/lib/route-loaders';

// The loader's body and what it imports (query options, contracts) load on
// demand, beside the page's code, never with the main chunk.
const prefetches = () => import('./prefetch');

/**
 * The signed-in routes of this feature (lazy modules). The app router mounts
 * them under the auth guard; a path listed here replaces its placeholder screen.
 * The loader prefetches the feed and its people filter with the page's own
 * query options (see `organizationLoader` and `./prefetch`).
 */
export function activityRoutes(queryClient: QueryClient): RouteObject[] {
  return [
    {
      path: paths.activity.path,
      loader: organizationLoader(queryClient, async () => (await prefetches()).activityFeed),
      lazy: async () => ({
        Component: (await import('./components/activity-page')).ActivityPage,
      }),
    },
  ];
}
