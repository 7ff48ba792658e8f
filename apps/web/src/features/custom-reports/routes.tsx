import type { RouteObject } from 'react-router';

import { paths } from '@/config/paths';

/** The signed-in routes of custom reports (lazy modules, mounted under the auth guard). */
export const customReportRoutes: RouteObject[] = [
  {
    path: paths.customReports.list.path,
    lazy: async () => ({ Component: (await import('./components/custom-reports-page')).CustomReportsPage }),
  },
  {
    path: paths.customReports.create.path,
    lazy: async () => ({ Component: (await import('./components/report-builder-page')).CreateReportPage }),
  },
  {
    path: paths.customReports.edit.path,
    lazy: async () => ({ Component: (await import('./components/report-builder-page')).EditReportPage }),
  },
  {
    path: paths.customReports.view.path,
    lazy: async () => ({ Component: (await import('./components/report-view-page')).ReportViewPage }),
  },
  {
    path: paths.customReports.aiGenerator.path,
    lazy: async () => ({ Component: (await import('./components/ai-generator-page')).AiGeneratorPage }),
  },
];

// The app shell reads `handle.shared` to leave out its chrome.
const sharedHandle = { shared: true };

/** `/public-reports/:token`: no sign-in, no sidebar or navbar (a shared route). */
export const publicReportRoutes: RouteObject[] = [
  {
    path: paths.customReports.public.path,
    handle: sharedHandle,
    lazy: async () => ({ Component: (await import('./components/public-report-page')).PublicReportPage }),
  },
];
