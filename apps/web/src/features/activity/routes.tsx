import type { QueryClient } from '@tanstack/react-query';
import type { RouteObject } from 'react-router';

import { paths } from '@/config/paths';
import { organizationLoader } from '@/lib/route-loaders';

import { activityQueryOptions } from './api/get-activity';
import { activityActorsQueryOptions } from './api/get-activity-actors';
import { readActivityFilters, toActivityParams } from './components/use-activity-filters';

/**
 * The signed-in routes of this feature (lazy modules). The app router mounts
 * them under the auth guard; a path listed here replaces its placeholder screen.
 * The loader prefetches the feed and its people filter with the page's own
 * query options (see `organizationLoader`).
 */
export function activityRoutes(queryClient: QueryClient): RouteObject[] {
  return [
    {
      path: paths.activity.path,
      loader: organizationLoader(queryClient, ({ organizationId, searchParams, prefetch }) => {
        prefetch(activityQueryOptions(organizationId, toActivityParams(readActivityFilters(searchParams))));
        prefetch(activityActorsQueryOptions(organizationId));
      }),
      lazy: async () => ({
        Component: (await import('./components/activity-page')).ActivityPage,
      }),
    },
  ];
}
