import type { ComponentType } from 'react';
import type { RouteObject } from 'react-router';

import { paths, reportViews, type ReportView } from '@/config/paths';

/** One route per view (its path names the view), so each replaces its placeholder screen. */
function perView(template: string, load: () => Promise<ComponentType<{ view: ReportView }>>): RouteObject[] {
  return reportViews.map((view) => ({
    path: template.replace(':view', view),
    lazy: async () => {
      const Page = await load();
      return { Component: () => <Page view={view} /> };
    },
  }));
}

/** Signed-in routes: a variable across the organization, and one course's variable. */
export const variableReportRoutes: RouteObject[] = [
  ...perView(
    paths.variables.report.path,
    async () => (await import('./components/variable-report-pages')).VariableReportPage,
  ),
  ...perView(
    paths.variables.courseReport.path,
    async () => (await import('./components/variable-report-pages')).CourseVariableReportPage,
  ),
];

/** Public routes (shared views: no sign-in, no navbar or sidebar; `handle.shared`). */
export const sharedVariableReportRoutes: RouteObject[] = perView(
  paths.shared.courseVariable.path,
  async () => (await import('./components/variable-report-pages')).SharedVariableReportPage,
).map((route) => ({ ...route, handle: { shared: true } }));
