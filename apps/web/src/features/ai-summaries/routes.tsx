import type { RouteObject } from 'react-router';

import { paths } from '@/config/paths';

/**
 * The signed-in routes of this feature (lazy modules). The app router mounts
 * them under the auth guard; a path listed here replaces its placeholder screen.
 */
export const aiSummaryRoutes: RouteObject[] = [
  {
    path: paths.variables.courseAiSummary.path,
    lazy: async () => ({
      Component: (await import('./components/ai-summary-pages')).CourseVariableAiSummaryPage,
    }),
  },
  {
    path: paths.variables.aiSummary.path,
    lazy: async () => ({
      Component: (await import('./components/ai-summary-pages')).VariableAiSummaryPage,
    }),
  },
];
