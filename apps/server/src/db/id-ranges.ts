import { isUuid } from '@courselens/contracts';
import { sql, type SQL } from 'drizzle-orm';

/**
 * Ranges of uuids, for a statement that reads an index in the order of a
 * uuid column and can build its answer in several branches, one per range,
 * that PostgreSQL's parallel workers take one each. Unlike shares of the
 * learners by hash (`learner-parts.ts`), each branch reads only its own
 * range of the index instead of every entry.
 *
 * The ranges split the ids' span (lowest to highest) into equal widths:
 * even for random ids and for ids handed out in order across an
 * organization's courses; ids that grow with time put a recent period in
 * the last range, which is still right, only not parallel.
 */

/** A range of ids: from `from` (inclusive) to `to` (exclusive); either side open when absent. */
export type IdRange = { from?: string; to?: string };

function uuidToBigInt(id: string): bigint {
  if (!isUuid(id)) throw new RangeError(`not a uuid: ${id}`);
  return BigInt(`0x${id.replaceAll('-', '')}`);
}

function bigIntToUuid(value: bigint): string {
  const hex = value.toString(16).padStart(32, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * `parts` ranges that together hold every id, each once, split at equal
 * widths of the span from `lowest` to `highest` (the first and last ranges
 * are open, so ids outside the span still fall in one). Fewer ranges (one,
 * open on both sides) when the span is too narrow to split.
 */
export function splitIdRange(lowest: string, highest: string, parts: number): IdRange[] {
  if (!Number.isInteger(parts) || parts < 1) throw new RangeError('parts must be a whole number from 1');
  const low = uuidToBigInt(lowest);
  const high = uuidToBigInt(highest);
  const span = high - low;
  const count = BigInt(parts);
  if (parts === 1 || span < count) return [{}];
  // uuid order in PostgreSQL is the order of its 16 bytes, which is this number's order.
  const cuts = Array.from({ length: parts - 1 }, (_, index) =>
    bigIntToUuid(low + (span * BigInt(index + 1)) / count),
  );
  return Array.from({ length: parts }, (_, index) => ({
    ...(index > 0 ? { from: cuts[index - 1] } : {}),
    ...(index < parts - 1 ? { to: cuts[index] } : {}),
  }));
}

/** Whether the uuid `column` lies in `range` (`true` for an open range). */
export function idInRange(column: SQL, range: IdRange): SQL {
  const conditions: SQL[] = [];
  if (range.from !== undefined) conditions.push(sql`${column} >= ${range.from}::uuid`);
  if (range.to !== undefined) conditions.push(sql`${column} < ${range.to}::uuid`);
  return conditions.length === 0 ? sql`true` : sql`(${sql.join(conditions, sql` and `)})`;
}
