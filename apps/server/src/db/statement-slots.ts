import type { Database } from './client';

// How many statements a database runs at the same time, for work that can
// issue several at once (a custom report's items). PGlite has one
// connection: statements sent together only queue, in order, so a request
// arriving meanwhile waits behind all of them instead of one. A PostgreSQL
// pool runs them side by side.

const slotsByDatabase = new WeakMap<Database, number>();

/** Says how many statements `db` runs at once (at least 1). */
export function setStatementSlots(db: Database, slots: number): void {
  if (!(slots >= 1)) throw new RangeError('slots must be at least 1');
  slotsByDatabase.set(db, slots);
}

/** How many statements `db` runs at once: 1 unless the server said more. */
export function statementSlotsOf(db: Database): number {
  return slotsByDatabase.get(db) ?? 1;
}
