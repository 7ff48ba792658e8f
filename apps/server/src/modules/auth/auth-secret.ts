import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { DatabaseConnection } from '../../db/client';
import { appSettings } from '../../db/schema';

const AUTH_SECRET_KEY = 'auth_secret';
/** Advisory lock for creating the secret (migrations 727_001, seed 727_002). */
const AUTH_SECRET_LOCK_KEY = 727_003;

/**
 * The secret that signs sessions: AUTH_SECRET when configured, else one
 * generated on the first start and kept in `app_settings`, so restarts and
 * other processes keep accepting the same sessions. Created under an
 * advisory lock so two processes starting together agree on one.
 */
export async function resolveAuthSecret(
  database: DatabaseConnection,
  configured: string | undefined,
): Promise<string> {
  if (configured) return configured;
  const read = async () => {
    const [row] = await database.db
      .select({ value: appSettings.value })
      .from(appSettings)
      .where(eq(appSettings.key, AUTH_SECRET_KEY));
    return row?.value;
  };
  const existing = await read();
  if (existing) return existing;
  return database.withAdvisoryLock(AUTH_SECRET_LOCK_KEY, async () => {
    const raced = await read();
    if (raced) return raced;
    const secret = randomBytes(32).toString('base64url');
    await database.db
      .insert(appSettings)
      .values({ key: AUTH_SECRET_KEY, value: secret })
      .onConflictDoNothing();
    return (await read()) ?? secret;
  });
}
