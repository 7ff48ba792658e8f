import type { QueryClient } from '@tanstack/react-query';
import type { ComponentType } from 'react';
import type { LoaderFunction, RouteObject } from 'react-router';

import { paths, reportViews, type ReportView } from '@/config/paths';
import { organizationLoader, prefetchLoader, type PrefetchRoute } from '@/lib/route-loaders';

import {
  questionChartQueryOptions,
  questionLeadersQueryOptions,
  questionReportQueryOptions,
} from './api/get-question-report';
import { questionShareQueryOptions } from './api/question-share';
import { questionReportTargetOf, type QuestionReportTarget } from './api/report-target';
import { readQuestionReportState } from './components/use-question-report-params';

/** Starts the one query a view shows, as the screen builds it (and, for members, the share settings). */
function prefetchView(
  { params, searchParams, prefetch }: PrefetchRoute,
  kind: QuestionReportTarget['kind'],
  view: ReportView,
  organizationId: string | null,
) {
  const target = questionReportTargetOf(kind, params, searchParams);
  if (!target) return;
  const state = readQuestionReportState(searchParams);
  if (view === 'report') prefetch(questionReportQueryOptions(organizationId, target, state.report));
  if (view === 'chart') prefetch(questionChartQueryOptions(organizationId, target, state.chart));
  if (view === 'leaders') prefetch(questionLeadersQueryOptions(organizationId, target, state.leaders));
  if (target.kind === 'question') prefetch(questionShareQueryOptions(organizationId, target.id));
}

/** A view's loader: an organization's report, or a shared one (read by its token, no organization). */
function viewLoader(
  queryClient: QueryClient,
  kind: QuestionReportTarget['kind'],
  view: ReportView,
): LoaderFunction {
  return kind === 'shared'
    ? prefetchLoader(queryClient, (route) => prefetchView(route, kind, view, null))
    : organizationLoader(queryClient, (route) => prefetchView(route, kind, view, route.organizationId));
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
