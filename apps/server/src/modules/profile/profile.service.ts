import { AUTH_MESSAGES, PROFILE_MESSAGES, type PublicUser } from '@courselens/contracts';
import type { Database } from '../../db/client';
import { AppError } from '../../errors';
import type { Auth } from '../auth/auth';
import { takeHits, type RateLimit } from '../../plugins/rate-limit';
import { findAuthUserByEmail, findAuthUserById } from '../auth/auth.queries';
import { isUniqueViolation } from '../organizations/organizations.service';
import { updateIdentity } from './profile.queries';

/**
 * Wrong current passwords allowed per person per 15 minutes (e-mail change and
 * password change together), so a borrowed or stolen session cannot be used
 * to guess the password.
 */
export const CURRENT_PASSWORD_LIMIT = { limit: 10, windowMs: 15 * 60_000 } as const;

function currentPasswordLimit(userId: string): RateLimit {
  return { key: `current-password:user:${userId}`, ...CURRENT_PASSWORD_LIMIT };
}

function isWrongPassword(error: unknown): boolean {
  const status = (error as { statusCode?: unknown }).statusCode;
  return status === 400 || status === 401;
}

/**
 * Checks the signed-in person's password through Better Auth (the configured
 * argon2id verifier). Throws 400 "Current password is incorrect" when it is
 * not; failures count against CURRENT_PASSWORD_LIMIT.
 */
async function assertCurrentPassword(
  db: Database,
  auth: Auth,
  input: { userId: string; token: string; password: string },
): Promise<void> {
  const limit = currentPasswordLimit(input.userId);
  const hits = await takeHits(db, [limit], 'incorrect passwords');
  try {
    await auth.api.verifyPassword({
      headers: new Headers({ authorization: `Bearer ${input.token}` }),
      body: { password: input.password },
    });
  } catch (error) {
    if (isWrongPassword(error)) throw new AppError('BAD_REQUEST', PROFILE_MESSAGES.wrongPassword);
    await hits.giveBack();
    throw error;
  }
  await hits.giveBack();
}

/**
 * Changes the name and/or e-mail address. A new e-mail address needs the
 * current password (400 "Enter your current password to change your e-mail
 * address" without it, 400 "Current password is incorrect" with a wrong one):
 * the address is where the account can be taken over from, so a session
 * alone is not enough to move it.
 */
export async function updateProfile(
  db: Database,
  auth: Auth,
  input: {
    userId: string;
    token: string;
    name?: string | undefined;
    email?: string | undefined;
    currentPassword?: string | undefined;
  },
): Promise<PublicUser> {
  const changes: { name?: string; email?: string } = {};
  if (input.name !== undefined) changes.name = input.name;
  if (input.email !== undefined) {
    const current = await findAuthUserById(db, input.userId);
    if (!current) throw new AppError('UNAUTHENTICATED', AUTH_MESSAGES.notAuthenticated);
    if (input.email !== current.email) {
      if (!input.currentPassword)
        throw new AppError('BAD_REQUEST', PROFILE_MESSAGES.passwordNeededForEmail, [
          { path: 'body.currentPassword', message: PROFILE_MESSAGES.passwordNeededForEmail },
        ]);
      await assertCurrentPassword(db, auth, {
        userId: input.userId,
        token: input.token,
        password: input.currentPassword,
      });
      const other = await findAuthUserByEmail(db, input.email);
      if (other && other.id !== input.userId) throw new AppError('CONFLICT', AUTH_MESSAGES.emailTaken);
    }
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
  db: Database,
  auth: Auth,
  input: { userId: string; token: string; currentPassword: string; newPassword: string },
): Promise<{ token: string }> {
  const hits = await takeHits(db, [currentPasswordLimit(input.userId)], 'incorrect passwords');
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
    await hits.giveBack();
    return { token: result.token };
  } catch (error) {
    if (isWrongPassword(error)) throw new AppError('BAD_REQUEST', PROFILE_MESSAGES.wrongPassword);
    await hits.giveBack();
    throw error;
  }
}
