import { randomUUID } from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabaseConnection } from '../test/database';
import { idInRange, splitIdRange, type IdRange } from './id-ranges';

let connection: TestDatabaseConnection;

beforeAll(async () => {
  connection = await createTestDatabase({ isEmpty: true });
});

afterAll(async () => {
  await connection.close();
});

/** How many ids of `ids` (a query of one uuid column `id`) each range holds, and how many are in exactly one. */
async function countByRange(ids: SQL, ranges: IdRange[]) {
  const flags = ranges.map((range) => sql`(${idInRange(sql`id`, range)})::int`);
  const result = await connection.db.execute<{ total: number; once: number; counts: number[] }>(sql`
    with ids as (${ids}),
    counted(${sql.raw([...ranges.map((_, index) => `r${index}`), 'ranges'].join(', '))}) as (
      select ${sql.join(flags, sql`, `)}, ${sql.join(flags, sql` + `)} from ids)
    select count(*)::int as total, count(*) filter (where ranges = 1)::int as once,
      array[${sql.raw(ranges.map((_, index) => `sum(r${index})::int`).join(', '))}] as counts
    from counted`);
  const row = result.rows[0];
  if (!row) throw new Error('no counts');
  return row;
}

describe('id ranges', () => {
  it('splits the span at equal widths, open at both ends', () => {
    expect(
      splitIdRange('00000000-0000-0000-0000-000000000000', '00000000-0000-0000-0000-000000000064', 4),
    ).toEqual([
      { to: '00000000-0000-0000-0000-000000000019' },
      { from: '00000000-0000-0000-0000-000000000019', to: '00000000-0000-0000-0000-000000000032' },
      { from: '00000000-0000-0000-0000-000000000032', to: '00000000-0000-0000-0000-00000000004b' },
      { from: '00000000-0000-0000-0000-00000000004b' },
    ]);
    // The carry crosses the groups of the text form.
    expect(
      splitIdRange('0fffffff-ffff-ffff-ffff-ffffffffffff', '10000000-0000-0000-0000-000000000001', 2),
    ).toEqual([
      { to: '10000000-0000-0000-0000-000000000000' },
      { from: '10000000-0000-0000-0000-000000000000' },
    ]);
  });

  it('keeps one range when there is nothing to split', () => {
    const id = '6f1c2d3e-0000-4000-8000-000000000001';
    expect(splitIdRange(id, id, 2)).toEqual([{}]);
    expect(splitIdRange(id, '6f1c2d3e-0000-4000-8000-000000000002', 3)).toEqual([{}]);
    expect(splitIdRange(id, '6f1c2d3e-0000-4000-8000-0000000000ff', 1)).toEqual([{}]);
    expect(() => splitIdRange(id, id, 0)).toThrow(RangeError);
    expect(() => splitIdRange('not an id', id, 2)).toThrow(RangeError);
  });

  it('puts every random id in exactly one range, in ranges of about equal size, as PostgreSQL orders uuids', async () => {
    const ids = Array.from({ length: 6000 }, () => randomUUID()).sort();
    const [lowest, highest] = [ids[0] ?? '', ids.at(-1) ?? ''];
    for (const parts of [2, 3, 7]) {
      const row = await countByRange(
        sql`select unnest(${sql.param(ids)}::uuid[]) as id`,
        splitIdRange(lowest, highest, parts),
      );
      expect(row.total).toBe(6000);
      expect(row.once).toBe(6000);
      for (const count of row.counts) {
        expect(count).toBeGreaterThan((6000 / parts) * 0.8);
        expect(count).toBeLessThan((6000 / parts) * 1.2);
      }
    }
  });

  it('splits ids handed out in order evenly, and holds ids outside the span', async () => {
    const ids = sql`select ('50d2fcd3-b157-8ad8-800b-' || lpad(to_hex(n), 12, '0'))::uuid as id
      from generate_series(1, 4000) as n`;
    const ranges = splitIdRange(
      '50d2fcd3-b157-8ad8-800b-000000000001',
      '50d2fcd3-b157-8ad8-800b-000000000fa0',
      2,
    );
    const row = await countByRange(ids, ranges);
    expect(row).toEqual({ total: 4000, once: 4000, counts: [1999, 2001] });
    const outside = await countByRange(
      sql`select unnest(array['00000000-0000-0000-0000-000000000000', 'ffffffff-ffff-ffff-ffff-ffffffffffff']::uuid[]) as id`,
      ranges,
    );
    expect(outside).toEqual({ total: 2, once: 2, counts: [1, 1] });
  });
});
