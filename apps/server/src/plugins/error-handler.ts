import type { ErrorCode, ErrorIssue } from '@courselens/contracts';
import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AppError } from '../errors';

const codeForClientStatus: Record<number, ErrorCode> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHENTICATED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  409: 'CONFLICT',
  412: 'PRECONDITION_FAILED',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  429: 'RATE_LIMITED',
};

/**
 * The one place errors become HTTP responses, always in the shape
 * `{ error, code, issues? }`. Validation failures carry the first message as
 * `error` (so a spec message such as 'Subdomain cannot be empty' reaches the
 * client verbatim) and every problem in `issues`. Unexpected errors are
 * logged with their stack and answered with a bare 500.
 */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((rawError: unknown, request, reply) => {
    if (hasZodFastifySchemaValidationErrors(rawError)) {
      const context = rawError.validationContext;
      const issues: ErrorIssue[] = rawError.validation.map((issue) => ({
        path: [context, ...issue.instancePath.split('/').filter(Boolean)].filter(Boolean).join('.'),
        message: issue.message ?? 'Invalid value',
      }));
      return reply.status(400).send({
        error: issues[0]?.message ?? 'Invalid request',
        code: 'VALIDATION_ERROR',
        issues,
      });
    }

    if (rawError instanceof AppError) {
      return reply.status(rawError.statusCode).send({
        error: rawError.message,
        code: rawError.code,
        ...(rawError.issues ? { issues: rawError.issues } : {}),
      });
    }

    const error = rawError as Partial<FastifyError>;
    const status = typeof error.statusCode === 'number' ? error.statusCode : 500;
    if (status >= 400 && status < 500) {
      // Fastify's own client errors (bad JSON, body too large, wrong media
      // type, rate limit) already carry a message meant for the caller.
      const code = codeForClientStatus[status] ?? 'BAD_REQUEST';
      return reply.status(status).send({ error: error.message ?? 'Bad request', code });
    }

    request.log.error({ err: rawError }, 'unhandled error');
    return reply.status(500).send({ error: 'Internal server error', code: 'INTERNAL_ERROR' });
  });
}
