import type { QueryClient } from '@tanstack/react-query';
import type { RouteObject } from 'react-router';

import { paths } from '@/config/paths';
import { organizationLoader } from '@/lib/route-loaders';

// The loaders' bodies and what they import (query options, contracts) load
// on demand, beside the page's code, never with the main chunk.
const prefetches = () => import('./prefetch');

/**
 * The signed-in analytics routes (lazy modules, mounted under the auth
 * guard): the overview and its six sections, each a page of its own that
 * shares the section tabs (`AnalyticsPage`).
 */
export function analyticsRoutes(queryClient: QueryClient): RouteObject[] {
  return [
    {
      path: paths.analytics.overview.path,
      loader: organizationLoader(queryClient, async () => (await prefetches()).analyticsOverview),
      lazy: async () => ({ Component: (await import('./components/overview-page')).AnalyticsOverviewPage }),
    },
    {
      path: paths.analytics.insights.path,
      loader: organizationLoader(queryClient, async () => (await prefetches()).analyticsInsights),
      lazy: async () => ({ Component: (await import('./components/insights-page')).InsightsPage }),
    },
    {
      path: paths.analytics.questions.path,
      loader: organizationLoader(queryClient, async () => (await prefetches()).analyticsQuestions),
      lazy: async () => ({ Component: (await import('./components/questions-page')).QuestionAnalysisPage }),
    },
    {
      path: paths.analytics.funnels.path,
      loader: organizationLoader(queryClient, async () => (await prefetches()).analyticsFunnels),
      lazy: async () => ({ Component: (await import('./components/funnels-page')).FunnelsPage }),
    },
    {
      path: paths.analytics.heatmaps.path,
      loader: organizationLoader(queryClient, async () => (await prefetches()).analyticsHeatmaps),
      lazy: async () => ({ Component: (await import('./components/heatmaps-page')).HeatmapsPage }),
    },
    {
      path: paths.analytics.learningPaths.path,
      loader: organizationLoader(queryClient, async () => (await prefetches()).analyticsLearningPaths),
      lazy: async () => ({ Component: (await import('./components/learning-paths-page')).LearningPathsPage }),
    },
    {
      path: paths.analytics.settings.path,
      loader: organizationLoader(queryClient, async () => (await prefetches()).analyticsSettings),
      lazy: async () => ({ Component: (await import('./components/settings-page')).AnalyticsSettingsPage }),
    },
  ];
}
