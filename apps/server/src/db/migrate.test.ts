import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createTestDatabase } from '../test/database';
import { createDatabase } from './client';
import { runMigrations } from './migrate';

async function countAppliedMigrations(db: Awaited<ReturnType<typeof createTestDatabase>>['db']) {
  const result = await db.execute<{ count: number }>(
    sql`select count(*)::int as count from drizzle.__drizzle_migrations`,
  );
  return result.rows[0]?.count;
}

describe('runMigrations', () => {
  it('creates the schema on an empty database and is a no-op the second time', async () => {
    const connection = await createTestDatabase({ isEmpty: true });
    try {
      await runMigrations(connection);
      const applied = await countAppliedMigrations(connection.db);
      expect(applied).toBeGreaterThan(0);
      await runMigrations(connection);
      expect(await countAppliedMigrations(connection.db)).toBe(applied);
      const tables = await connection.db.execute<{ name: string }>(
        sql`select table_name as name from information_schema.tables where table_schema = 'public'`,
      );
      expect(tables.rows.map((row) => row.name)).toEqual(
        expect.arrayContaining(['organizations', 'learners', 'courses', 'learner_variable_values']),
      );
    } finally {
      await connection.close();
    }
  });

  it('lets two processes migrate the same database at once', async () => {
    const first = await createTestDatabase({ isEmpty: true });
    // On PostgreSQL a second pool stands for a second process; PGlite has a
    // single owner, so the two runs share its connection.
    const second = first.url ? await createDatabase({ kind: 'postgres', url: first.url }) : first;
    try {
      await Promise.all([runMigrations(first), runMigrations(second)]);
      const applied = await countAppliedMigrations(first.db);
      await runMigrations(first);
      expect(await countAppliedMigrations(first.db)).toBe(applied);
    } finally {
      if (second !== first) await second.close();
      await first.close();
    }
  });
});
