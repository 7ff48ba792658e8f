import type { QueryClient } from '@tanstack/react-query';
import type { RouteObject } from 'react-router';

import { paths } from '@/config/paths';
import { organizationLoader, prefetchLoader } from '@/lib/route-loaders';

import {
  publicReportQueryOptions,
  reportCatalogQueryOptions,
  reportDataQueryOptions,
  reportQueryOptions,
  reportsQueryOptions,
} from './api/custom-reports';
import { readReportListParams } from './components/report-list-params';

/**
 * The signed-in routes of custom reports (lazy modules, mounted under the
 * auth guard). Each loader prefetches its page's first screen with the
 * page's own query options (see `organizationLoader`): the builder's report
 * and its catalog together, a report and its data together.
 */
export function customReportRoutes(queryClient: QueryClient): RouteObject[] {
  return [
    {
      path: paths.customReports.list.path,
      loader: organizationLoader(queryClient, ({ organizationId, searchParams, prefetch }) => {
        prefetch(reportsQueryOptions(organizationId, readReportListParams(searchParams)));
      }),
      lazy: async () => ({ Component: (await import('./components/custom-reports-page')).CustomReportsPage }),
    },
    {
      path: paths.customReports.create.path,
      loader: organizationLoader(queryClient, ({ organizationId, prefetch }) => {
        prefetch(reportCatalogQueryOptions(organizationId));
      }),
      lazy: async () => ({ Component: (await import('./components/report-builder-page')).CreateReportPage }),
    },
    {
      path: paths.customReports.edit.path,
      loader: organizationLoader(queryClient, ({ organizationId, params, prefetch }) => {
        prefetch(reportQueryOptions(organizationId, params.id ?? ''));
        prefetch(reportCatalogQueryOptions(organizationId));
      }),
      lazy: async () => ({ Component: (await import('./components/report-builder-page')).EditReportPage }),
    },
    {
      path: paths.customReports.view.path,
      loader: organizationLoader(queryClient, ({ organizationId, params, prefetch }) => {
        prefetch(reportQueryOptions(organizationId, params.id ?? ''));
        prefetch(reportDataQueryOptions(organizationId, params.id ?? ''));
      }),
      lazy: async () => ({ Component: (await import('./components/report-view-page')).ReportViewPage }),
    },
    {
      path: paths.customReports.aiGenerator.path,
      loader: organizationLoader(queryClient, ({ organizationId, prefetch }) => {
        prefetch(reportCatalogQueryOptions(organizationId));
      }),
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
      loader: prefetchLoader(queryClient, ({ params, prefetch }) => {
        prefetch(publicReportQueryOptions(params.token ?? ''));
      }),
      lazy: async () => ({ Component: (await import('./components/public-report-page')).PublicReportPage }),
    },
  ];
}
