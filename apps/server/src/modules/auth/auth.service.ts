import {
  AUTH_MESSAGES,
  ORGANIZATION_MESSAGES,
  type PublicUser,
  type SignInInput,
  type SignInResponse,
  type SignupInput,
  type SignupResponse,
} from '@courselens/contracts';
import type { Database } from '../../db/client';
import { AppError } from '../../errors';
import { clearHits, assertWithinLimits, recordHit, type RateLimit } from '../../plugins/rate-limit';
import { chooseSubdomain, isUniqueViolation } from '../organizations/organizations.service';
import type { Auth } from './auth';
import { deleteAuthUser, findAuthUserByEmail, insertSignupRows } from './auth.queries';

/** Failed sign-ins allowed per window, per e-mail address and per client address. */
export const SIGN_IN_LIMITS = { perEmail: 10, perIp: 50, windowMs: 15 * 60_000 } as const;

function statusOf(error: unknown): number | undefined {
  const candidate = error as { statusCode?: unknown };
  return typeof candidate.statusCode === 'number' ? candidate.statusCode : undefined;
}

function toPublicUser(user: { id: string; name: string; email: string }): PublicUser {
  return { id: user.id, name: user.name, email: user.email };
}

/**
 * Creates the identity (Better Auth: user + credential account + session),
 * then the organization, the owner profile and the primary membership in one
 * transaction. When the second step fails, the identity is deleted again, so
 * a failed sign-up leaves nothing behind.
 */
export async function signUp(
  db: Database,
  auth: Auth,
  input: SignupInput & { ip: string; limitPerHour: number },
): Promise<SignupResponse> {
  // Every attempt that reaches this point counts, so nobody can probe which
  // e-mail addresses are registered or fill the database from one address.
  if (input.limitPerHour > 0) {
    const limits: RateLimit[] = [
      { key: `sign-up:ip:${input.ip}`, limit: input.limitPerHour, windowMs: 60 * 60_000 },
    ];
    await assertWithinLimits(db, limits, 'sign-ups from this address');
    await recordHit(db, limits);
  }
  if (await findAuthUserByEmail(db, input.email)) throw new AppError('CONFLICT', AUTH_MESSAGES.emailTaken);
  const subdomain = await chooseSubdomain(db, input.organizationName, input.subdomain);

  let created: { token: string | null; user: { id: string; name: string; email: string } };
  try {
    created = await auth.api.signUpEmail({
      body: { name: input.name, email: input.email, password: input.password },
    });
  } catch (error) {
    if (statusOf(error) === 422) throw new AppError('CONFLICT', AUTH_MESSAGES.emailTaken);
    throw error;
  }
  try {
    const organization = await insertSignupRows(db, {
      userId: created.user.id,
      name: created.user.name,
      email: created.user.email,
      organizationName: input.organizationName,
      subdomain,
    });
    if (!organization) throw new AppError('INTERNAL_ERROR', AUTH_MESSAGES.organizationCreationFailed);
    if (!created.token) throw new Error('Better Auth returned no session token');
    return { token: created.token, user: toPublicUser(created.user), organization };
  } catch (error) {
    await deleteAuthUser(db, created.user.id);
    if (isUniqueViolation(error, 'organizations_subdomain_unique'))
      throw new AppError('CONFLICT', ORGANIZATION_MESSAGES.subdomainTaken);
    if (error instanceof AppError) throw error;
    throw new AppError('INTERNAL_ERROR', AUTH_MESSAGES.organizationCreationFailed);
  }
}

function signInLimits(email: string, ip: string): { byEmail: RateLimit; byIp: RateLimit } {
  return {
    byEmail: {
      key: `sign-in:email:${email}`,
      limit: SIGN_IN_LIMITS.perEmail,
      windowMs: SIGN_IN_LIMITS.windowMs,
    },
    byIp: { key: `sign-in:ip:${ip}`, limit: SIGN_IN_LIMITS.perIp, windowMs: SIGN_IN_LIMITS.windowMs },
  };
}

/**
 * E-mail and password sign-in through Better Auth. Failed attempts count
 * against the e-mail address and the client address; past either limit the
 * caller gets a 429 saying when to retry, before any password is checked.
 */
export async function signIn(
  db: Database,
  auth: Auth,
  input: SignInInput & { ip: string; userAgent?: string | undefined },
): Promise<SignInResponse> {
  const { byEmail, byIp } = signInLimits(input.email, input.ip);
  const limits = [byEmail, byIp];
  await assertWithinLimits(db, limits, 'sign-in attempts');
  try {
    const headers = new Headers();
    if (input.userAgent) headers.set('user-agent', input.userAgent);
    headers.set('x-forwarded-for', input.ip);
    const result = await auth.api.signInEmail({
      body: { email: input.email, password: input.password },
      headers,
    });
    // The right password resets the count for the address (not for the client address).
    await clearHits(db, [byEmail.key]);
    return { token: result.token, user: toPublicUser(result.user) };
  } catch (error) {
    const status = statusOf(error);
    if (status === 401 || status === 400 || status === 403) {
      await recordHit(db, limits);
      throw new AppError('UNAUTHENTICATED', AUTH_MESSAGES.invalidCredentials);
    }
    throw error;
  }
}
