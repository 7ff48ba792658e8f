import { DEFAULT_PATH_DEPTH } from '@courselens/contracts';

import { courseOptionsQueryOptions } from '@/lib/course-options';
import type { OrganizationPrefetchRoute } from '@/lib/route-loaders';

import { funnelsQueryOptions } from './api/get-funnels';
import { questionHeatmapQueryOptions, readAnalyticsPeriod } from './api/get-heatmaps';
import { coursePathsQueryOptions } from './api/get-learning-paths';

import { analyticsInsightsQueryOptions, parseInsightStatus } from './api/get-analytics-insights';
import { analyticsOverviewQueryOptions, parseOverviewPeriod } from './api/get-analytics-overview';
import { analyticsSettingsQueryOptions } from './api/get-analytics-settings';
import {
  parseQuestionAnalysisParams,
  questionAnalysisCoursesQueryOptions,
  questionAnalysisQueryOptions,
} from './api/get-question-analysis';

/*
 * What each analytics route starts before its page's code arrives, with the
 * page's own query options. Loaded by `routes.tsx` on demand (its own chunk).
 */

/** `/analytics/settings`: the settings. */
export function analyticsSettings({ organizationId, prefetch }: OrganizationPrefetchRoute) {
  prefetch(analyticsSettingsQueryOptions(organizationId));
}

/** `/analytics`: the overview of the period in the URL. */
export function analyticsOverview({ organizationId, searchParams, prefetch }: OrganizationPrefetchRoute) {
  prefetch(analyticsOverviewQueryOptions(organizationId, parseOverviewPeriod(searchParams)));
}

/** `/analytics/insights`: the list of the status in the URL. */
export function analyticsInsights({ organizationId, searchParams, prefetch }: OrganizationPrefetchRoute) {
  prefetch(analyticsInsightsQueryOptions(organizationId, parseInsightStatus(searchParams.get('status'))));
}

/** `/analytics/questions`: the course picker, and the analysis of the course in the URL (if it names one). */
export function analyticsQuestions({ organizationId, searchParams, prefetch }: OrganizationPrefetchRoute) {
  prefetch(questionAnalysisCoursesQueryOptions(organizationId));
  const params = parseQuestionAnalysisParams(searchParams);
  if (params.courseId) prefetch(questionAnalysisQueryOptions(organizationId, params));
}

/** `/analytics/funnels`: the saved funnels (and the suggestion the page opens on when none is saved). */
export function analyticsFunnels({ organizationId, prefetch }: OrganizationPrefetchRoute) {
  prefetch(funnelsQueryOptions(organizationId));
}

/** `/analytics/heatmaps`: the course picker, and the questions grid of the course in the URL (if it names one). */
export function analyticsHeatmaps({ organizationId, searchParams, prefetch }: OrganizationPrefetchRoute) {
  prefetch(courseOptionsQueryOptions(organizationId));
  const courseId = searchParams.get('course');
  if (courseId)
    prefetch(questionHeatmapQueryOptions(organizationId, { courseId, ...readAnalyticsPeriod(searchParams) }));
}

/** `/analytics/learning-paths`: the course picker and the course sequences (they need no course). */
export function analyticsLearningPaths({
  organizationId,
  searchParams,
  prefetch,
}: OrganizationPrefetchRoute) {
  prefetch(courseOptionsQueryOptions(organizationId));
  if (!searchParams.get('depth')) {
    prefetch(
      coursePathsQueryOptions(organizationId, {
        ...readAnalyticsPeriod(searchParams),
        depth: DEFAULT_PATH_DEPTH,
      }),
    );
  }
}
