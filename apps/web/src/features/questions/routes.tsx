import type { RouteObject } from 'react-router';

import { paths } from '@/config/paths';

/**
 * The signed-in routes of this feature (lazy modules). The app router mounts
 * them under the auth guard; a path listed here replaces its placeholder screen.
 */
export const questionRoutes: RouteObject[] = [
  {
    path: paths.questions.list.path,
    lazy: async () => ({ Component: (await import('./components/questions-page')).QuestionsPage }),
  },
];

/** The course's questions; the app router mounts it inside the course layout (one header). */
export const courseQuestionRoutes: RouteObject[] = [
  {
    path: paths.courses.questions.path,
    lazy: async () => ({
      Component: (await import('./components/course-questions-page')).CourseQuestionsPage,
    }),
  },
];
