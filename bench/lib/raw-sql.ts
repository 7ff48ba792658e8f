import type { PGlite } from '@electric-sql/pglite';
import type pg from 'pg';
import type { DatabaseConnection } from '../../apps/server/src/db/client';

/** One connection to send hand-written SQL on, outside Drizzle. */
export type RawSession = {
  /** Runs the statement(s); resolves to the rows the last one affected. */
  exec: (text: string) => Promise<number>;
  release: () => void;
};

/** The driver underneath a CourseLens connection (PGlite, or node-postgres' pool). */
export async function openRawSession(connection: DatabaseConnection): Promise<RawSession> {
  const client = (connection.db as unknown as { $client: PGlite | pg.Pool }).$client;
  if (connection.kind === 'pglite') {
    const pglite = client as PGlite;
    return {
      exec: async (text) => {
        const results = await pglite.exec(text);
        return results.at(-1)?.affectedRows ?? 0;
      },
      release: () => undefined,
    };
  }
  const pooled = await (client as pg.Pool).connect();
  return {
    exec: async (text) => {
      const result = await pooled.query(text);
      return result.rowCount ?? 0;
    },
    release: () => pooled.release(),
  };
}

/** A SQL literal for a value of a generated row (standard_conforming_strings is on in both engines). */
export function sqlLiteral(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : 'null';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (value instanceof Date) return `'${value.toISOString()}'`;
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return `'${text.replaceAll("'", "''")}'`;
}

/** `insert into table (columns) values (...), (...)` with literal values. */
export function multiRowInsert(
  table: string,
  columns: readonly { name: string; key: string }[],
  rows: readonly Record<string, unknown>[],
): string {
  const names = columns.map((column) => `"${column.name}"`).join(', ');
  const tuples = rows.map((row) => `(${columns.map((column) => sqlLiteral(row[column.key])).join(', ')})`);
  return `insert into "${table}" (${names}) values ${tuples.join(',\n')}`;
}
