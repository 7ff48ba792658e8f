import { sql, type SQL } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabaseConnection } from '../../test/database';
import { atStep, perStep } from './analytics-filters.queries';

let connection: TestDatabaseConnection;

beforeAll(async () => {
  connection = await createTestDatabase({ isEmpty: true });
});

afterAll(async () => {
  await connection.close();
});

/**
 * How many instants of `from`..`to` (every `every`) `atStep` gives another
 * value than `value` works out on the instant itself, and how many there are.
 */
async function compare(input: {
  from: string;
  to: string;
  seconds: number;
  every: string;
  value: (at: SQL) => SQL;
}) {
  const from = sql`${input.from}::timestamptz`;
  const to = sql`${input.to}::timestamptz`;
  const result = await connection.db.execute<{ wrong: number; total: number }>(sql`
    with ${perStep('steps', { from, to: sql`${to} - make_interval(secs => ${input.seconds})` }, input.seconds, input.value)}
    select count(*) filter (where ${atStep('steps', sql`x.at`, input.seconds)} is distinct from ${input.value(sql`x.at`)})::int as wrong,
           count(*)::int as total
    from generate_series(${from}, ${to} - interval '1 second', ${input.every}::interval) as x(at)`);
  return result.rows[0];
}

describe('perStep and atStep', () => {
  it('give every instant the local day of its hour, across both clock changes of a year', async () => {
    // New York moves its clocks on 8 March and 1 November 2026; every 7 minutes falls on every minute
    // of the hour in turn, and the instants just before and after each local midnight are among them.
    const row = await compare({
      from: '2026-03-01T05:00:00Z',
      to: '2026-11-10T05:00:00Z',
      seconds: 3600,
      every: '7 minutes',
      value: (at) => sql`(${at} at time zone 'America/New_York')::date`,
    });
    expect(row).toEqual({ wrong: 0, total: expect.any(Number) });
    expect(row?.total).toBeGreaterThan(50_000);
  });

  it('give every quarter its local weekday and hour in a zone half an hour off UTC', async () => {
    const slot = (at: SQL) =>
      sql`extract(isodow from (${at} at time zone 'Asia/Kolkata'))::int * 24 + extract(hour from (${at} at time zone 'Asia/Kolkata'))::int`;
    const row = await compare({
      from: '2026-05-03T00:00:00Z',
      to: '2026-05-17T00:00:00Z',
      seconds: 900,
      every: '15 minutes',
      value: slot,
    });
    expect(row).toEqual({ wrong: 0, total: 14 * 24 * 4 });
  });

  it('tell the last minute before a local midnight from the first after it', async () => {
    const day = (at: SQL) => sql`(${at} at time zone 'Europe/London')::date`;
    const result = await connection.db.execute<{ before: string; after: string }>(sql`
      with ${perStep('steps', { from: sql`'2026-07-01T00:00:00Z'::timestamptz`, to: sql`'2026-07-02T23:00:00Z'::timestamptz` }, 3600, day)}
      select to_char(${atStep('steps', sql`'2026-07-01T22:59:59Z'::timestamptz`, 3600)}, 'YYYY-MM-DD') as before,
             to_char(${atStep('steps', sql`'2026-07-01T23:00:00Z'::timestamptz`, 3600)}, 'YYYY-MM-DD') as after`);
    // London is UTC+01:00 in July: 22:59:59 UTC is 23:59:59 on the 1st, 23:00 UTC midnight of the 2nd.
    expect(result.rows[0]).toEqual({ before: '2026-07-01', after: '2026-07-02' });
  });
});
