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

import type { VariableReportRoute } from './api/report-target';

// The loaders' bodies and what they import (query options, contracts) load
// on demand, beside the page's code, never with the main chunk.
const prefetches = () => import('./prefetch');

const sharedRoutes: readonly VariableReportRoute[] = ['shared', 'shared_chatbot_variable'];

/** A view's loader: an organization's report, or a shared one (read by its token, no organization). */
function viewLoader(queryClient: QueryClient, route: VariableReportRoute, view: ReportView): LoaderFunction {
  return sharedRoutes.includes(route)
    ? prefetchLoader(queryClient, async () => {
        const { prefetchView } = await prefetches();
        return (page: PrefetchRoute) => prefetchView(page, route, view, null);
      })
    : organizationLoader(queryClient, async () => {
        const { prefetchView } = await prefetches();
        return (page: OrganizationPrefetchRoute) => prefetchView(page, route, view, page.organizationId);
      });
}

/** One route per view (its path names the view), so each replaces its placeholder screen. */
function perView(
  queryClient: QueryClient,
  template: string,
  route: VariableReportRoute,
  load: () => Promise<ComponentType<{ view: ReportView }>>,
): RouteObject[] {
  return reportViews.map((view) => ({
    path: template.replace(':view', view),
    loader: viewLoader(queryClient, route, view),
    lazy: async () => {
      const Page = await load();
      return { Component: () => <Page view={view} /> };
    },
  }));
}

/** Signed-in routes: a variable across the organization, and one course's variable. */
export function variableReportRoutes(queryClient: QueryClient): RouteObject[] {
  return [
    ...perView(
      queryClient,
      paths.variables.report.path,
      'variable',
      async () => (await import('./components/variable-report-pages')).VariableReportPage,
    ),
    ...perView(
      queryClient,
      paths.variables.courseReport.path,
      'course_variable',
      async () => (await import('./components/variable-report-pages')).CourseVariableReportPage,
    ),
  ];
}

/**
 * Signed-in routes of a variable custom AI agents capture: its report,
 * chart and leaders across the agents (the same screens, `source=chatbot`),
 * and `/chatbot/:variableName/ai-summary`, which opens an agent's summary
 * page. The app router mounts them under the auth guard.
 */
export function chatbotVariableReportRoutes(queryClient: QueryClient): RouteObject[] {
  return [
    ...perView(
      queryClient,
      paths.variables.chatbotReport.path,
      'chatbot_variable',
      async () => (await import('./components/variable-report-pages')).ChatbotVariableReportPage,
    ),
    {
      path: paths.variables.chatbotAiSummary.path,
      // The page needs the report's answer to know which agent's summary to open.
      loader: viewLoader(queryClient, 'chatbot_variable', 'report'),
      lazy: async () => ({
        Component: (await import('./components/variable-report-pages')).ChatbotVariableAiSummaryPage,
      }),
    },
  ];
}

/**
 * Public routes (shared views: no sign-in, no navbar or sidebar;
 * `handle.shared`): one course's variable, and one custom AI agent's
 * (`/shared/chatbot/:variableName/:view?token=&courseId=<agent id>`).
 */
export function sharedVariableReportRoutes(queryClient: QueryClient): RouteObject[] {
  return [
    ...perView(
      queryClient,
      paths.shared.courseVariable.path,
      'shared',
      async () => (await import('./components/variable-report-pages')).SharedVariableReportPage,
    ),
    ...perView(
      queryClient,
      paths.shared.chatbotVariable.path,
      'shared_chatbot_variable',
      async () => (await import('./components/variable-report-pages')).SharedChatbotVariableReportPage,
    ),
  ].map((route) => ({ ...route, handle: { shared: true } }));
}
