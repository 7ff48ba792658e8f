import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import pg from 'pg';
import { inject } from 'vitest';
import { createDatabase, type DatabaseConnection } from '../db/client';
import { withDatabase } from './global-setup';

/**
 * A clean, migrated database for one test file: PGlite in memory by default,
 * or a fresh PostgreSQL database cloned from the migrated template when the
 * suite runs against a real server (TEST_DATABASE_URL). `close()` disposes of
 * it (the PostgreSQL database is dropped). `isEmpty` skips the migrations.
 */
export async function createTestDatabase(
  options: { isEmpty?: boolean } = {},
): Promise<TestDatabaseConnection> {
  const adminUrl = inject('postgresAdminUrl');
  const template = inject('postgresTemplate');
  if (adminUrl && template) {
    const name = `courselens_test_${randomBytes(6).toString('hex')}`;
    await adminQuery(
      adminUrl,
      options.isEmpty ? `create database ${name}` : `create database ${name} template ${template}`,
    );
    // Rollups counted as facts are written, as on PGlite, so a test reads
    // them right after a write; the folder's own tests ask for 'deferred'.
    await adminQuery(adminUrl, `alter database ${name} set courselens.rollups = 'inline'`);
    const url = withDatabase(adminUrl, name);
    const connection = await createDatabase({ kind: 'postgres', url, maxConnections: 4 });
    return {
      ...connection,
      url,
      close: async () => {
        await connection.close();
        await adminQuery(adminUrl, `drop database if exists ${name} with (force)`);
      },
    };
  }
  if (options.isEmpty) return createDatabase({ kind: 'pglite' });
  const templatePath = inject('pgliteTemplatePath');
  if (!templatePath) throw new Error('The vitest global setup did not prepare a test database');
  const dump = new Blob([await readFile(templatePath)]);
  return createDatabase({ kind: 'pglite', loadDataDir: dump });
}

/** On PostgreSQL, `url` lets a test open more connections to the same database. */
export type TestDatabaseConnection = DatabaseConnection & { url?: string };

async function adminQuery(url: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}
