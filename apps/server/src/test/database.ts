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
 * it (the PostgreSQL database is dropped).
 */
export async function createTestDatabase(): Promise<DatabaseConnection> {
  const adminUrl = inject('postgresAdminUrl');
  const template = inject('postgresTemplate');
  if (adminUrl && template) {
    const name = `courselens_test_${randomBytes(6).toString('hex')}`;
    await adminQuery(adminUrl, `create database ${name} template ${template}`);
    const connection = await createDatabase({
      kind: 'postgres',
      url: withDatabase(adminUrl, name),
      maxConnections: 4,
    });
    return {
      ...connection,
      close: async () => {
        await connection.close();
        await adminQuery(adminUrl, `drop database if exists ${name} with (force)`);
      },
    };
  }
  const templatePath = inject('pgliteTemplatePath');
  if (!templatePath) throw new Error('The vitest global setup did not prepare a test database');
  const dump = new Blob([await readFile(templatePath)]);
  return createDatabase({ kind: 'pglite', loadDataDir: dump });
}

async function adminQuery(url: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}
