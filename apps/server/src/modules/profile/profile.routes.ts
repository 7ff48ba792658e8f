import { changePasswordInput, publicUserSchema, updateProfileInput } from '@courselens/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Database } from '../../db/client';
import { bearerToken, requireSessionCaller } from '../../plugins/tenant';
import type { Auth } from '../auth/auth';
import { changePassword, updateProfile } from './profile.service';

/** The signed-in person's own name, e-mail and password. */
export const profileRoutes: FastifyPluginAsyncZod<{ db: Database; auth: Auth }> = async (
  app,
  { db, auth },
) => {
  app.patch(
    '/api/profile',
    {
      config: { access: 'user' },
      schema: {
        tags: ['profile'],
        summary: 'Change name and/or e-mail (a new e-mail needs the current password)',
        body: updateProfileInput,
        response: { 200: publicUserSchema },
      },
    },
    async (request) =>
      updateProfile(db, auth, {
        userId: requireSessionCaller(request).userId,
        token: bearerToken(request) ?? '',
        ...request.body,
      }),
  );

  app.post(
    '/api/profile/password',
    {
      config: { access: 'user' },
      schema: {
        tags: ['profile'],
        summary: 'Change the password; every other session ends and a new token is returned',
        body: changePasswordInput,
        response: { 200: z.object({ token: z.string() }) },
      },
    },
    async (request) => {
      const { userId } = requireSessionCaller(request);
      return changePassword(db, auth, { userId, token: bearerToken(request) ?? '', ...request.body });
    },
  );
};
