import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import pg from 'pg';
import { createStatementGate } from './deferral';
import * as schema from './schema/index';

export type Schema = typeof schema;

/**
 * What `db.execute` resolves to on both engines: PGlite's `Results` and
 * node-postgres' `QueryResult` both carry the rows in `rows`.
 */
export type RowsResult<TRow> = { rows: TRow[] };

// An interface, not a type: higher-kinded result types need `this['row']`.
// eslint-disable-next-line @typescript-eslint/consistent-type-definitions
export interface RowsQueryResultHKT extends PgQueryResultHKT {
  type: RowsResult<this['row']>;
}

/**
 * The Drizzle handle every query module receives. PGlite and node-postgres
 * produce different concrete types; both are Postgres dialect databases, so
 * code written against this type runs unchanged on either engine.
 */
export type Database = PgDatabase<RowsQueryResultHKT, Schema>;

export type DatabaseKind = 'pglite' | 'postgres';

export type DatabaseConnection = {
  db: Database;
  kind: DatabaseKind;
  /** Runs a trivial query; rejects when the database does not answer. */
  ping: () => Promise<void>;
  /**
   * Runs `work` while holding a cluster-wide advisory lock, so two processes
   * starting at once (e.g. migrations) take turns instead of racing.
   */
  withAdvisoryLock: <T>(lockKey: number, work: () => Promise<T>) => Promise<T>;
  close: () => Promise<void>;
  /** PGlite only: a tarball of the data folder (tests clone migrated databases with it). */
  dumpDataDir?: () => Promise<Blob>;
  /** PGlite only: the engine itself (the job queue talks to it through its own adapter). */
  pglite?: PGlite;
  /** PostgreSQL only: the URL, for clients that keep a pool of their own (the job queue). */
  url?: string;
};

export type DatabaseOptions =
  | { kind: 'pglite'; dataDir?: string; loadDataDir?: Blob | File }
  | { kind: 'postgres'; url: string; maxConnections?: number };

export async function createDatabase(options: DatabaseOptions): Promise<DatabaseConnection> {
  return options.kind === 'pglite' ? createPglite(options) : createPostgres(options);
}

/** WAL written since the last checkpoint above which a PGlite database checkpoints. */
export const PGLITE_CHECKPOINT_WAL_BYTES = 256 * 1024 * 1024;

/**
 * How long no other statement must have run before a deferred one starts on
 * PGlite: longer than the gap between one request's statements.
 */
const PGLITE_DEFERRED_QUIET_MS = 15;

/** How often a PGlite database looks at how much WAL it wrote. */
const PGLITE_WAL_CHECK_MS = 60_000;

/**
 * Checkpoints when more than `thresholdBytes` of WAL were
 * written since the last checkpoint; true if it did. PGlite runs PostgreSQL
 * as a single-user backend, which never starts a checkpoint by itself: its
 * WAL grows past max_wal_size without bound (a 100 000-learner seed wrote
 * over 13 GB of it) and a restart replays all of it. For PGlite only: on a
 * PostgreSQL server the checkpointer does this, and CHECKPOINT needs a
 * privilege. `db` may be a transaction (the seed writes a phase in one).
 */
export async function checkpointIfWalGrew(
  db: Database,
  thresholdBytes: number = PGLITE_CHECKPOINT_WAL_BYTES,
): Promise<boolean> {
  const result = await db.execute<{ grown: boolean }>(sql`
    select pg_wal_lsn_diff(pg_current_wal_insert_lsn(), redo_lsn) > ${thresholdBytes} as grown
    from pg_control_checkpoint()`);
  if (!result.rows[0]?.grown) return false;
  await db.execute(sql`checkpoint`);
  return true;
}

/**
 * Every statement and transaction Drizzle (or anything else) sends PGlite
 * goes through one gate, so deferred work gives way (see deferral.ts). A
 * transaction's own statements go through its handle, inside the turn the
 * transaction took.
 */
function gateStatements(client: PGlite): void {
  const gate = createStatementGate({ quietMs: PGLITE_DEFERRED_QUIET_MS });
  const query = client.query.bind(client);
  const exec = client.exec.bind(client);
  const transaction = client.transaction.bind(client);
  client.query = ((...args: Parameters<typeof query>) => gate.run(() => query(...args))) as typeof query;
  client.exec = (...args: Parameters<typeof exec>) => gate.run(() => exec(...args));
  client.transaction = ((...args: Parameters<typeof transaction>) =>
    gate.run(() => transaction(...args))) as typeof transaction;
}

async function createPglite(options: {
  dataDir?: string;
  loadDataDir?: Blob | File;
}): Promise<DatabaseConnection> {
  const client = await PGlite.create({
    ...(options.dataDir ? { dataDir: options.dataDir } : {}),
    ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
  });
  // One connection, so no writer ever waits for another: the rollups are
  // counted in the writing transaction (see migration 0009).
  await client.exec(`set courselens.rollups = 'inline'`);
  gateStatements(client);
  const db = drizzlePglite({ client, schema }) as unknown as Database;
  // Queued behind whatever runs (one connection); a check that fails, as
  // one racing `close` does, is simply made again at the next tick.
  const walCheck = setInterval(() => {
    if (!client.closed) checkpointIfWalGrew(db).catch(() => undefined);
  }, PGLITE_WAL_CHECK_MS);
  walCheck.unref();
  let lockQueue: Promise<unknown> = Promise.resolve();
  return {
    db,
    kind: 'pglite',
    ping: async () => {
      await client.query('select 1');
    },
    // PGlite is single-connection and owns its data folder exclusively, so a
    // process-local queue is all the mutual exclusion there is to have.
    withAdvisoryLock: <T>(_lockKey: number, work: () => Promise<T>): Promise<T> => {
      // (client.runExclusive would deadlock: queries inside take the same mutex.)
      const result = lockQueue.then(work);
      lockQueue = result.catch(() => undefined);
      return result;
    },
    close: async () => {
      clearInterval(walCheck);
      if (!client.closed) await client.close();
    },
    dumpDataDir: async () => client.dumpDataDir('none'),
    pglite: client,
  };
}

async function createPostgres(options: {
  url: string;
  maxConnections?: number;
}): Promise<DatabaseConnection> {
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.maxConnections ?? 10,
    // Fail fast instead of queueing forever when the server is gone; the
    // health check relies on this to answer 503 promptly.
    connectionTimeoutMillis: 5_000,
    // JIT compilation pays off for hour-long analytics, not for ours: a report
    // over a million answers spent 1.6 s of its time compiling (EXPLAIN
    // ANALYZE at 100 000 learners), longer than the aggregation it sped up.
    options: '-c jit=off',
  });
  // An idle client losing its connection must not crash the process.
  pool.on('error', () => undefined);
  const db = drizzleNodePg({ client: pool, schema }) as unknown as Database;
  let closed = false;
  return {
    db,
    kind: 'postgres',
    url: options.url,
    ping: async () => {
      await db.execute(sql`select 1`);
    },
    withAdvisoryLock: async (lockKey, work) => {
      const lockClient = await pool.connect();
      try {
        await lockClient.query('select pg_advisory_lock($1)', [lockKey]);
        try {
          return await work();
        } finally {
          await lockClient.query('select pg_advisory_unlock($1)', [lockKey]);
        }
      } finally {
        lockClient.release();
      }
    },
    close: async () => {
      if (closed) return;
      closed = true;
      await pool.end();
    },
  };
}
