import { findInvalidInput } from '@courselens/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../errors';

declare module 'fastify' {
  // Fastify's extension points are interfaces.
  // eslint-disable-next-line @typescript-eslint/consistent-type-definitions
  interface FastifyContextConfig {
    /**
     * The body is a batch whose items are checked one by one (`POST
     * /api/v1/events`): a bad string rejects its item, reported with its
     * index, not the whole request. Params and query are still checked here.
     */
    perItemValidation?: boolean;
  }
}

const PARTS = ['params', 'query', 'body'] as const;

function isApiRoute(url: string | undefined): boolean {
  return url !== undefined && (url === '/api' || url.startsWith('/api/'));
}

/**
 * Every string of an /api request (path parameters, query, JSON body, object
 * keys included) must be text the database can store: no NUL character, no
 * unpaired UTF-16 surrogate, and the JSON no deeper than `MAX_INPUT_DEPTH`.
 * Anything else answers 400 VALIDATION_ERROR naming the field, before the
 * route's schema and handler run, so nothing is changed; without this check
 * PostgreSQL refuses such a string half-way through a request (a 500, or a
 * misleading 409 when a service reads the failure as a conflict).
 *
 * It runs at preValidation, after the tenant plugin has authenticated the
 * caller (a stranger learns nothing from a 400), for every route at once:
 * one mechanism instead of a rule in each schema.
 */
export function registerRequestTextCheck(app: FastifyInstance): void {
  app.addHook('preValidation', async (request: FastifyRequest) => {
    if (!isApiRoute(request.routeOptions.url)) return;
    const skipsBody = request.routeOptions.config.perItemValidation === true;
    for (const part of PARTS) {
      if (part === 'body' && skipsBody) continue;
      const invalid = findInvalidInput(request[part], { root: part });
      if (invalid) {
        const path = [part, ...invalid.path].join('.');
        throw new AppError('VALIDATION_ERROR', invalid.message, [{ path, message: invalid.message }]);
      }
    }
  });
}
