import {
  coursePathsQuery,
  coursePathsResponse,
  learningPathsQuery,
  learningPathsResponse,
} from '@courselens/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Database } from '../../db/client';
import { requireTenant } from '../../plugins/tenant';
import { getCoursePaths, getLearningPaths } from './learning-paths.service';
import { recentAnalytics } from './recent-analytics';

const tags = ['analytics'];

/** Analytics learning paths: slide sequences within a course, course sequences across the organization. */
export const learningPathsRoutes: FastifyPluginAsyncZod<{ db: Database }> = async (app, { db }) => {
  app.get(
    '/api/analytics/learning-paths',
    {
      schema: {
        tags,
        summary: 'A course’s slide paths: Sankey, top paths, exits, and the drop-off after a slide',
        querystring: learningPathsQuery,
        response: { 200: learningPathsResponse },
      },
    },
    async (request) => {
      const { organizationId } = requireTenant(request);
      return recentAnalytics(db, organizationId, 'learning-paths', request.query, () =>
        getLearningPaths(db, organizationId, request.query),
      );
    },
  );

  app.get(
    '/api/analytics/learning-paths/courses',
    {
      schema: {
        tags,
        summary: 'The order learners start the organization’s courses in: Sankey and top sequences',
        querystring: coursePathsQuery,
        response: { 200: coursePathsResponse },
      },
    },
    async (request) => {
      const { organizationId } = requireTenant(request);
      return recentAnalytics(db, organizationId, 'course-paths', request.query, () =>
        getCoursePaths(db, organizationId, request.query),
      );
    },
  );
};
