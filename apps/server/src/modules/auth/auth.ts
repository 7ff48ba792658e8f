import { betterAuth } from 'better-auth';
import { drizzleAdapter } from 'better-auth/adapters/drizzle';
import { bearer } from 'better-auth/plugins/bearer';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '@courselens/contracts';
import type { Database } from '../../db/client';
import { betterAuthLogHandler, type LevelLogger } from '../../lib/logger';
import { authAccounts, authSessions, authUsers, authVerifications } from '../../db/schema';
import { hashPassword, verifyPassword } from './password';

/** A session lives 7 days without use; each day of use pushes the end out again. */
export const SESSION_IDLE_SECONDS = 7 * 24 * 3600;
export const SESSION_REFRESH_SECONDS = 24 * 3600;
/** ...but never beyond 30 days after sign-in (enforced by the tenant plugin). */
export const SESSION_ABSOLUTE_SECONDS = 30 * 24 * 3600;

/**
 * `logger` receives Better Auth's own messages (through pino, scrubbed);
 * without one they are dropped rather than printed on the console.
 */
export function createAuth(
  db: Database,
  options: { secret: string; baseURL: string; logger?: LevelLogger | undefined },
) {
  return betterAuth({
    appName: 'CourseLens',
    baseURL: options.baseURL,
    secret: options.secret,
    database: drizzleAdapter(db, {
      provider: 'pg',
      schema: {
        user: authUsers,
        session: authSessions,
        account: authAccounts,
        verification: authVerifications,
      },
    }),
    emailAndPassword: {
      enabled: true,
      minPasswordLength: PASSWORD_MIN_LENGTH,
      maxPasswordLength: PASSWORD_MAX_LENGTH,
      autoSignIn: true,
      password: { hash: hashPassword, verify: verifyPassword },
    },
    session: { expiresIn: SESSION_IDLE_SECONDS, updateAge: SESSION_REFRESH_SECONDS },
    advanced: { database: { generateId: 'uuid' } },
    // Our routes call auth.api directly and apply their own, database-backed limits.
    rateLimit: { enabled: false },
    telemetry: { enabled: false },
    // Its warnings are per failed sign-in ("Invalid password"): our routes
    // already answer those; errors go to the application log.
    logger: options.logger
      ? { level: 'error', disableColors: true, log: betterAuthLogHandler(options.logger) }
      : { disabled: true },
    plugins: [bearer()],
  });
}

export type Auth = ReturnType<typeof createAuth>;
