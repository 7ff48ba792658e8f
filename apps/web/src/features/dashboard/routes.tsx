import type { RouteObject } from 'react-router';

import { paths } from '@/config/paths';

/**
 * The signed-in routes of this feature (lazy modules). The app router mounts
 * them under the auth guard; a path listed here replaces its placeholder screen.
 */
export const dashboardRoutes: RouteObject[] = [
  {
    path: paths.dashboard.path,
    lazy: async () => ({
      Component: (await import('./components/dashboard-page')).DashboardPage,
    }),
  },
];
