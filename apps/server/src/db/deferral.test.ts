import { describe, expect, it } from 'vitest';
import { createStatementGate, isDeferred, runDeferred } from './deferral';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('statement gate (deferred work gives way)', () => {
  it('runs a deferred statement only after the statements of the request running meanwhile', async () => {
    // Generous, so a busy machine's late timers never open a gap that long.
    const gate = createStatementGate({ quietMs: 200 });
    const order: string[] = [];
    const statement = (name: string, ms: number) =>
      gate.run(async () => {
        order.push(`${name} starts`);
        await sleep(ms);
        order.push(`${name} ends`);
      });
    const request = (async () => {
      for (const name of ['r1', 'r2', 'r3']) {
        await statement(name, 5);
        await sleep(1); // the request's own work between its statements
      }
    })();
    await sleep(1);
    const refresh = runDeferred(() => statement('refresh', 1));
    await Promise.all([request, refresh.value]);
    expect(order).toEqual([
      'r1 starts',
      'r1 ends',
      'r2 starts',
      'r2 ends',
      'r3 starts',
      'r3 ends',
      'refresh starts',
      'refresh ends',
    ]);
  });

  it('runs a deferred statement at once when nothing ran before it', async () => {
    const gate = createStatementGate({ quietMs: 1_000 });
    const began = performance.now();
    const refresh = runDeferred(() => gate.run(async () => performance.now() - began));
    expect(await refresh.value).toBeLessThan(500);
  });

  it('stops making promoted work give way, also to statements that keep coming', async () => {
    const gate = createStatementGate({ quietMs: 15 });
    let busy = true;
    let statements = 0;
    const traffic = (async () => {
      while (busy) {
        await gate.run(async () => {
          statements += 1;
          await sleep(2);
        });
      }
    })();
    const refresh = runDeferred(async () => {
      expect(isDeferred()).toBe(true);
      await gate.run(async () => undefined);
      return isDeferred();
    });
    let done = false;
    void refresh.value.then(() => (done = true));
    await sleep(60);
    expect(done).toBe(false);
    expect(statements).toBeGreaterThan(5);
    refresh.promote();
    expect(await refresh.value).toBe(false);
    busy = false;
    await traffic;
  });

  it('leaves work that is not deferred alone, and a failing statement lets the next one run', async () => {
    const gate = createStatementGate({ quietMs: 15 });
    expect(isDeferred()).toBe(false);
    await expect(gate.run(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await sleep(20);
    const refresh = runDeferred(() => gate.run(async () => 'ran'));
    expect(await refresh.value).toBe('ran');
  });
});
