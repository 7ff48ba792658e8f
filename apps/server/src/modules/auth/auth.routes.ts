import { signInInput, signInResponse, signupInput, signupResponse } from '@courselens/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Database } from '../../db/client';
import { RateLimitedError } from '../../plugins/rate-limit';
import { requireSessionCaller } from '../../plugins/tenant';
import type { Auth } from './auth';
import { signIn, signUp } from './auth.service';
import { revokeSession } from './sessions.service';

/** Sign-up, sign-in and sign-out: the only routes that hand out or end sessions. */
export const authRoutes: FastifyPluginAsyncZod<{
  db: Database;
  auth: Auth;
  signupLimitPerHour: number;
}> = async (app, { db, auth, signupLimitPerHour }) => {
  app.post(
    '/api/signup',
    {
      config: { access: 'public' },
      schema: {
        tags: ['auth'],
        summary: 'Create an account and its organization',
        body: signupInput,
        response: { 201: signupResponse },
      },
    },
    async (request, reply) => {
      try {
        const created = await signUp(db, auth, {
          ...request.body,
          ip: request.ip,
          limitPerHour: signupLimitPerHour,
        });
        return await reply.status(201).send(created);
      } catch (error) {
        if (error instanceof RateLimitedError) reply.header('retry-after', String(error.retryAfterSeconds));
        throw error;
      }
    },
  );

  app.post(
    '/api/session',
    {
      config: { access: 'public' },
      schema: {
        tags: ['auth'],
        summary: 'Sign in with e-mail and password',
        body: signInInput,
        response: { 200: signInResponse },
      },
    },
    async (request, reply) => {
      try {
        return await signIn(db, auth, {
          ...request.body,
          ip: request.ip,
          userAgent: request.headers['user-agent'],
        });
      } catch (error) {
        if (error instanceof RateLimitedError) reply.header('retry-after', String(error.retryAfterSeconds));
        throw error;
      }
    },
  );

  app.delete(
    '/api/session',
    { config: { access: 'user' }, schema: { tags: ['auth'], summary: 'Sign out (the token stops working)' } },
    async (request, reply) => {
      await revokeSession(db, requireSessionCaller(request).sessionId);
      return reply.status(204).send();
    },
  );
};
