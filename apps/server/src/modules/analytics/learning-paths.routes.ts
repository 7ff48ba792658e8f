import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Database } from '../../db/client';

/** Analytics: learning-paths (routes arrive with the screen). */
export const learningPathsRoutes: FastifyPluginAsyncZod<{ db: Database }> = async () => {};
