import type { QueryClient } from '@tanstack/react-query';
import type { RouteObject } from 'react-router';

import { paths } from '@/config/paths';
import { organizationLoader, prefetchLoader } from '@/lib/route-loaders';

// The loaders' bodies and what they import (query options, contracts) load
// on demand, beside the page's code, never with the main chunk.
const prefetches = () => import('./prefetch');

/**
 * The signed-in routes of custom reports (lazy modules, mounted under the
 * auth guard). Each loader prefetches its page's first screen with the
 * page's own query options (see `organizationLoader` and `./prefetch`): the
 * builder's report and its catalog together, a report and its data together.
 */
export function customReportRoutes(queryClient: QueryClient): RouteObject[] {
  return [
    {
      path: paths.customReports.list.path,
      loader: organizationLoader(queryClient, async () => (await prefetches()).reportList),
      lazy: async () => ({ Component: (await import('./components/custom-reports-page')).CustomReportsPage }),
    },
    {
      path: paths.customReports.create.path,
      loader: organizationLoader(queryClient, async () => (await prefetches()).reportCatalog),
      lazy: async () => ({ Component: (await import('./components/report-builder-page')).CreateReportPage }),
    },
    {
      path: paths.customReports.edit.path,
      loader: organizationLoader(queryClient, async () => (await prefetches()).reportEditor),
      lazy: async () => ({ Component: (await import('./components/report-builder-page')).EditReportPage }),
    },
    {
      path: paths.customReports.view.path,
      loader: organizationLoader(queryClient, async () => (await prefetches()).reportView),
      lazy: async () => ({ Component: (await import('./components/report-view-page')).ReportViewPage }),
    },
    {
      path: paths.customReports.aiGenerator.path,
      loader: organizationLoader(queryClient, async () => (await prefetches()).reportCatalog),
      lazy: async () => ({ Component: (await import('./components/ai-generator-page')).AiGeneratorPage }),
    },
  ];
}

// The app shell reads `handle.shared` to leave out its chrome.
const sharedHandle = { shared: true };

/** `/public-reports/:token`: no sign-in, no sidebar or navbar (a shared route). */
export function publicReportRoutes(queryClient: QueryClient): RouteObject[] {
  return [
    {
      path: paths.customReports.public.path,
      handle: sharedHandle,
      loader: prefetchLoader(queryClient, async () => (await prefetches()).publicReport),
      lazy: async () => ({ Component: (await import('./components/public-report-page')).PublicReportPage }),
    },
  ];
}
