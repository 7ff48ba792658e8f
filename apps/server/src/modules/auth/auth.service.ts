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
import { clearHits, clientAddressKey, takeHits, type RateLimit } from '../../plugins/rate-limit';
import { chooseSubdomain, isUniqueViolation } from '../organizations/organizations.service';
import type { Auth } from './auth';
import { deleteAuthUser, findAuthUserByEmail, insertSignupRows } from './auth.queries';

/**
 * Failed sign-ins allowed per 15 minutes. The tight limit is per e-mail
 * address *and* client address, so someone guessing from elsewhere cannot
 * lock the owner out of their own computer; the per-address ceiling is ten
 * times looser and only stops a guesser spread over many client addresses;
 * the per-client limit stops one client trying many addresses.
 */
export const SIGN_IN_LIMITS = {
  perEmailAndClient: 10,
  perEmail: 100,
  perClient: 50,
  windowMs: 15 * 60_000,
} as const;

function statusOf(error: unknown): number | undefined {
  const candidate = error as { statusCode?: unknown };
  return typeof candidate.statusCode === 'number' ? candidate.statusCode : undefined;
}

/** Better Auth's machine code of an APIError (`USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL`, ...). */
function betterAuthCodeOf(error: unknown): string | undefined {
  const body = (error as { body?: { code?: unknown } }).body;
  return typeof body?.code === 'string' ? body.code : undefined;
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
      { key: `sign-up:ip:${clientAddressKey(input.ip)}`, limit: input.limitPerHour, windowMs: 60 * 60_000 },
    ];
    await takeHits(db, limits, 'sign-ups from this address');
  }
  if (await findAuthUserByEmail(db, input.email)) throw new AppError('CONFLICT', AUTH_MESSAGES.emailTaken);
  const subdomain = await chooseSubdomain(db, input.organizationName, input.subdomain);

  let created: { token: string | null; user: { id: string; name: string; email: string } };
  try {
    created = await auth.api.signUpEmail({
      body: { name: input.name, email: input.email, password: input.password },
    });
  } catch (error) {
    // Only "already exists" is a conflict; Better Auth answers a failed insert with 422 too.
    if (statusOf(error) === 422 && betterAuthCodeOf(error)?.startsWith('USER_ALREADY_EXISTS'))
      throw new AppError('CONFLICT', AUTH_MESSAGES.emailTaken);
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

function signInLimits(email: string, ip: string) {
  const client = clientAddressKey(ip);
  const windowMs = SIGN_IN_LIMITS.windowMs;
  return {
    byEmailAndClient: {
      key: `sign-in:email-client:${email}|${client}`,
      limit: SIGN_IN_LIMITS.perEmailAndClient,
      windowMs,
    },
    byEmail: { key: `sign-in:email:${email}`, limit: SIGN_IN_LIMITS.perEmail, windowMs },
    byClient: { key: `sign-in:ip:${client}`, limit: SIGN_IN_LIMITS.perClient, windowMs },
  } satisfies Record<string, RateLimit>;
}

/**
 * E-mail and password sign-in through Better Auth. Every attempt takes a hit
 * from its limits (see SIGN_IN_LIMITS) before the password is checked, so
 * concurrent attempts are counted exactly; past a limit the caller gets a
 * 429 saying when to retry, and no password is checked. A success gives its
 * hits back and clears the (e-mail, client) count: only failures count.
 */
export async function signIn(
  db: Database,
  auth: Auth,
  input: SignInInput & { ip: string; userAgent?: string | undefined },
): Promise<SignInResponse> {
  const { byEmailAndClient, byEmail, byClient } = signInLimits(input.email, input.ip);
  const hits = await takeHits(db, [byEmailAndClient, byEmail, byClient], 'sign-in attempts');
  let result: Awaited<ReturnType<Auth['api']['signInEmail']>>;
  try {
    const headers = new Headers();
    if (input.userAgent) headers.set('user-agent', input.userAgent);
    headers.set('x-forwarded-for', input.ip);
    result = await auth.api.signInEmail({
      body: { email: input.email, password: input.password },
      headers,
    });
  } catch (error) {
    const status = statusOf(error);
    // A wrong password (or unknown address) keeps its hits: that is what is limited.
    if (status === 401 || status === 400 || status === 403)
      throw new AppError('UNAUTHENTICATED', AUTH_MESSAGES.invalidCredentials);
    await hits.giveBack();
    throw error;
  }
  await hits.giveBack([byEmail, byClient]);
  await clearHits(db, [byEmailAndClient.key]);
  return { token: result.token, user: toPublicUser(result.user) };
}
