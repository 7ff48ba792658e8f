import { migrate as migrateNodePg } from 'drizzle-orm/node-postgres/migrator';
import type { NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import type { PgliteDatabase } from 'drizzle-orm/pglite';
import { migrationsDir } from '../lib/paths';
import type { DatabaseConnection, Schema } from './client';

/** Arbitrary but fixed: every CourseLens process contends for the same lock. */
export const MIGRATION_LOCK_KEY = 727_001;

/**
 * Applies the committed drizzle-kit migrations. Idempotent (applied ones are
 * recorded in drizzle.__drizzle_migrations) and serialized across processes
 * by an advisory lock, so two servers starting together cannot race.
 * `migrationsFolder` is for tests that stop at an earlier migration.
 */
export async function runMigrations(
  connection: DatabaseConnection,
  options: { migrationsFolder?: string } = {},
): Promise<void> {
  const migrationsFolder = options.migrationsFolder ?? migrationsDir;
  await connection.withAdvisoryLock(MIGRATION_LOCK_KEY, async () => {
    if (connection.kind === 'pglite') {
      await migratePglite(connection.db as unknown as PgliteDatabase<Schema>, { migrationsFolder });
    } else {
      await migrateNodePg(connection.db as unknown as NodePgDatabase<Schema>, { migrationsFolder });
    }
  });
}
