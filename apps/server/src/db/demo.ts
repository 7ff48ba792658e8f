import { eq } from 'drizzle-orm';
import type { Logger } from 'pino';
import { hashPassword } from '../modules/auth/password';
import type { DatabaseConnection } from './client';
import { authUsers } from './schema';
import { DEMO_OWNER, seedIfEmpty } from './seed/seed';

/**
 * First start of an empty database: seed the demo organization (once, even
 * with two processes starting together), then tell the operator how to sign
 * in to it, on every start while the demo account exists.
 */
export async function seedDemoIfEmpty(database: DatabaseConnection, logger: Logger): Promise<void> {
  // The auth module's argon2id hasher, so the demo owner signs in like anyone else.
  const result = await seedIfEmpty(database, { hashPassword });
  if (result) {
    logger.info(
      { organization: result.organizationName, rows: result.totalRows, ms: Math.round(result.elapsedMs) },
      'seeded the demo organization',
    );
  }
  const [demoAccount] = await database.db
    .select({ id: authUsers.id })
    .from(authUsers)
    .where(eq(authUsers.email, DEMO_OWNER.email))
    .limit(1);
  if (demoAccount) {
    logger.info(
      `Demo login: ${DEMO_OWNER.email} / ${DEMO_OWNER.password} (set SEED_DEMO=false to skip the demo)`,
    );
  }
}
