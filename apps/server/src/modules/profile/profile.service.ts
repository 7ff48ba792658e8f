import { AUTH_MESSAGES, PROFILE_MESSAGES, type PublicUser } from '@courselens/contracts';
import type { Database } from '../../db/client';
import { AppError } from '../../errors';
import type { Auth } from '../auth/auth';
import { findAuthUserByEmail } from '../auth/auth.queries';
import { isUniqueViolation } from '../organizations/organizations.service';
import { updateIdentity } from './profile.queries';

export async function updateProfile(
  db: Database,
  input: { userId: string; name?: string | undefined; email?: string | undefined },
): Promise<PublicUser> {
  const changes: { name?: string; email?: string } = {};
  if (input.name !== undefined) changes.name = input.name;
  if (input.email !== undefined) {
    const other = await findAuthUserByEmail(db, input.email);
    if (other && other.id !== input.userId) throw new AppError('CONFLICT', AUTH_MESSAGES.emailTaken);
    changes.email = input.email;
  }
  try {
    const user = await updateIdentity(db, input.userId, changes);
    if (!user) throw new AppError('UNAUTHENTICATED', AUTH_MESSAGES.notAuthenticated);
    return user;
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('CONFLICT', AUTH_MESSAGES.emailTaken);
    throw error;
  }
}

/**
 * Changes the password through Better Auth (the configured argon2id hasher),
 * after checking the current one. Every session of the person ends, the
 * caller's included; the caller gets a fresh token in the answer.
 */
export async function changePassword(
  auth: Auth,
  input: { token: string; currentPassword: string; newPassword: string },
): Promise<{ token: string }> {
  try {
    const result = await auth.api.changePassword({
      headers: new Headers({ authorization: `Bearer ${input.token}` }),
      body: {
        currentPassword: input.currentPassword,
        newPassword: input.newPassword,
        revokeOtherSessions: true,
      },
    });
    if (!result.token) throw new Error('Better Auth returned no session token');
    return { token: result.token };
  } catch (error) {
    const status = (error as { statusCode?: unknown }).statusCode;
    if (status === 400 || status === 401) throw new AppError('BAD_REQUEST', PROFILE_MESSAGES.wrongPassword);
    throw error;
  }
}
