import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { migrationsDir } from '../lib/paths';
import { createTestDatabase } from '../test/database';
import { createDatabase } from './client';
import { runMigrations } from './migrate';

/** Every committed migration, as drizzle-kit's journal lists them. */
const committedMigrations = (
  JSON.parse(readFileSync(join(migrationsDir, 'meta', '_journal.json'), 'utf8')) as { entries: unknown[] }
).entries.length;

async function countAppliedMigrations(db: Awaited<ReturnType<typeof createTestDatabase>>['db']) {
  const result = await db.execute<{ count: number }>(
    sql`select count(*)::int as count from drizzle.__drizzle_migrations`,
  );
  return result.rows[0]?.count;
}

async function listTables(db: Awaited<ReturnType<typeof createTestDatabase>>['db']) {
  const tables = await db.execute<{ name: string }>(
    sql`select table_name as name from information_schema.tables where table_schema = 'public'`,
  );
  return tables.rows.map((row) => row.name);
}

describe('runMigrations', () => {
  // The migrated template every test file starts from was made by
  // runMigrations on an empty database (src/test/global-setup.ts), so this
  // test costs milliseconds instead of a second full migration.
  it('is a no-op on a database that has every migration', async () => {
    const connection = await createTestDatabase();
    try {
      expect(await countAppliedMigrations(connection.db)).toBe(committedMigrations);
      await runMigrations(connection);
      expect(await countAppliedMigrations(connection.db)).toBe(committedMigrations);
    } finally {
      await connection.close();
    }
  });

  it(
    'creates the schema on an empty database, also when two processes migrate it at once',
    async () => {
      const first = await createTestDatabase({ isEmpty: true });
      // On PostgreSQL a second pool stands for a second process; PGlite has a
      // single owner, so the two runs share its connection.
      const second = first.url ? await createDatabase({ kind: 'postgres', url: first.url }) : first;
      try {
        await Promise.all([runMigrations(first), runMigrations(second)]);
        expect(await countAppliedMigrations(first.db)).toBe(committedMigrations);
        expect(await listTables(first.db)).toEqual(
          expect.arrayContaining(['organizations', 'learners', 'courses', 'learner_variable_values']),
        );
        await runMigrations(first);
        expect(await countAppliedMigrations(first.db)).toBe(committedMigrations);
      } finally {
        if (second !== first) await second.close();
        await first.close();
      }
    },
    // Genuinely long: every migration from nothing (the schema, its triggers
    // and rollups) takes about 2 s on PGlite on a quiet machine and several
    // times that when the 2 cores are shared with the rest of the suite.
    120_000,
  );
});
