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
 * The loader prefetches the page's figures with the page's own query options
 * (see `organizationLoader` and `./prefetch`).
 */
export function dashboardRoutes(queryClient: QueryClient): RouteObject[] {
  return [
    {
      path: paths.dashboard.path,
      loader: organizationLoader(queryClient, async () => (await prefetches()).dashboardFigures),
      lazy: async () => ({
        Component: (await import('./components/dashboard-page')).DashboardPage,
      }),
    },
  ];
}
