import type { ReportView } from '@/config/paths';
import type { PrefetchRoute } from '@/lib/route-loaders';

import {
  questionChartQueryOptions,
  questionLeadersQueryOptions,
  questionReportQueryOptions,
} from './api/get-question-report';
import { questionShareQueryOptions } from './api/question-share';
import { questionReportTargetOf, type QuestionReportTarget } from './api/report-target';
import { readQuestionReportState } from './components/use-question-report-params';

/*
 * What each question-report view starts before its page's code arrives, with
 * the page's own query options. Loaded by `routes.tsx` on demand (its own
 * chunk), so the contracts and query options stay out of the main chunk.
 */

/**
 * Starts the one query a view shows, as the screen builds it (and, for
 * members, the share settings): an organization's report, or a shared one
 * (read by its token, `organizationId` null).
 */
export function prefetchView(
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
