import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import pg from 'pg';
import { createDatabase, type DatabaseConnection } from '../db/client';
import { runMigrations } from '../db/migrate';
import { createAppJobRunner } from '../jobs/registry';

declare module 'vitest' {
  // Module augmentation needs an interface.
  // eslint-disable-next-line @typescript-eslint/consistent-type-definitions
  export interface ProvidedContext {
    /** PGlite pass: a migrated data-folder dump each test file starts from. */
    pgliteTemplatePath: string | null;
    /** PostgreSQL pass: server URL and the migrated template database name. */
    postgresAdminUrl: string | null;
    postgresTemplate: string | null;
  }
}

const TEMPLATE_DB = 'courselens_test_template';

/**
 * Migrates once per run, so that each test file can start from a clean,
 * migrated database in milliseconds: a PGlite dump to load, or a PostgreSQL
 * template database to clone.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (adminUrl) {
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`drop database if exists ${TEMPLATE_DB}`);
    await admin.query(`create database ${TEMPLATE_DB}`);
    await admin.end();
    const templateUrl = withDatabase(adminUrl, TEMPLATE_DB);
    const connection = await createDatabase({ kind: 'postgres', url: templateUrl });
    await prepareDatabase(connection);
    await connection.close();
    project.provide('postgresAdminUrl', adminUrl);
    project.provide('postgresTemplate', TEMPLATE_DB);
    project.provide('pgliteTemplatePath', null);
    return async () => {
      const cleanup = new pg.Client({ connectionString: adminUrl });
      await cleanup.connect();
      await cleanup.query(`drop database if exists ${TEMPLATE_DB}`);
      await cleanup.end();
    };
  }

  const dir = await mkdtemp(join(tmpdir(), 'courselens-test-'));
  const connection = await createDatabase({ kind: 'pglite' });
  await prepareDatabase(connection);
  if (!connection.dumpDataDir) throw new Error('PGlite connection cannot dump its data folder');
  const dump = await connection.dumpDataDir();
  const path = join(dir, 'migrated.tar');
  await writeFile(path, Buffer.from(await dump.arrayBuffer()));
  await connection.close();
  project.provide('pgliteTemplatePath', path);
  project.provide('postgresAdminUrl', null);
  project.provide('postgresTemplate', null);
  return async () => {
    await rm(dir, { recursive: true, force: true });
  };
}

/** Our migrations and the job queue's tables, so each test file starts from both. */
async function prepareDatabase(connection: DatabaseConnection): Promise<void> {
  await runMigrations(connection);
  const jobs = createAppJobRunner(connection, { workers: false });
  await jobs.start();
  await jobs.stop();
}

export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}
