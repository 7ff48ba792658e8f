import type { SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { LRUCache } from 'lru-cache';
import type { Database } from '../../db/client';
import { runDeferred } from '../../db/deferral';
import { AppError } from '../../errors';
import { executeWithMemory, type StatementSettings } from '../../db/execute-with-memory';
import { selectReportDataVersion } from './report-data-version.queries';

// Report and analytics results kept until their organization's data
// changes (decision 019). A ten-item custom report over 100 000 learners
// costs over a second of database CPU to compute, a funnel or item analysis
// about as much, and the same page is opened again and again (a dashboard,
// a public link on a wall screen) while nothing it reads has changed. Each
// result is kept under the organization's report data version, which every
// writing statement on a table a kept result reads moves in its own
// transaction: a kept result is served only while the version it was
// computed at is still the current one, and the numbers of an organization
// that is being written to are computed afresh.
//
// One exception, asked for by name (`getRecent`, decisions 021 and 022): a
// whole custom report or analytics answer that took long to compute may be
// served as it was computed a short while ago, with that time, while its new
// figures are computed in the background: the results that cannot be
// computed within their targets at scale, each shown as a dated whole, not
// beside other numbers.

type Entry = {
  version: string;
  value: Promise<unknown>;
  /** Bytes of the settled value as JSON (an estimate of its memory), 1 while computing. */
  size: number;
  /** When its version was read (ms since the epoch): it holds every change committed before. */
  computedAt: number;
  /** How long it took to compute (ms), once settled. */
  cost: number | null;
  /** The last settled result for the same key, served meanwhile by `getRecent` while this one computes. */
  previous: Entry | null;
  /** A refresh nobody waited for computes deferred; a caller that waits for it promotes it. */
  promote: () => void;
};

const promoted = () => undefined;

/** A kept result as `getRecent` serves it. */
export type RecentResult<T> = {
  value: T;
  /** When the figures were computed (the moment their data version was read). */
  computedAt: Date;
  /** True when the data changed since, and newer figures are being computed. */
  refreshing: boolean;
};

/**
 * When `getRecent` may serve a result computed before the latest change:
 * no older than `maxAgeMs`, only when computing it took at least
 * `minCostMs`, and (when the caller says how many learners a result covers)
 * only when it covers at least `minLearners`: a small organization's result
 * is always computed afresh, however slow the machine was once. `maxAgeMs`
 * 0 never serves one.
 */
export type RecentPolicy = { maxAgeMs: number; minCostMs: number; minLearners: number };

/** What a caller of `getRecent` may add: `fresh` waits for current figures; `learnersOf` tells how many learners a result covers. */
export type RecentOptions<T> = { fresh?: boolean; learnersOf?: (value: T) => number };

export type ResultCache = {
  /**
   * The value kept for `key` in the organization at its current data
   * version, else `compute()`'s, kept. Callers asking for the same key at the
   * same version while it is computed share one computation.
   */
  get: <T>(organizationId: string, key: string, compute: () => Promise<T>) => Promise<T>;
  /**
   * As `get`, but once the data changed, an expensive result computed
   * recently (see `RecentPolicy`) is served at once while one newer
   * computation runs in the background for the next caller. `fresh` waits
   * for current figures instead.
   */
  getRecent: <T>(
    organizationId: string,
    key: string,
    compute: () => Promise<T>,
    options?: RecentOptions<T>,
  ) => Promise<RecentResult<T>>;
  /** Counts since the cache was made (hits, results served while refreshing, misses, kept entries and their bytes). */
  stats: () => { hits: number; recent: number; misses: number; entries: number; bytes: number };
};

const caches = new WeakMap<Database, ResultCache>();

/**
 * Turns the cache on for a database handle (the application's root handle:
 * a transaction is another handle and never reads kept results, since what
 * it sees may never commit). `maxMb` 0 leaves it off.
 */
export function enableResultCache(db: Database, options: { maxMb: number; recent?: RecentPolicy }): void {
  if (options.maxMb <= 0) {
    caches.delete(db);
    return;
  }
  caches.set(
    db,
    createResultCache(db, {
      maxBytes: options.maxMb * 1024 * 1024,
      ...(options.recent ? { recent: options.recent } : {}),
    }),
  );
}

/** The cache of a handle, when it has one. */
export function resultCacheOf(db: Database): ResultCache | undefined {
  return caches.get(db);
}

/** `compute()` through the handle's cache when it has one, else straight. */
export async function cachedResult<T>(
  db: Database,
  organizationId: string,
  key: string,
  compute: () => Promise<T>,
): Promise<T> {
  const cache = caches.get(db);
  return cache ? cache.get(organizationId, key, compute) : compute();
}

/**
 * `compute()` through the handle's cache as `getRecent` serves it (a recent
 * result while newer figures are computed); without a cache, computed now.
 */
export async function cachedRecentResult<T>(
  db: Database,
  organizationId: string,
  key: string,
  compute: () => Promise<T>,
  options: RecentOptions<T> = {},
): Promise<RecentResult<T>> {
  const cache = caches.get(db);
  if (cache) return cache.getRecent(organizationId, key, compute, options);
  const computedAt = new Date();
  return { value: await compute(), computedAt, refreshing: false };
}

/**
 * Renders statements into their cache keys only, never to run them: the
 * benchmark's capture of a request's SQL (`bench/lib/query-plans.ts`) leaves
 * this one out, so a kept statement is not listed twice there.
 */
export const keyDialect = new PgDialect();

/** The value with every array and plain object in it frozen (in place). */
export function deepFreeze<T>(value: T): T {
  if (value === null || typeof value !== 'object' || Object.isFrozen(value)) return value;
  if (
    !Array.isArray(value) &&
    Object.getPrototypeOf(value) !== Object.prototype &&
    Object.getPrototypeOf(value) !== null
  )
    return value;
  Object.freeze(value);
  for (const child of Object.values(value)) deepFreeze(child);
  return value;
}

/**
 * Runs a read statement of one organization's data (with its own settings,
 * as `executeWithMemory` does), its rows kept until that organization's
 * data changes. The statement's text and parameters are its key, so two
 * statements share rows only when they are the same statement. It must read
 * nothing but tables whose writes move the version (migration 0025; the
 * result-cache test checks every module that keeps results) and call no
 * function of the clock. The rows are shared: the array is a copy, the rows
 * are not to be changed.
 */
export async function executeKept<T extends Record<string, unknown>>(
  db: Database,
  organizationId: string,
  statement: SQL,
  settings?: StatementSettings,
): Promise<T[]> {
  const compute = async () =>
    settings ? executeWithMemory<T>(db, statement, settings) : (await db.execute<T>(statement)).rows;
  if (!caches.has(db)) return compute();
  const query = keyDialect.sqlToQuery(statement);
  const rows = await cachedResult(
    db,
    organizationId,
    `sql:${query.sql}\u0000${JSON.stringify(query.params, (_key, value: unknown) => (typeof value === 'bigint' ? `${value}n` : value))}`,
    compute,
  );
  return [...rows];
}

export function createResultCache(
  db: Database,
  options: {
    maxBytes: number;
    readVersion?: (organizationId: string) => Promise<string>;
    recent?: RecentPolicy;
    /** The clock (ms since the epoch), for tests. */
    now?: () => number;
  },
): ResultCache {
  const readVersion =
    options.readVersion ?? ((organizationId) => selectReportDataVersion(db, organizationId));
  const recent = options.recent ?? { maxAgeMs: 0, minCostMs: 0, minLearners: 0 };
  const now = options.now ?? Date.now;
  const entries = new LRUCache<string, Entry>({
    maxSize: options.maxBytes,
    sizeCalculation: (entry) => Math.max(1, entry.size),
  });
  let hits = 0;
  let served = 0;
  let misses = 0;

  /** The last settled result of an entry: itself, or the one it replaces while it computes. */
  const settledOf = (entry: Entry | undefined): Entry | null =>
    entry === undefined ? null : entry.cost !== null ? entry : entry.previous;

  /**
   * Starts computing `id` at `version`, kept unless a newer computation is
   * kept already; `deferred` for a refresh nobody waits for yet (its
   * statements give way to requests' on PGlite, see db/deferral.ts).
   */
  function start(
    id: string,
    version: string,
    computedAt: number,
    compute: () => Promise<unknown>,
    deferred = false,
  ): Entry {
    const kept = entries.get(id);
    const began = performance.now();
    const work = deferred ? runDeferred(compute) : { value: compute(), promote: promoted };
    // Frozen: every later caller gets the same value, so a caller that
    // changed it would change what the others are served.
    const value = work.value.then(deepFreeze);
    const entry: Entry = {
      version,
      value,
      size: 1,
      computedAt,
      cost: null,
      previous: settledOf(kept),
      promote: work.promote,
    };
    // A slower computation at an older version must not replace a newer one.
    if (!kept || BigInt(kept.version) <= BigInt(version)) entries.set(id, entry);
    value.then(
      (settled) => {
        if (entries.peek(id) !== entry) return;
        const size = (JSON.stringify(settled) ?? '').length * 2;
        // Re-set to account its size (a value larger than the whole cache is
        // not kept); settled, it no longer needs the one it replaces.
        if (size > options.maxBytes) entries.delete(id);
        else entries.set(id, { ...entry, size, cost: performance.now() - began, previous: null });
      },
      (error: unknown) => {
        // A failure is not kept: the next request computes again (and a
        // recent result it was to replace stays servable meanwhile), unless
        // the request itself no longer holds (its course was deleted): the
        // next caller is then told so rather than served the figures before.
        if (entries.peek(id) !== entry) return;
        const refused = error instanceof AppError && error.statusCode < 500;
        if (entry.previous && !refused) entries.set(id, entry.previous);
        else entries.delete(id);
      },
    );
    return entry;
  }

  return {
    async get<T>(organizationId: string, key: string, compute: () => Promise<T>): Promise<T> {
      const computedAt = now();
      const version = await readVersion(organizationId);
      const id = `${organizationId}\u0000${key}`;
      const kept = entries.get(id);
      if (kept && kept.version === version) {
        hits += 1;
        kept.promote();
        return kept.value as Promise<T>;
      }
      misses += 1;
      return start(id, version, computedAt, compute).value as Promise<T>;
    },

    async getRecent<T>(
      organizationId: string,
      key: string,
      compute: () => Promise<T>,
      { fresh = false, learnersOf }: RecentOptions<T> = {},
    ): Promise<RecentResult<T>> {
      const computedAt = now();
      const version = await readVersion(organizationId);
      const id = `${organizationId}\u0000${key}`;
      const kept = entries.get(id);
      const current = kept && kept.version === version ? kept : null;
      if (current && current.cost !== null) {
        hits += 1;
        return {
          value: (await current.value) as T,
          computedAt: new Date(current.computedAt),
          refreshing: false,
        };
      }
      const last = settledOf(kept);
      const servable =
        !fresh &&
        last !== null &&
        last.cost !== null &&
        recent.maxAgeMs > 0 &&
        last.cost >= recent.minCostMs &&
        computedAt - last.computedAt <= recent.maxAgeMs &&
        (learnersOf === undefined || learnersOf((await last.value) as T) >= recent.minLearners);
      if (servable) {
        served += 1;
        // One computation at a time per key: a refresh already running (even
        // one that started before the latest change) is left to finish, and
        // the caller after it starts the next.
        if (kept === undefined || kept.cost !== null) {
          const refresh = start(id, version, computedAt, compute, true);
          refresh.value.catch(() => undefined);
        }
        return { value: (await last.value) as T, computedAt: new Date(last.computedAt), refreshing: true };
      }
      misses += 1;
      const entry = current ?? start(id, version, computedAt, compute);
      entry.promote();
      return { value: (await entry.value) as T, computedAt: new Date(entry.computedAt), refreshing: false };
    },

    stats: () => ({ hits, recent: served, misses, entries: entries.size, bytes: entries.calculatedSize }),
  };
}
