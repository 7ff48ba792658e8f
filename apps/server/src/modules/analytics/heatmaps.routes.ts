import {
  heatmapActivityQuery,
  heatmapActivityResponse,
  heatmapLearnersQuery,
  heatmapLearnersResponse,
  heatmapQuestionsQuery,
  heatmapQuestionsResponse,
} from '@courselens/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Database } from '../../db/client';
import { requireTenant } from '../../plugins/tenant';
import { getActivityHeatmap, getLearnerHeatmap, getQuestionHeatmap } from './heatmaps.service';
import { recentAnalytics } from './recent-analytics';

const tags = ['analytics'];

/** Analytics heatmaps: questions by slide, learners by question, activity by weekday and hour. */
export const heatmapsRoutes: FastifyPluginAsyncZod<{ db: Database }> = async (app, { db }) => {
  app.get(
    '/api/analytics/heatmaps/questions',
    {
      schema: {
        tags,
        summary: 'A course’s questions by slide with their correct rate, Wilson interval and a too-few mark',
        querystring: heatmapQuestionsQuery,
        response: { 200: heatmapQuestionsResponse },
      },
    },
    async (request) => {
      const { organizationId } = requireTenant(request);
      return recentAnalytics(db, organizationId, 'heatmap-questions', request.query, () =>
        getQuestionHeatmap(db, organizationId, request.query),
      );
    },
  );

  app.get(
    '/api/analytics/heatmaps/learners',
    {
      schema: {
        tags,
        summary:
          'A course’s learners by question: each learner’s last answer per question, 50 learners a page',
        querystring: heatmapLearnersQuery,
        response: { 200: heatmapLearnersResponse },
      },
    },
    async (request) => {
      const { organizationId } = requireTenant(request);
      return recentAnalytics(db, organizationId, 'heatmap-learners', request.query, () =>
        getLearnerHeatmap(db, organizationId, request.query),
      );
    },
  );

  app.get(
    '/api/analytics/heatmaps/activity',
    {
      schema: {
        tags,
        summary: 'Events and learners by weekday and hour in the organization’s time zone (a course, or all)',
        querystring: heatmapActivityQuery,
        response: { 200: heatmapActivityResponse },
      },
    },
    async (request) => {
      const { organizationId } = requireTenant(request);
      return recentAnalytics(db, organizationId, 'heatmap-activity', request.query, () =>
        getActivityHeatmap(db, organizationId, request.query),
      );
    },
  );
};
