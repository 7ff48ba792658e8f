import { healthErrorSchema, healthOkSchema } from '@courselens/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { DatabaseConnection } from '../../db/client';
import { appVersion } from '../../lib/version';

const PING_TIMEOUT_MS = 3_000;

/** Liveness and readiness in one: answers ok only after a real database round trip. */
export const healthRoutes: FastifyPluginAsyncZod<{ database: DatabaseConnection }> = async (
  app,
  { database },
) => {
  app.get(
    '/api/health',
    {
      config: { access: 'public' },
      schema: {
        tags: ['system'],
        summary: 'Service and database health',
        response: { 200: healthOkSchema, 503: healthErrorSchema },
      },
    },
    async (request, reply) => {
      try {
        await withTimeout(database.ping(), PING_TIMEOUT_MS);
        return reply
          .header('cache-control', 'no-store')
          .send({ status: 'ok' as const, database: database.kind, version: appVersion });
      } catch (err) {
        request.log.error({ err }, 'health check: database did not answer');
        return reply
          .status(503)
          .header('cache-control', 'no-store')
          .send({ status: 'error' as const });
      }
    },
  );
};

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
