import { sql } from 'drizzle-orm';
import type { Database } from '../db/client';

/** Only one folder at a time, across every process on the database. */
export const ROLLUP_FOLD_LOCK_KEY = 727_003;
/** Queue rows one fold takes at most (about a second of ingestion at full speed). */
export const DEFAULT_FOLD_BATCH = 20_000;

type Rows<T> = { rows: T[] };

/**
 * Counts queued facts into the rollups once (see `rollup_fold_batch` in
 * migration 0009): in a REPEATABLE READ transaction, so the queue rows it
 * takes and the facts it reads are one snapshot, holding the folder's
 * advisory lock. Returns how many queue rows it took, or null when another
 * folder holds the lock.
 */
export async function foldRollupsOnce(db: Database, batchSize = DEFAULT_FOLD_BATCH): Promise<number | null> {
  return db.transaction(
    async (tx) => {
      const lock: Rows<{ locked: boolean }> = await tx.execute(
        sql`select pg_try_advisory_xact_lock(${ROLLUP_FOLD_LOCK_KEY}) as locked`,
      );
      if (!lock.rows[0]?.locked) return null;
      const folded: Rows<{ taken: number }> = await tx.execute(
        sql`select rollup_fold_batch(${batchSize}) as taken`,
      );
      return Number(folded.rows[0]?.taken ?? 0);
    },
    { isolationLevel: 'repeatable read' },
  );
}

/** Folds until the queue is empty (tests, and a worker catching up). Returns the rows folded. */
export async function foldAllRollups(db: Database, batchSize = DEFAULT_FOLD_BATCH): Promise<number> {
  let total = 0;
  for (;;) {
    const taken = await withSerializationRetry(() => foldRollupsOnce(db, batchSize));
    if (taken === null) {
      await sleep(20);
      continue;
    }
    total += taken;
    if (taken === 0) return total;
  }
}

export type RollupFolder = {
  /** Ask for a fold now (after a write), instead of at the next poll. */
  nudge: () => void;
  /** Stops after the fold under way, if any. */
  stop: () => Promise<void>;
};

/**
 * The folder loop a worker runs: folds as long as there is a backlog, then
 * polls every `pollMs`. Errors are reported and retried at the next poll (a
 * fold that failed changed nothing: its transaction rolled back).
 */
export function startRollupFolder(
  db: Database,
  options: { pollMs?: number; batchSize?: number; onError?: (error: unknown) => void } = {},
): RollupFolder {
  const pollMs = options.pollMs ?? 200;
  let stopped = false;
  let wake: (() => void) | null = null;
  const loop = (async () => {
    while (!stopped) {
      let taken: number | null = 0;
      try {
        taken = await withSerializationRetry(() => foldRollupsOnce(db, options.batchSize));
      } catch (error) {
        if (!stopped) options.onError?.(error);
      }
      // A full batch means more is waiting: go on at once.
      if (taken !== null && taken >= (options.batchSize ?? DEFAULT_FOLD_BATCH)) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, pollMs);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      wake = null;
    }
  })();
  return {
    nudge: () => wake?.(),
    stop: async () => {
      stopped = true;
      wake?.();
      await loop;
    },
  };
}

const SERIALIZATION_FAILURE = '40001';

/** A concurrent course deletion can make a REPEATABLE READ fold fail; the fold is then simply done again. */
async function withSerializationRetry<T>(work: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await work();
    } catch (error) {
      if (attempt >= 5 || !hasCode(error, SERIALIZATION_FAILURE)) throw error;
      await sleep(10 * attempt);
    }
  }
}

function hasCode(error: unknown, code: string): boolean {
  for (let current: unknown = error; current; current = (current as { cause?: unknown }).cause) {
    if ((current as { code?: unknown }).code === code) return true;
  }
  return false;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
