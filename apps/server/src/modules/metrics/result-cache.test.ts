import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { getTableName, is, sql } from 'drizzle-orm';
import { PgTable } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/client';
import { isDeferred } from '../../db/deferral';
import { AppError } from '../../errors';
import {
  insertCourse,
  insertLearner,
  insertVariable,
  insertVariableValue,
} from '../../db/factories/learning';
import { insertOrganization } from '../../db/factories/organizations';
import * as schema from '../../db/schema';
import { courses, learners, organizations } from '../../db/schema';
import { createTestDatabase, type TestDatabaseConnection } from '../../test/database';
import { foldReportDataVersions, selectReportDataVersion } from './report-data-version.queries';
import { createResultCache } from './result-cache';

/** A version source the test moves by hand. */
function versions() {
  const current = new Map<string, number>();
  return {
    bump: (organizationId: string) => current.set(organizationId, (current.get(organizationId) ?? 0) + 1),
    read: async (organizationId: string) => String(current.get(organizationId) ?? 0),
  };
}

const never = {} as Database;

describe('result cache', () => {
  it('serves a kept result while the version holds, and computes again once it moves', async () => {
    const source = versions();
    const cache = createResultCache(never, { maxBytes: 1 << 20, readVersion: source.read });
    let computed = 0;
    const compute = async () => ({ computed: ++computed });
    expect(await cache.get('org-a', 'k', compute)).toEqual({ computed: 1 });
    expect(await cache.get('org-a', 'k', compute)).toEqual({ computed: 1 });
    source.bump('org-a');
    expect(await cache.get('org-a', 'k', compute)).toEqual({ computed: 2 });
    // Another organization's change, or another key, is another entry.
    source.bump('org-b');
    expect(await cache.get('org-a', 'k', compute)).toEqual({ computed: 2 });
    expect(await cache.get('org-b', 'k', compute)).toEqual({ computed: 3 });
    expect(await cache.get('org-a', 'other', compute)).toEqual({ computed: 4 });
    expect(cache.stats()).toMatchObject({ hits: 2, misses: 4, entries: 3 });
  });

  it('shares one computation between callers that ask at once', async () => {
    const source = versions();
    const cache = createResultCache(never, { maxBytes: 1 << 20, readVersion: source.read });
    let computed = 0;
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const compute = async () => {
      computed += 1;
      await gate;
      return [computed];
    };
    const asked = Promise.all([cache.get('o', 'k', compute), cache.get('o', 'k', compute)]);
    await new Promise((resolve) => setTimeout(resolve, 10));
    release();
    expect(await asked).toEqual([[1], [1]]);
    expect(computed).toBe(1);
  });

  it('keeps no failure: the next caller computes again', async () => {
    const cache = createResultCache(never, { maxBytes: 1 << 20, readVersion: versions().read });
    await expect(cache.get('o', 'k', () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await cache.get('o', 'k', async () => 'fine')).toBe('fine');
    expect(await cache.get('o', 'k', async () => 'not asked')).toBe('fine');
  });

  it('lets no slower computation at an older version replace a newer one', async () => {
    const source = versions();
    const cache = createResultCache(never, { maxBytes: 1 << 20, readVersion: source.read });
    let releaseOld: () => void = () => undefined;
    const old = cache.get('o', 'k', async () => {
      await new Promise<void>((resolve) => (releaseOld = resolve));
      return 'old';
    });
    await new Promise((resolve) => setTimeout(resolve, 5));
    source.bump('o');
    expect(await cache.get('o', 'k', async () => 'new')).toBe('new');
    releaseOld();
    expect(await old).toBe('old');
    expect(await cache.get('o', 'k', async () => 'again')).toBe('new');
  });

  it('holds no more than its size: the least recently used results go first, and one too large is not kept', async () => {
    const cache = createResultCache(never, { maxBytes: 1_000, readVersion: versions().read });
    const text = (length: number) => async () => 'x'.repeat(length);
    await cache.get('o', 'a', text(200)); // about 400 bytes
    await cache.get('o', 'b', text(200));
    await cache.get('o', 'a', text(1)); // a is used again: b is now the oldest
    await cache.get('o', 'c', text(200));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(cache.stats().bytes).toBeLessThanOrEqual(1_000);
    expect(await cache.get('o', 'a', text(3))).toHaveLength(200);
    expect(await cache.get('o', 'b', text(3))).toHaveLength(3);
    await cache.get('o', 'huge', text(2_000));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(await cache.get('o', 'huge', text(5))).toHaveLength(5);
  });
});

describe('recent results (getRecent)', () => {
  /** A cache whose clock the test moves, serving results up to a minute old. */
  function recentCache(policy = { maxAgeMs: 60_000, minCostMs: 0, minLearners: 0 }) {
    const source = versions();
    const clock = { now: 1_000_000 };
    const cache = createResultCache(never, {
      maxBytes: 1 << 20,
      readVersion: source.read,
      recent: policy,
      now: () => clock.now,
    });
    return { source, clock, cache };
  }
  /** Lets background computations that are already done settle. */
  const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

  it('after a change, serves the last result with its time while one newer computation runs, then the newer', async () => {
    const { source, clock, cache } = recentCache();
    let computed = 0;
    let release: () => void = () => undefined;
    let gate: Promise<void> = Promise.resolve();
    const compute = async () => {
      computed += 1;
      const mine = computed;
      await gate;
      return { computed: mine };
    };
    expect(await cache.getRecent('o', 'k', compute)).toEqual({
      value: { computed: 1 },
      computedAt: new Date(1_000_000),
      refreshing: false,
    });
    source.bump('o');
    clock.now += 5_000;
    gate = new Promise<void>((resolve) => (release = resolve));
    const first = await cache.getRecent('o', 'k', compute);
    expect(first).toEqual({ value: { computed: 1 }, computedAt: new Date(1_000_000), refreshing: true });
    // A second visitor meanwhile gets the same, and starts nothing more.
    expect(await cache.getRecent('o', 'k', compute)).toMatchObject({
      value: { computed: 1 },
      refreshing: true,
    });
    expect(computed).toBe(2);
    release();
    await settle();
    expect(await cache.getRecent('o', 'k', compute)).toEqual({
      value: { computed: 2 },
      computedAt: new Date(1_005_000),
      refreshing: false,
    });
    expect(computed).toBe(2);
    expect(cache.stats()).toMatchObject({ hits: 1, recent: 2, misses: 1 });
  });

  it('computes a refresh nobody waits for deferred, and a Refresh that joins it promotes it', async () => {
    const { source, clock, cache } = recentCache();
    const seen: boolean[] = [];
    let release: () => void = () => undefined;
    let gate: Promise<void> = Promise.resolve();
    const compute = async () => {
      seen.push(isDeferred());
      await gate;
      seen.push(isDeferred());
      return seen.length;
    };
    await cache.getRecent('o', 'k', compute);
    expect(seen).toEqual([false, false]);

    source.bump('o');
    clock.now += 1_000;
    gate = new Promise<void>((resolve) => (release = resolve));
    expect(await cache.getRecent('o', 'k', compute)).toMatchObject({ value: 2, refreshing: true });
    expect(seen).toEqual([false, false, true]);
    const refreshed = cache.getRecent('o', 'k', compute, { fresh: true });
    await settle();
    release();
    expect(await refreshed).toMatchObject({ value: 4, refreshing: false });
    expect(seen).toEqual([false, false, true, false]);
  });

  it('waits for current figures when asked fresh, when the last result is too old, or when it was cheap', async () => {
    const { source, clock, cache } = recentCache();
    let computed = 0;
    const compute = async () => ++computed;
    await cache.getRecent('o', 'k', compute);
    source.bump('o');
    expect(await cache.getRecent('o', 'k', compute, { fresh: true })).toMatchObject({
      value: 2,
      refreshing: false,
    });
    source.bump('o');
    clock.now += 60_001;
    expect(await cache.getRecent('o', 'k', compute)).toMatchObject({ value: 3, refreshing: false });

    const cheap = recentCache({ maxAgeMs: 60_000, minCostMs: 10_000, minLearners: 0 });
    let cheapComputed = 0;
    await cheap.cache.getRecent('o', 'k', async () => ++cheapComputed);
    cheap.source.bump('o');
    expect(await cheap.cache.getRecent('o', 'k', async () => ++cheapComputed)).toMatchObject({
      value: 2,
      refreshing: false,
    });

    const off = recentCache({ maxAgeMs: 0, minCostMs: 0, minLearners: 0 });
    await off.cache.getRecent('o', 'k', async () => 'old');
    off.source.bump('o');
    expect(await off.cache.getRecent('o', 'k', async () => 'new')).toMatchObject({ value: 'new' });
  });

  it('serves a result that was slow to compute, and not one that was quick, under the same policy', async () => {
    const { source, cache } = recentCache({ maxAgeMs: 60_000, minCostMs: 20, minLearners: 0 });
    const slow = async () => {
      await new Promise((resolve) => setTimeout(resolve, 40));
      return 'slow';
    };
    await cache.getRecent('o', 'slow', slow);
    await cache.getRecent('o', 'quick', async () => 'quick');
    source.bump('o');
    expect(await cache.getRecent('o', 'slow', async () => 'slow, newer')).toMatchObject({
      value: 'slow',
      refreshing: true,
    });
    expect(await cache.getRecent('o', 'quick', async () => 'quick, newer')).toMatchObject({
      value: 'quick, newer',
      refreshing: false,
    });
  });

  it('serves a result covering few learners only current, when the caller says how many it covers', async () => {
    const { source, cache } = recentCache({ maxAgeMs: 60_000, minCostMs: 0, minLearners: 1_000 });
    const learnersOf = (value: { learners: number }) => value.learners;
    await cache.getRecent('o', 'small', async () => ({ learners: 999 }), { learnersOf });
    await cache.getRecent('o', 'large', async () => ({ learners: 1_000 }), { learnersOf });
    source.bump('o');
    expect(
      await cache.getRecent('o', 'small', async () => ({ learners: 998 }), { learnersOf }),
    ).toMatchObject({
      value: { learners: 998 },
      refreshing: false,
    });
    expect(
      await cache.getRecent('o', 'large', async () => ({ learners: 1_001 }), { learnersOf }),
    ).toMatchObject({
      value: { learners: 1_000 },
      refreshing: true,
    });
  });

  it('keeps serving the last result when its refresh fails, and the next caller tries again', async () => {
    const { source, cache } = recentCache();
    await cache.getRecent('o', 'k', async () => 'first');
    source.bump('o');
    expect(await cache.getRecent('o', 'k', () => Promise.reject(new Error('boom')))).toMatchObject({
      value: 'first',
      refreshing: true,
    });
    await settle();
    expect(await cache.getRecent('o', 'k', async () => 'second')).toMatchObject({
      value: 'first',
      refreshing: true,
    });
    await settle();
    expect(await cache.getRecent('o', 'k', async () => 'not asked')).toMatchObject({
      value: 'second',
      refreshing: false,
    });
  });

  it('serves the last result no more once its refresh is refused (what it was asked of is gone)', async () => {
    const { source, cache } = recentCache();
    await cache.getRecent('o', 'k', async () => 'first');
    source.bump('o');
    const gone = () => Promise.reject(new AppError('NOT_FOUND', 'Course not found'));
    expect(await cache.getRecent('o', 'k', gone)).toMatchObject({ value: 'first', refreshing: true });
    await settle();
    await expect(cache.getRecent('o', 'k', gone)).rejects.toThrow('Course not found');
  });

  it('serves the other organization nothing of this one, and a plain get never serves an older version', async () => {
    const { source, cache } = recentCache();
    await cache.getRecent('org-a', 'k', async () => 'a');
    expect(await cache.getRecent('org-b', 'k', async () => 'b')).toMatchObject({
      value: 'b',
      refreshing: false,
    });
    source.bump('org-a');
    expect(await cache.get('org-a', 'k', async () => 'a, newer')).toBe('a, newer');
  });
});

describe('report data version', () => {
  let connection: TestDatabaseConnection;
  let db: Database;

  beforeAll(async () => {
    connection = await createTestDatabase();
    db = connection.db;
  });

  afterAll(async () => {
    await connection.close();
  });

  it('moves with every insert, update and delete of what reports read, and only for its organization', async () => {
    const organization = await insertOrganization(db);
    const other = await insertOrganization(db);
    const tenant = { organizationId: organization.id };
    const version = () => selectReportDataVersion(db, organization.id);
    const otherVersion = await selectReportDataVersion(db, other.id);
    const steps: string[] = [await version()];
    const course = await insertCourse(db, tenant);
    steps.push(await version());
    const learner = await insertLearner(db, tenant);
    steps.push(await version());
    const variable = await insertVariable(db, { ...tenant, courseId: course.id, dataType: 'number' });
    await insertVariableValue(db, {
      ...tenant,
      courseId: course.id,
      variableId: variable.id,
      learnerId: learner.id,
    });
    steps.push(await version());
    await db
      .update(learners)
      .set({ name: 'Renamed' })
      .where(sql`${learners.id} = ${learner.id}`);
    steps.push(await version());
    await db
      .update(courses)
      .set({ courseTitle: 'Renamed course' })
      .where(sql`${courses.id} = ${course.id}`);
    steps.push(await version());
    await db.delete(learners).where(sql`${learners.id} = ${learner.id}`);
    steps.push(await version());
    // A statement that changes no row moves nothing.
    await db
      .update(learners)
      .set({ name: 'Nobody' })
      .where(sql`${learners.id} = ${learner.id}`);
    steps.push(await version());

    const numbers = steps.map(BigInt);
    for (let i = 1; i < numbers.length - 1; i++) expect(numbers[i]! > numbers[i - 1]!).toBe(true);
    expect(numbers.at(-1)).toBe(numbers.at(-2));
    expect(await selectReportDataVersion(db, other.id)).toBe(otherVersion);
  });

  it('keeps every sum when the upkeep folds the backends’ rows, and a deleted organization’s rows go with it', async () => {
    const kept = await insertOrganization(db);
    const gone = await insertOrganization(db);
    for (const organization of [kept, gone]) {
      const course = await insertCourse(db, { organizationId: organization.id });
      await insertLearner(db, { organizationId: organization.id });
      await db
        .update(courses)
        .set({ courseTitle: 'Again' })
        .where(sql`${courses.id} = ${course.id}`);
    }
    // Rows of backends that are gone, as a replaced pool leaves them.
    await db.execute(sql`
      insert into report_data_versions (organization_id, backend, changes)
      values (${kept.id}, -1, 5), (${kept.id}, -2, 7)`);
    const before = await selectReportDataVersion(db, kept.id);
    await db.delete(organizations).where(sql`${organizations.id} = ${gone.id}`);

    expect(await foldReportDataVersions(db)).toBeGreaterThanOrEqual(3);
    expect(await selectReportDataVersion(db, kept.id)).toBe(before);
    const rows = await db.execute<{ organization_id: string; backend: number }>(sql`
      select organization_id, backend from report_data_versions
      where organization_id in (${kept.id}, ${gone.id})`);
    expect(rows.rows.map((row) => ({ ...row }))).toEqual([{ organization_id: kept.id, backend: 0 }]);
    expect(await foldReportDataVersions(db)).toBe(0);
    expect(await selectReportDataVersion(db, kept.id)).toBe(before);
  });

  it('is moved by every table that kept results read (the triggers follow the queries)', async () => {
    const tables = await db.execute<{ name: string }>(sql`
      select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and c.relkind in ('r', 'p') and not c.relispartition`);
    // The query files whose statements go through the cache (every file of a module, or those named).
    const modules = new URL('..', import.meta.url).pathname;
    const kept: Record<string, readonly string[] | 'all'> = {
      metrics: 'all',
      'variable-reports': 'all',
      analytics: [
        'analytics-filters.queries.ts',
        'analytics-learners.queries.ts',
        'funnels.queries.ts',
        'heatmaps.queries.ts',
        'learning-paths.queries.ts',
        'overview.queries.ts',
        'questions.queries.ts',
      ],
    };
    const sources: string[] = [];
    for (const [module, files] of Object.entries(kept)) {
      for (const file of await readdir(join(modules, module))) {
        if (files !== 'all' && !files.includes(file)) continue;
        // The version's own queries read what they count with, not report data.
        if (!file.endsWith('.ts') || file.endsWith('.test.ts') || file.startsWith('report-data-version'))
          continue;
        sources.push(await readFile(join(modules, module, file), 'utf8'));
      }
    }
    // A table is named in SQL text (in a statement or a fragment of one), or interpolated as its
    // Drizzle table (`join ${learners} ln`); comments are left out, code is not (over-inclusive is safe).
    const code = sources.map((source) =>
      source.replace(/\/\*[\s\S]*?\*\//g, ' ').replace(/(^|[^:])\/\/.*$/gm, '$1'),
    );
    const exportOf = new Map<string, string[]>();
    for (const [name, value] of Object.entries(schema)) {
      if (!is(value, PgTable)) continue;
      exportOf.set(getTableName(value), [...(exportOf.get(getTableName(value)) ?? []), name]);
    }
    const named = (table: string) =>
      [`\\b${table}\\b`, ...(exportOf.get(table) ?? []).map((name) => `\\$\\{${name}\\}`)].some((form) =>
        code.some((source) => new RegExp(form).test(source)),
      );
    const read = tables.rows
      .map((row) => row.name)
      .filter((name) => name !== 'report_data_versions')
      .filter(named)
      .sort();
    const triggered = await db.execute<{ name: string }>(sql`
      select distinct c.relname as name from pg_trigger t join pg_class c on c.oid = t.tgrelid
      where t.tgname like '%\_report\_version\_%' and not t.tgisinternal
      group by c.relname having count(*) = 3`);
    expect(read.length).toBeGreaterThan(10);
    expect(triggered.rows.map((row) => row.name).sort()).toEqual(read);
  });
});
