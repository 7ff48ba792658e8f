// Analytics benchmark: `npm run bench:analytics [-- --learners 100000]` from the repository root.
//
// For each engine it finds or seeds the large dataset with its slide events
// (as bench:reports does, but a Bench Org seeded before the seed wrote slide
// views does not count), builds the app in this process, signs in as the
// dataset's owner and times every analytics API one request at a time
// (p50/p95 against the targets: 500 ms on PostgreSQL, 1.5 s on PGlite).
// Then it captures the SQL each endpoint runs and replays it under
// EXPLAIN (ANALYZE, BUFFERS), printing each statement's time, rows and
// buffers, its slowest nodes and what looks wrong (sequential scans of big
// tables, many inner loops, sorts and hashes spilling to disk). An endpoint
// that is not built yet (404 "Route ... not found") is skipped with a line,
// so the benchmark can run again as the endpoints arrive. See README.md.
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import type { AppConfig } from '../apps/server/src/config';
import type { DatabaseConnection } from '../apps/server/src/db/client';
import { enableResultCache } from '../apps/server/src/modules/metrics/result-cache';
import {
  benchEngines,
  formatTable,
  isMissingRoute,
  pendingCleanups,
  positiveInteger,
  timeRuns,
  touchOrganizationData,
  withBenchApp,
  type Engine,
  type Timing,
} from './lib/api-bench';
import { explainStatements, startCapture, stopCapture, type PlanSummary } from './lib/query-plans';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

