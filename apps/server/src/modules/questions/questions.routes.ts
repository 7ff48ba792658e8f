import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Database } from '../../db/client';

/** Routes of the learning data (issue 5): filled in by this module's owner. */
export const questionRoutes: FastifyPluginAsyncZod<{ db: Database }> = async (_app, _options) => {};
