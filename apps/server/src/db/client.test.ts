import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkpointIfWalGrew, createDatabase, type DatabaseConnection } from './client';
import { runDeferred } from './deferral';

let connection: DatabaseConnection;

/** WAL written since the last checkpoint began. */
async function walSinceCheckpoint(): Promise<number> {
  const result = await connection.db.execute<{ bytes: string }>(sql`
    select pg_wal_lsn_diff(pg_current_wal_insert_lsn(), redo_lsn)::text as bytes from pg_control_checkpoint()`);
  return Number(result.rows[0]?.bytes);
}

beforeAll(async () => {
  connection = await createDatabase({ kind: 'pglite' });
  await connection.db.execute(sql`create table wal_filler (id int, pad text)`);
});

afterAll(async () => {
  await connection.close();
});

describe('checkpointIfWalGrew (PGlite never checkpoints by itself)', () => {
  it('leaves the WAL alone below the threshold and checkpoints above it, also inside a transaction', async () => {
    await connection.db.execute(
      sql`insert into wal_filler select g, repeat('x', 200) from generate_series(1, 20000) g`,
    );
    const written = await walSinceCheckpoint();
    expect(written).toBeGreaterThan(2_000_000);

    expect(await checkpointIfWalGrew(connection.db, written * 2)).toBe(false);
    expect(await walSinceCheckpoint()).toBeGreaterThanOrEqual(written);

    const checkpointed = await connection.db.transaction(async (tx) => {
      await tx.execute(sql`insert into wal_filler values (0, 'in the transaction')`);
      return checkpointIfWalGrew(tx, 1_000_000);
    });
    expect(checkpointed).toBe(true);
    expect(await walSinceCheckpoint()).toBeLessThan(100_000);
    const kept = await connection.db.execute<{ n: number }>(sql`select count(*)::int as n from wal_filler`);
    expect(kept.rows[0]?.n).toBe(20_001);
  });
});

describe('deferred work on PGlite', () => {
  it('runs its statements after those of a request that runs meanwhile, and in a transaction too', async () => {
    const order: string[] = [];
    const request = (async () => {
      for (const step of [1, 2, 3]) {
        await connection.db.execute(sql`select pg_sleep(0.005)`);
        order.push(`request ${step}`);
      }
      await connection.db.transaction(async (tx) => {
        await tx.execute(sql`insert into wal_filler values (-1, 'request')`);
      });
      order.push('request transaction');
    })();
    const refresh = runDeferred(async () => {
      await connection.db.execute(sql`select 1`);
      order.push('refresh');
      await connection.db.transaction(async (tx) => {
        await tx.execute(sql`delete from wal_filler where id = -1`);
      });
      order.push('refresh transaction');
    });
    await Promise.all([request, refresh.value]);
    expect(order).toEqual([
      'request 1',
      'request 2',
      'request 3',
      'request transaction',
      'refresh',
      'refresh transaction',
    ]);
    const left = await connection.db.execute<{ n: number }>(
      sql`select count(*)::int as n from wal_filler where id = -1`,
    );
    expect(left.rows[0]?.n).toBe(0);
  });
});