const { values: args } = parseArgs({
  options: {
    learners: { type: 'string', default: process.env.BENCH_LEARNERS ?? '100000' },
    engines: { type: 'string', default: 'pglite,postgres' },
    requests: { type: 'string', default: '20' },
    warmup: { type: 'string', default: '2' },
    'pglite-dir': { type: 'string' },
    only: { type: 'string' },
    plans: { type: 'boolean', default: false },
    'no-explain': { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  },
  strict: true,
});

if (args.help) {
  process.stdout.write(
    'usage: npm run bench:analytics -- [--learners 100000] [--engines pglite,postgres] [--requests 20]\n' +
      '                                 [--warmup 2] [--pglite-dir DIR] [--only NAME,...] [--plans] [--no-explain]\n',
  );
  process.exit(0);
}

const learners = positiveInteger('learners', args.learners);
const requests = positiveInteger('requests', args.requests);
const warmup = positiveInteger('warmup', args.warmup, 0);
const wanted = new Set(args.engines.split(',').map((engine) => engine.trim().toLowerCase()));
const only = args.only ? new Set(args.only.split(',').map((name) => name.trim().toLowerCase())) : undefined;
// The same folder as bench:lists and bench:reports, so one seeded PGlite
// serves them all (a dataset without slide events there gets a new one).
const pgliteDir = resolve(
  args['pglite-dir'] ??
    process.env.BENCH_PGLITE_DIR ??
    join(root, 'data', 'bench-lists', `pglite-${learners}`),
);

const TARGET_MS: Record<string, number> = { PostgreSQL: 500, PGlite: 1500 };

/** What the requests are about, picked by SQL (not through the APIs under test). */
type Subjects = { courseId: string; courseTitle: string; lastSlide: number };

async function pickSubjects(connection: DatabaseConnection, organizationId: string): Promise<Subjects> {
  const { rows } = await connection.db.execute<{
    course_id: string;
    course_title: string;
    last_slide: number | string | null;
  }>(sql`
    with busiest as (
      select course_id, sum(runs) as runs from course_daily_stats
      where organization_id = ${organizationId} group by course_id order by runs desc limit 1
    )
    select b.course_id, c.course_title,
      (select max(slide_number) from questions q
        where q.organization_id = ${organizationId} and q.course_id = b.course_id) as last_slide
    from busiest b join courses c on c.organization_id = ${organizationId} and c.id = b.course_id`);
  const row = rows[0];
  if (!row) throw new Error('The bench organization has no course runs');
  return { courseId: row.course_id, courseTitle: row.course_title, lastSlide: Number(row.last_slide ?? 5) };
}

type Case = { name: string; method: 'GET' | 'POST'; url: string; body?: unknown };

function cases(s: Subjects): Case[] {
  const course = `courseId=${s.courseId}`;
  return [
    { name: 'settings', method: 'GET', url: '/api/analytics/settings' },
    { name: 'questions', method: 'GET', url: `/api/analytics/questions?${course}` },
    {
      name: 'funnel (course, 5 steps, compare)',
      method: 'POST',
      url: '/api/analytics/funnels/compute',
      body: {
        definition: {
          courseId: s.courseId,
          steps: [
            { kind: 'course_started' },
            { kind: 'slide_viewed', slideNumber: 2 },
            { kind: 'slide_viewed', slideNumber: Math.max(3, s.lastSlide) },
            { kind: 'question_answered' },
            { kind: 'completed' },
          ],
          order: 'sequential',
        },
        compare: true,
      },
    },
    {
      name: 'funnel (all courses, by department)',
      method: 'POST',
      url: '/api/analytics/funnels/compute',
      body: {
        definition: { steps: [{ kind: 'course_started' }, { kind: 'passed' }], order: 'sequential' },
        breakdown: { kind: 'variable', variableName: 'department' },
      },
    },
    { name: 'heatmap questions', method: 'GET', url: `/api/analytics/heatmaps/questions?${course}` },
    { name: 'heatmap learners', method: 'GET', url: `/api/analytics/heatmaps/learners?${course}` },
    { name: 'heatmap activity', method: 'GET', url: '/api/analytics/heatmaps/activity' },
    { name: 'learning paths', method: 'GET', url: `/api/analytics/learning-paths?${course}` },
    { name: 'course paths', method: 'GET', url: '/api/analytics/learning-paths/courses' },
    { name: 'overview', method: 'GET', url: '/api/analytics/overview' },
    { name: 'insights', method: 'GET', url: '/api/analytics/insights' },
  ];
}

type Result = {
  engine: string;
  name: string;
  route: string;
  status: number;
  /** Opened again with nothing changed. */
  kept?: Timing;
  /** After a change of the organization's data, as served (figures of a moment ago, when slow). */
  timing?: Timing;
  /** After a change, computed afresh every time (the kept-results policy off). */
  computing?: Timing;
  note?: string;
  plans?: PlanSummary[];
  /** Statements the request ran (the request's plumbing included). */
  statements?: number;
};

const routeLabel = (entry: Case) => `${entry.method} ${entry.url.split('?')[0]}`;

async function benchEngine(engine: Engine): Promise<Result[]> {
  return withBenchApp(
    engine,
    learners,
    async ({ app, connection, organizationId, headers, config }) => {
      const subjects = await pickSubjects(connection, organizationId);
      process.stdout.write(`  course: ${subjects.courseTitle}\n`);
      // How old the figures served after a change were, and how many came
      // while newer ones were being computed (decision 022).
      const served: { refreshing: boolean; ageMs: number }[] = [];
      const send = async (entry: Case) => {
        const response = await app.inject({
          method: entry.method,
          url: entry.url,
          headers,
          ...(entry.body === undefined ? {} : { payload: entry.body as Record<string, unknown> }),
        });
        if (response.statusCode === 200) {
          const basis = response.json<{ basis?: { refreshing?: boolean; computedAt?: string } }>().basis;
          if (typeof basis?.refreshing === 'boolean' && basis.computedAt) {
            served.push({ refreshing: basis.refreshing, ageMs: Date.now() - Date.parse(basis.computedAt) });
          }
        }
        return response;
      };
      const keepResults = (recent: AppConfig['reportRecent']) =>
        enableResultCache(connection.db, { maxMb: config.reportCacheMb, recent });
      const results: Result[] = [];
      for (const entry of cases(subjects)) {
        if (only && ![...only].some((name) => entry.name.toLowerCase().includes(name))) continue;
        const base = { engine: engine.name, name: entry.name, route: routeLabel(entry) };
        const first = await send(entry);
        if (isMissingRoute(first.statusCode, first.body)) {
          results.push({ ...base, status: 404, note: 'skipped: route not found (not built yet)' });
          process.stdout.write(`  ${entry.name.padEnd(36)} skipped: route not found (not built yet)\n`);
          continue;
        }
        if (first.statusCode !== 200) {
          const note = `skipped: ${first.statusCode} ${first.body.replace(/\s+/g, ' ').slice(0, 120)}`;
          results.push({ ...base, status: first.statusCode, note });
          process.stdout.write(`  ${entry.name.padEnd(36)} ${note}\n`);
          continue;
        }
        // Opened again while nothing changed (kept results serve it), and
        // after a change of the organization's data, computed afresh.
        const touch = () => touchOrganizationData(connection, organizationId);
        const kept = await timeRuns(() => send(entry), { requests, warmup });
        served.length = 0;
        const timing = await timeRuns(() => send(entry), { requests, warmup, before: touch });
        const refreshing = served.filter((response) => response.refreshing);
        const note =
          served.length === 0
            ? ''
            : `${refreshing.length} of ${served.length} while refreshing` +
              (refreshing.length > 0
                ? `, figures up to ${(Math.max(...served.map((response) => response.ageMs)) / 1000).toFixed(1)} s old`
                : '');
        // The same requests with every answer computed afresh: what the
        // queries take, whatever the policy serves meanwhile.
        keepResults({ maxAgeMs: 0, minCostMs: 0, minLearners: 0 });
        const computing = await timeRuns(() => send(entry), { requests, warmup, before: touch });
        const target = TARGET_MS[engine.name] ?? Number.POSITIVE_INFINITY;
        process.stdout.write(
          `  ${entry.name.padEnd(36)} kept p50 ${kept.p50.toFixed(1)} ms, p95 ${kept.p95.toFixed(1)} ms; ` +
            `after a change p50 ${timing.p50.toFixed(1)} ms, p95 ${timing.p95.toFixed(1)} ms${note ? ` (${note})` : ''}` +
            `${timing.p95 > target ? `  OVER the ${target} ms target` : ''}; ` +
            `computing p50 ${computing.p50.toFixed(1)} ms, p95 ${computing.p95.toFixed(1)} ms\n`,
        );
        const result: Result = { ...base, status: 200, kept, timing, computing, note };
        if (!args['no-explain']) {
          await touch();
          startCapture();
          try {
            await send(entry);
          } finally {
            const captured = stopCapture();
            result.statements = captured.length;
            result.plans = await explainStatements(connection, captured, { withText: args.plans });
          }
        }
        keepResults(config.reportRecent);
        results.push(result);
      }
      return results;
    },
    { withSlideEvents: true },
  );
}

function formatPlans(results: readonly Result[]): string {
  const out: string[] = [];
  for (const result of results) {
    if (!result.plans) continue;
    const main = result.plans.filter((plan) => !plan.isPlumbing);
    out.push(
      `\n${result.engine} · ${result.name} (${result.route}): ${main.length} statement(s) of its own, ` +
        `${(result.statements ?? 0) - main.length} of the request's plumbing (session, membership) or settings`,
    );
    main
      .sort((a, b) => b.executionMs - a.executionMs)
      .forEach((plan, index) => {
        out.push(
          `  #${index + 1} ${plan.executionMs.toFixed(1)} ms (planning ${plan.planningMs.toFixed(1)} ms), ` +
            `${plan.rows.toLocaleString('en-US')} rows out, buffers hit ${plan.sharedHit.toLocaleString('en-US')} ` +
            `read ${plan.sharedRead.toLocaleString('en-US')}` +
            (plan.tempWritten > 0 ? ` temp written ${plan.tempWritten.toLocaleString('en-US')}` : '') +
            `; tables: ${plan.relations.join(', ') || '(none)'}`,
        );
        out.push(`     ${plan.sql}`);
        for (const line of plan.slowest) out.push(`     slowest: ${line}`);
        for (const line of plan.findings) out.push(`     ! ${line}`);
        if (plan.text) out.push(plan.text.replace(/^/gm, '       '));
      });
  }
  return out.join('\n');
}

async function main(): Promise<void> {
  const engines = benchEngines(wanted, pgliteDir);
  if (engines.length === 0) {
    process.stderr.write('No engine to benchmark (--engines pglite,postgres).\n');
    process.exitCode = 1;
    return;
  }
  const all: Result[] = [];
  for (const engine of engines) all.push(...(await benchEngine(engine)));
  const ms = (value: number | undefined) => (value === undefined ? '' : value.toFixed(1));
  process.stdout.write(
    `\nAnalytics APIs, ${learners.toLocaleString('en-US')} learners, ${requests} timed requests each after ` +
      `${warmup} warm-up, one at a time through the whole app; "kept" opened again with nothing changed, ` +
      `the others after a change of the organization's data: as served (a slow answer over many learners as ` +
      `computed a moment ago, while newer figures compute: decision 022), which the targets are held to ` +
      `(p95 ≤ 500 ms on PostgreSQL, ≤ 1500 ms on PGlite), and computed afresh every time\n\n`,
  );
  process.stdout.write(
    `${formatTable(
      [
        'engine',
        'endpoint',
        'route',
        'kept p50',
        'kept p95',
        'p50 ms',
        'p95 ms',
        'max ms',
        'target',
        'computing p50',
        'computing p95',
        'note',
      ],
      all.map((result) => {
        const target = TARGET_MS[result.engine];
        const verdict = result.timing
          ? result.timing.p95 <= (target ?? Number.POSITIVE_INFINITY)
            ? 'ok'
            : 'OVER'
          : '';
        return [
          result.engine,
          result.name,
          result.route,
          ms(result.kept?.p50),
          ms(result.kept?.p95),
          ms(result.timing?.p50),
          ms(result.timing?.p95),
          ms(result.timing?.max),
          result.timing ? `${verdict} (${target ?? '-'})` : '',
          ms(result.computing?.p50),
          ms(result.computing?.p95),
          result.note ?? '',
        ];
      }),
      [3, 4, 5, 6, 7, 9, 10],
    )}\n`,
  );
  if (!args['no-explain']) {
    process.stdout.write(
      '\nPlans: EXPLAIN (ANALYZE, BUFFERS) of the statements each endpoint ran (one more request, captured), ' +
        'replayed in a rolled-back transaction; "!" marks a sequential scan of 10 000 rows or more, ' +
        '5 000 or more inner loops, or a sort or hash that spilled to disk\n',
    );
    process.stdout.write(`${formatPlans(all)}\n`);
  }
}

main().catch(async (error: unknown) => {
  process.stderr.write(
    `bench:analytics failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  await Promise.allSettled([...pendingCleanups].map((cleanup) => cleanup()));
  process.exitCode = 1;
});
