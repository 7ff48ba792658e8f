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

export const questionReportRoutes: RouteObject[] = perView(
  paths.questions.report.path,
  async () => (await import('./components/question-report-pages')).QuestionReportPage,
);

/** Public routes (shared views: no sign-in, no navbar or sidebar; `handle.shared`). */
export const sharedQuestionReportRoutes: RouteObject[] = perView(
  paths.shared.question.path,
  async () => (await import('./components/question-report-pages')).SharedQuestionReportPage,
).map((route) => ({ ...route, handle: { shared: true } }));
