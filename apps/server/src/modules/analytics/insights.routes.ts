import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Database } from '../../db/client';

/** Analytics: insights (routes arrive with the screen). */
export const insightsRoutes: FastifyPluginAsyncZod<{ db: Database }> = async () => {};
