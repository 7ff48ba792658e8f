import { randomBytes } from 'node:crypto';

let counter = 0;

/** A number unique within this process, for readable default names. */
export function nextSequence(): number {
  counter += 1;
  return counter;
}

/** A short random suffix so defaults stay unique across processes sharing a database. */
export function uniqueSuffix(): string {
  return randomBytes(4).toString('hex');
}

/** The single row of an `insert ... returning`. */
export function onlyRow<T>(rows: T[]): T {
  const [row] = rows;
  if (row === undefined) throw new Error('insert returned no row');
  return row;
}
