import { sql, type SQL } from 'drizzle-orm';
import type { Database } from './client';

/**
 * Some statements group hundreds of thousands of rows per learner in one
 * process, which is most of their time. When their answer adds up over
 * disjoint sets of learners (counts, sums, per-day figures, distinct
 * learners), they can run as several statements, one per share of the
 * learners (by a hash of the learner's id), side by side on the pool's
 * connections, and the service adds the shares up: each statement still
 * reads every row of its range but groups only its share, and no group is
 * merged across statements (PostgreSQL's own parallel aggregation hands
 * back partial groups per worker and merges them, which costs more than it
 * saves when nearly every group is a learner).
 *
 * Off (one share) unless the server enables it for its database: PGlite
 * runs one statement at a time, so shares would only read the rows again.
 */

/** One of `of` disjoint shares of an organization's learners. */
export type LearnerPart = { index: number; of: number };

/** How many values the hash takes once its sign bit is masked off. */
const HASHES = 2 ** 31;

const partsByDatabase = new WeakMap<Database, number>();

/** Splits statements that support it into `parts` shares on this database (1: not at all). */
export function enableLearnerParts(db: Database, parts: number): void {
  if (!Number.isInteger(parts) || parts < 1) throw new RangeError('parts must be a whole number from 1');
  partsByDatabase.set(db, parts);
}

export function learnerPartsOf(db: Database): number {
  return partsByDatabase.get(db) ?? 1;
}

/** Whether the learner `learnerId` is in `part` (`true` without one, or with a single share). */
export function learnerInPart(learnerId: SQL, part: LearnerPart | undefined): SQL {
  if (!part || part.of <= 1) return sql`true`;
  // uuid_hash is the hash PostgreSQL's own hash indexes and joins use for uuid: cheap, and spread
  // evenly whatever the ids look like (random, time-ordered or sequential). Each share is a range of
  // it rather than a remainder: the tables that are read in shares keep statistics on the hash
  // (migration 0028), which give a range its true share of rows; no statistics can say how many
  // rows have a given remainder, and PostgreSQL then plans a share as a few hundred rows.
  const hash = sql`(uuid_hash(${learnerId}) & 2147483647)`;
  const from = Math.floor((part.index * HASHES) / part.of);
  const to = Math.floor(((part.index + 1) * HASHES) / part.of);
  if (part.index === 0) return sql`${hash} < ${sql.raw(String(to))}`;
  if (part.index === part.of - 1) return sql`${hash} >= ${sql.raw(String(from))}`;
  return sql`${hash} >= ${sql.raw(String(from))} and ${hash} < ${sql.raw(String(to))}`;
}

/** Runs `statement` once per share of this database's learners, side by side; one run without shares. */
export async function inLearnerParts<T>(
  db: Database,
  statement: (part: LearnerPart | undefined) => Promise<T>,
): Promise<T[]> {
  const of = learnerPartsOf(db);
  if (of <= 1) return [await statement(undefined)];
  return Promise.all(Array.from({ length: of }, (_, index) => statement({ index, of })));
}
