import type { QueryClient } from '@tanstack/react-query';
import type { RouteObject } from 'react-router';

import { paths } from '@/config/paths';
import { organizationLoader } from '@/lib/route-loaders';

import { dashboardQueryOptions } from './api/get-dashboard';
import { parsePeriod } from './components/parse-period';

/**
 * The signed-in routes of this feature (lazy modules). The app router mounts
 * them under the auth guard; a path listed here replaces its placeholder screen.
 * The loader prefetches the page's figures with the page's own query options
 * (see `organizationLoader`).
 */
export function dashboardRoutes(queryClient: QueryClient): RouteObject[] {
  return [
    {
      path: paths.dashboard.path,
      loader: organizationLoader(queryClient, ({ organizationId, searchParams, prefetch }) => {
        prefetch(dashboardQueryOptions(organizationId, parsePeriod(searchParams.get('days'))));
      }),
      lazy: async () => ({
        Component: (await import('./components/dashboard-page')).DashboardPage,
      }),
    },
  ];
}
