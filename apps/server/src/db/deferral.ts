import { AsyncLocalStorage } from 'node:async_hooks';

// Work nobody waits for (a kept report's figures recomputed after a change)
// can give way to work somebody does. On PGlite this matters: it runs every
// statement on the one thread, one after the other, so a request whose
// statements queue behind a refresh's waits for all of them, although it
// was served the figures of a moment ago precisely so as not to wait. A
// deferred statement starts only once no other statement ran for a short
// while; a PostgreSQL pool runs both side by side and never asks.

type Deferral = { deferred: boolean; wake: () => void };

const deferrals = new AsyncLocalStorage<Deferral>();
/** Deferred statements waiting for a quiet moment, woken early when their work is promoted. */
const waiting = new Set<() => void>();

export type DeferredWork<T> = {
  value: Promise<T>;
  /** Somebody waits for the value now: its next statements no longer give way. */
  promote: () => void;
};

/** Runs `work` with its statements giving way to other work's (see above). */
export function runDeferred<T>(work: () => Promise<T>): DeferredWork<T> {
  const deferral: Deferral = {
    deferred: true,
    wake: () => {
      for (const wake of [...waiting]) wake();
    },
  };
  const value = deferrals.run(deferral, work);
  return {
    value,
    promote: () => {
      if (!deferral.deferred) return;
      deferral.deferred = false;
      deferral.wake();
    },
  };
}

/** Whether the statement about to run belongs to deferred work that nobody waits for yet. */
export function isDeferred(): boolean {
  return deferrals.getStore()?.deferred ?? false;
}

export type StatementGate = {
  /** Runs one statement (or one whole transaction), in its turn. */
  run: <T>(statement: () => Promise<T>) => Promise<T>;
};

/**
 * The order of a one-connection database: a deferred statement waits until
 * no other statement ran for `quietMs` (a request's statements follow each
 * other within a millisecond or two, so it waits for the whole request, not
 * only the statement running). Every other statement runs at once.
 */
export function createStatementGate(options: { quietMs: number; now?: () => number }): StatementGate {
  const now = options.now ?? (() => performance.now());
  let running = 0;
  let lastEnded = Number.NEGATIVE_INFINITY;

  /** Resolves once `ms` passed, or sooner when deferred work was promoted. */
  const nextLook = (ms: number) =>
    new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        waiting.delete(done);
        resolve();
      };
      const timer = setTimeout(done, Math.max(1, ms));
      waiting.add(done);
    });

  async function quiet(): Promise<void> {
    for (;;) {
      if (!isDeferred()) return;
      const left = running > 0 ? options.quietMs : lastEnded + options.quietMs - now();
      if (running === 0 && left <= 0) return;
      await nextLook(left);
    }
  }

  return {
    async run(statement) {
      if (isDeferred()) {
        await quiet();
        return statement();
      }
      running += 1;
      try {
        return await statement();
      } finally {
        running -= 1;
        lastEnded = now();
      }
    },
  };
}
