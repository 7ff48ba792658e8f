import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Database } from '../../db/client';
import { analyticsSettingsRoutes } from './analytics-settings.routes';
import { funnelsRoutes } from './funnels.routes';
import { heatmapsRoutes } from './heatmaps.routes';
import { insightsRoutes } from './insights.routes';
import { learningPathsRoutes } from './learning-paths.routes';
import { questionsRoutes } from './questions.routes';

/** Every analytics API under `/api/analytics`, each area in its own plugin. */
export const analyticsRoutes: FastifyPluginAsyncZod<{ db: Database }> = async (app, options) => {
  await app.register(analyticsSettingsRoutes, options);
  await app.register(questionsRoutes, options);
  await app.register(funnelsRoutes, options);
  await app.register(heatmapsRoutes, options);
  await app.register(learningPathsRoutes, options);
  await app.register(insightsRoutes, options);
};
