import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Database } from '../../db/client';

/** Analytics: questions (routes arrive with the screen). */
export const questionsRoutes: FastifyPluginAsyncZod<{ db: Database }> = async () => {};
