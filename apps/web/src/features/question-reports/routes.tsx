import type { QueryClient } from '@tanstack/react-query';
import type { ComponentType } from 'react';
import type { LoaderFunction, RouteObject } from 'react-router';

import { paths, reportViews, type ReportView } from '@/config/paths';
import {
  organizationLoader,
  prefetchLoader,
  type OrganizationPrefetchRoute,
  type PrefetchRoute,
} from '@/lib/route-loaders';

import type { QuestionReportTarget } from './api/report-target';

// The loaders' bodies and what they import (query options, contracts) load
// on demand, beside the page's code, never with the main chunk.
const prefetches = () => import('./prefetch');

/** A view's loader: an organization's report, or a shared one (read by its token, no organization). */
function viewLoader(
  queryClient: QueryClient,
  kind: QuestionReportTarget['kind'],
  view: ReportView,
): LoaderFunction {
  return kind === 'shared'
    ? prefetchLoader(queryClient, async () => {
        const { prefetchView } = await prefetches();
        return (route: PrefetchRoute) => prefetchView(route, kind, view, null);
      })
    : organizationLoader(queryClient, async () => {
        const { prefetchView } = await prefetches();
        return (route: OrganizationPrefetchRoute) => prefetchView(route, kind, view, route.organizationId);
      });
}

/** One route per view (its path names the view), so each replaces its placeholder screen. */
function perView(
  queryClient: QueryClient,
  template: string,
  kind: QuestionReportTarget['kind'],
  load: () => Promise<ComponentType<{ view: ReportView }>>,
): RouteObject[] {
  return reportViews.map((view) => ({
    path: template.replace(':view', view),
    loader: viewLoader(queryClient, kind, view),
    lazy: async () => {
      const Page = await load();
      return { Component: () => <Page view={view} /> };
    },
  }));
}

export function questionReportRoutes(queryClient: QueryClient): RouteObject[] {
  return perView(
    queryClient,
    paths.questions.report.path,
    'question',
    async () => (await import('./components/question-report-pages')).QuestionReportPage,
  );
}

/** Public routes (shared views: no sign-in, no navbar or sidebar; `handle.shared`). */
export function sharedQuestionReportRoutes(queryClient: QueryClient): RouteObject[] {
  return perView(
    queryClient,
    paths.shared.question.path,
    'shared',
    async () => (await import('./components/question-report-pages')).SharedQuestionReportPage,
  ).map((route) => ({ ...route, handle: { shared: true } }));
}
