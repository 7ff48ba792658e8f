import { isAbsolute, resolve } from 'node:path';
import { lockDataDir, type DataDirLock } from '../lib/data-dir-lock';
import { createDatabase, type DatabaseConnection } from './client';

/**
 * The database a command-line tool works on: PostgreSQL when DATABASE_URL is
 * set, else the PGlite folder DATA_DIR (default ./data, relative to where npm
 * was started), locked so a running server cannot open it at the same time.
 */
export async function openCliDatabase(): Promise<{
  connection: DatabaseConnection;
  lock?: DataDirLock;
  where: string;
}> {
  const url = process.env.DATABASE_URL;
  if (url) {
    return {
      connection: await createDatabase({ kind: 'postgres', url }),
      where: 'PostgreSQL (DATABASE_URL)',
    };
  }
  // npm runs workspace scripts inside the workspace; resolve against where the user ran npm.
  const base = process.env.INIT_CWD ?? process.cwd();
  const configured = process.env.DATA_DIR || './data';
  const dataDir = isAbsolute(configured) ? configured : resolve(base, configured);
  const lock = lockDataDir(dataDir);
  try {
    return {
      connection: await createDatabase({ kind: 'pglite', dataDir }),
      lock,
      where: `PGlite in ${dataDir}`,
    };
  } catch (error) {
    lock.release();
    throw error;
  }
}
