import type { ReportView } from '@/config/paths';
import type { PrefetchRoute } from '@/lib/route-loaders';

import { variableChartQueryOptions } from './api/get-variable-chart';
import { variableLeadersQueryOptions } from './api/get-variable-leaders';
import { variableReportQueryOptions } from './api/get-variable-report';
import { variableReportTargetOf, type VariableReportRoute } from './api/report-target';
import { readVariableReportState } from './components/use-variable-report-params';

/*
 * What each variable-report view starts before its page's code arrives, with
 * the page's own query options. Loaded by `routes.tsx` on demand (its own
 * chunk), so the contracts and query options stay out of the main chunk.
 */

/**
 * Starts the one query a view shows, as the screen builds it: an
 * organization's report, or a shared one (read by its token,
 * `organizationId` null).
 */
export function prefetchView(
  { params, searchParams, prefetch }: PrefetchRoute,
  route: VariableReportRoute,
  view: ReportView,
  organizationId: string | null,
) {
  const target = variableReportTargetOf(route, params, searchParams);
  if (!target) return;
  const state = readVariableReportState(searchParams);
  if (view === 'report') prefetch(variableReportQueryOptions(organizationId, target, state.report));
  if (view === 'chart') prefetch(variableChartQueryOptions(organizationId, target, state.chart));
  if (view === 'leaders') prefetch(variableLeadersQueryOptions(organizationId, target, state.leaders));
}
