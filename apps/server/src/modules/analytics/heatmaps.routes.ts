import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Database } from '../../db/client';

/** Analytics: heatmaps (routes arrive with the screen). */
export const heatmapsRoutes: FastifyPluginAsyncZod<{ db: Database }> = async () => {};
