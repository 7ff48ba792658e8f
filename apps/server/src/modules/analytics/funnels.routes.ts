import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Database } from '../../db/client';

/** Analytics: funnels (routes arrive with the screen). */
export const funnelsRoutes: FastifyPluginAsyncZod<{ db: Database }> = async () => {};
