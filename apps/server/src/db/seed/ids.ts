import { createHash } from 'node:crypto';

/**
 * Deterministic UUIDs for generated rows: 60 bits naming the dataset (seed and
 * organization), 12 bits naming the table, 48 bits counting rows. Version
 * nibble 8 ("custom", RFC 9562), so they can never equal a random v4 id, and
 * the same seed gives the same ids on PGlite and PostgreSQL.
 */
export class IdSequence {
  private readonly prefix: string;
  private readonly suffix: string;
  private counter = 0;

  constructor(namespace: string, table: number) {
    const hash = createHash('sha256').update(namespace).digest('hex');
    // xxxxxxxx-xxxx-8xxx-8ttt-cccccccccccc
    this.prefix = `${hash.slice(0, 8)}-${hash.slice(8, 12)}-8${hash.slice(12, 15)}-8`;
    this.suffix = (table & 0xfff).toString(16).padStart(3, '0');
  }

  /** The id of the `index`-th row (0-based), without advancing the sequence. */
  at(index: number): string {
    return `${this.prefix}${this.suffix}-${index.toString(16).padStart(12, '0')}`;
  }

  next(): string {
    const id = this.at(this.counter);
    this.counter += 1;
    return id;
  }
}
