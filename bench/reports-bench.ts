// Report benchmark: `npm run bench:reports [-- --learners 100000]` from the repository root.
//
// For each engine it finds or seeds the large dataset (as bench:lists does),
// builds the app in this process, signs in as the dataset's owner and times
// the report APIs of issue 6 (variable report, chart and leaders by name and
// by course, question report, chart and leaders, custom report data, the
// public report link) through the whole request pipeline, beside the same
// service calls made straight on the database connection in the same run
// (the same SQL, without HTTP, session, tenant scoping and serialization).
// Prints p50 and p95 of each. See README.md.
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import type { Database, DatabaseConnection } from '../apps/server/src/db/client';
import { getReportData } from '../apps/server/src/modules/custom-reports/custom-reports.service';
import {
  getQuestionChart,
  getQuestionLeaders,
  getQuestionReport,
  resolveQuestion,
} from '../apps/server/src/modules/question-reports/question-reports.service';
import {
  getVariableChart,
  getVariableLeaders,
  getVariableReport,
  resolveVariableSource,
} from '../apps/server/src/modules/variable-reports/variable-reports.service';
import {
  benchEngines,
  formatTable,
  pendingCleanups,
  positiveInteger,
  routeOf,
  timeRuns,
  touchOrganizationData,
  withBenchApp,
  type Timing,
} from './lib/api-bench';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

const { values: args } = parseArgs({
  options: {
    learners: { type: 'string', default: process.env.BENCH_LEARNERS ?? '100000' },
    engines: { type: 'string', default: 'pglite,postgres' },
    requests: { type: 'string', default: '20' },
    warmup: { type: 'string', default: '2' },
    'pglite-dir': { type: 'string' },
    help: { type: 'boolean', short: 'h', default: false },
  },
  strict: true,
});

if (args.help) {
  process.stdout.write(
    'usage: npm run bench:reports -- [--learners 100000] [--engines pglite,postgres] [--requests 20]\n' +
      '                               [--warmup 2] [--pglite-dir DIR]\n',
  );
  process.exit(0);
}

const learners = positiveInteger('learners', args.learners);
const requests = positiveInteger('requests', args.requests);
const warmup = positiveInteger('warmup', args.warmup, 0);
const wanted = new Set(args.engines.split(',').map((engine) => engine.trim().toLowerCase()));
// The same folder as bench:lists, so one seeded PGlite serves both.
const pgliteDir = resolve(
  args['pglite-dir'] ??
    process.env.BENCH_PGLITE_DIR ??
    join(root, 'data', 'bench-lists', `pglite-${learners}`),
);

/** The busiest subjects of the dataset, picked by SQL (not through the APIs under test). */
type Subjects = {
  organizationId: string;
  numberName: string;
  numberCourseId: string;
  numberVariableId: string;
  /** Every live variable with the number variable's name (one per course that has it). */
  numberVariableIds: string[];
  textVariableId: string;
  questionId: string;
};

async function pickSubjects(connection: DatabaseConnection, organizationId: string): Promise<Subjects> {
  const { rows } = await connection.db.execute<{
    number_name: string;
    number_course_id: string;
    number_variable_id: string;
    number_variable_ids: string[];
    text_variable_id: string;
    question_id: string;
  }>(sql`
    with numbers as (
      select v.id, v.name, v.course_id, s.usage_count from variables v
      join variable_stats s on s.organization_id = v.organization_id and s.variable_id = v.id
      where v.organization_id = ${organizationId} and v.data_type = 'number'
      order by s.usage_count desc limit 1
    )
    select n.name as number_name, n.course_id as number_course_id, n.id as number_variable_id,
      (select array_agg(v.id::text) from variables v
        where v.organization_id = ${organizationId} and v.name = n.name) as number_variable_ids,
      (select v.id from variables v join variable_stats s on s.organization_id = v.organization_id and s.variable_id = v.id
        where v.organization_id = ${organizationId} and v.data_type = 'text'
        order by s.usage_count desc limit 1) as text_variable_id,
      (select d.question_id from question_daily_stats d where d.organization_id = ${organizationId}
        group by d.question_id order by sum(d.responses) desc limit 1) as question_id
    from numbers n`);
  const row = rows[0];
  if (!row?.question_id || !row.text_variable_id)
    throw new Error('The bench organization has no values or answers');
  return {
    organizationId,
    numberName: row.number_name,
    numberCourseId: row.number_course_id,
    numberVariableId: row.number_variable_id,
    numberVariableIds: row.number_variable_ids,
    textVariableId: row.text_variable_id,
    questionId: row.question_id,
  };
}

type Case = {
  name: string;
  url: string;
  /** The same work without HTTP: the service calls the route makes. */
  direct: () => Promise<unknown>;
};

function cases(database: Database, s: Subjects, reportId: string, token: string): Case[] {
  const org = s.organizationId;
  const byName = () =>
    resolveVariableSource(database, { kind: 'variable', organizationId: org, name: s.numberName });
  const byCourse = () =>
    resolveVariableSource(database, {
      kind: 'course_variable',
      organizationId: org,
      courseId: s.numberCourseId,
      name: s.numberName,
    });
  const report = { filters: {}, sort: 'recordedAt', order: 'desc', page: 1, pageSize: 25 } as const;
  const name = encodeURIComponent(s.numberName);
  return [
    {
      name: 'variable report (all courses)',
      url: `/api/variable-reports/report?name=${name}`,
      direct: async () => getVariableReport(database, await byName(), report, { includeEmail: true }),
    },
    {
      name: 'variable chart (all courses)',
      url: `/api/variable-reports/chart?name=${name}`,
      direct: async () => getVariableChart(database, await byName(), { filters: {} }),
    },
    {
      name: 'variable leaders (all courses)',
      url: `/api/variable-reports/leaders?name=${name}`,
      direct: async () =>
        getVariableLeaders(database, await byName(), { filters: {}, order: 'desc', limit: 10 }),
    },
    {
      name: 'course variable report',
      url: `/api/courses/${s.numberCourseId}/variables/${name}/report`,
      direct: async () => getVariableReport(database, await byCourse(), report, { includeEmail: true }),
    },
    {
      name: 'course variable chart',
      url: `/api/courses/${s.numberCourseId}/variables/${name}/chart`,
      direct: async () => getVariableChart(database, await byCourse(), { filters: {} }),
    },
    {
      name: 'course variable leaders',
      url: `/api/courses/${s.numberCourseId}/variables/${name}/leaders`,
      direct: async () =>
        getVariableLeaders(database, await byCourse(), { filters: {}, order: 'desc', limit: 10 }),
    },
    {
      name: 'question report',
      url: `/api/questions/${s.questionId}/report`,
      direct: async () =>
        getQuestionReport(
          database,
          await resolveQuestion(database, org, s.questionId),
          { filters: {}, sort: 'answeredAt', order: 'desc', page: 1, pageSize: 25 },
          { includeEmail: true },
        ),
    },
    {
      name: 'question chart',
      url: `/api/questions/${s.questionId}/chart`,
      direct: async () =>
        getQuestionChart(database, await resolveQuestion(database, org, s.questionId), { range: {} }),
    },
    {
      name: 'question leaders',
      url: `/api/questions/${s.questionId}/leaders`,
      direct: async () =>
        getQuestionLeaders(database, await resolveQuestion(database, org, s.questionId), {
          range: {},
          limit: 10,
        }),
    },
    // After a change, a report slow to compute is served as computed a
    // moment before while the next figures are computed in the background
    // (decision 021); Refresh waits for them. The direct calls always compute.
    {
      name: 'custom report data',
      url: `/api/custom-reports/${reportId}/data`,
      direct: async () => getReportData(database, org, reportId, { fresh: true }),
    },
    {
      name: 'custom report, Refresh',
      url: `/api/custom-reports/${reportId}/data?fresh=true`,
      direct: async () => getReportData(database, org, reportId, { fresh: true }),
    },
    {
      name: 'public report link',
      url: `/api/public-reports/${token}`,
      direct: async () => getReportData(database, org, reportId, { fresh: true }),
    },
  ];
}

type Result = {
  engine: string;
  name: string;
  url: string;
  status: number;
  api?: Timing;
  changed?: Timing;
  direct?: Timing;
  note?: string;
};

async function benchEngine(
  engineName: string,
  engine: Parameters<typeof withBenchApp>[0],
): Promise<Result[]> {
  return withBenchApp(engine, learners, async ({ app, connection, organizationId, headers }) => {
    const subjects = await pickSubjects(connection, organizationId);
    // A report like one a manager would build, ten items: the score by
    // course, over time and per learner, a text variable, the busiest
    // question, and the questions of the report model (by department, the
    // hardest questions, completions this month, completion over time, the
    // pass rate by department, learners who did not complete).
    const created = await app.inject({
      method: 'POST',
      url: '/api/custom-reports',
      headers,
      payload: {
        name: `Bench report ${new Date().toISOString()}`,
        reportType: 'bar',
        items: [
          { kind: 'variable', variableId: subjects.numberVariableId, comparisonType: 'by_course' },
          { kind: 'variable', variableId: subjects.textVariableId, comparisonType: 'by_learner' },
          { kind: 'question', questionId: subjects.questionId, comparisonType: 'over_time' },
          ...[
            {
              subject: { kind: 'variable', variableIds: [subjects.numberVariableId] },
              measure: { fn: 'average' },
              breakdown: { kind: 'variable', variableName: 'department' },
            },
            {
              subject: { kind: 'questions', courseIds: [] },
              measure: { fn: 'correct_rate' },
              breakdown: { kind: 'question' },
              sort: { by: 'measure', order: 'asc' },
              limit: 10,
            },
            {
              subject: { kind: 'courses', courseIds: [] },
              measure: { fn: 'completions' },
              breakdown: { kind: 'course' },
              filters: { period: { kind: 'this', unit: 'month' } },
            },
            {
              subject: { kind: 'courses', courseIds: [] },
              measure: { fn: 'completion_rate' },
              breakdown: { kind: 'week' },
            },
            {
              subject: { kind: 'variable', variableIds: subjects.numberVariableIds },
              measure: { fn: 'median' },
              breakdown: { kind: 'course' },
            },
            {
              subject: { kind: 'courses', courseIds: [] },
              measure: { fn: 'pass_rate' },
              breakdown: { kind: 'variable', variableName: 'department' },
            },
            {
              subject: { kind: 'variable', variableIds: [subjects.numberVariableId] },
              measure: { fn: 'learners' },
              filters: { activity: [{ did: false, event: 'completed', courseId: subjects.numberCourseId }] },
            },
          ].map((query) => ({ kind: 'query', query })),
        ],
      },
    });
    if (created.statusCode !== 201 && created.statusCode !== 200) {
      throw new Error(`creating the bench report failed: ${created.statusCode} ${created.body}`);
    }
    const reportId = created.json<{ id: string }>().id;
    const shared = await app.inject({
      method: 'PUT',
      url: `/api/custom-reports/${reportId}/public`,
      headers,
      payload: { isPublic: true },
    });
    if (shared.statusCode !== 200) throw new Error(`sharing the bench report failed: ${shared.body}`);
    const token = shared.json<{ publicShareToken: string }>().publicShareToken;

    const touch = () => touchOrganizationData(connection, organizationId);
    const results: Result[] = [];
    for (const entry of cases(connection.db, subjects, reportId, token)) {
      const isPublic = entry.url.startsWith('/api/public-reports/');
      const first = await app.inject({ method: 'GET', url: entry.url, headers: isPublic ? {} : headers });
      const base = { engine: engineName, name: entry.name, url: entry.url, status: first.statusCode };
      if (first.statusCode !== 200) {
        results.push({ ...base, note: `skipped: ${first.statusCode} ${first.body.slice(0, 100)}` });
        continue;
      }
      // How old the figures of a report served after a change were, and how
      // many of them came while newer ones were being computed.
      const served: { refreshing: boolean; ageMs: number }[] = [];
      const request = async () => {
        const response = await app.inject({
          method: 'GET',
          url: entry.url,
          headers: isPublic ? {} : headers,
        });
        const body = response.json<{ data?: { refreshing?: boolean; generatedAt?: string } }>();
        if (typeof body.data?.refreshing === 'boolean' && body.data.generatedAt) {
          served.push({
            refreshing: body.data.refreshing,
            ageMs: Date.now() - Date.parse(body.data.generatedAt),
          });
        }
        return response;
      };
      // Opened again while nothing changed (kept results serve it), and
      // after a change of the organization's data, computed afresh.
      const api = await timeRuns(request, { requests, warmup });
      served.length = 0;
      const changed = await timeRuns(request, { requests, warmup, before: touch });
      const direct = await timeRuns(entry.direct, { requests, warmup, before: touch });
      const refreshing = served.filter((response) => response.refreshing);
      const note =
        served.length > 0
          ? `after a change: ${refreshing.length} of ${served.length} while refreshing, figures up to ` +
            `${(Math.max(...served.map((response) => response.ageMs)) / 1000).toFixed(1)} s old`
          : undefined;
      results.push({ ...base, api, changed, direct, ...(note ? { note } : {}) });
      process.stdout.write(
        `  ${entry.name.padEnd(32)} API p50 ${api.p50.toFixed(1)} ms, p95 ${api.p95.toFixed(1)} ms; ` +
          `after a change p50 ${changed.p50.toFixed(1)} ms, p95 ${changed.p95.toFixed(1)} ms; ` +
          `direct p50 ${direct.p50.toFixed(1)} ms, p95 ${direct.p95.toFixed(1)} ms${note ? `; ${note}` : ''}\n`,
      );
    }
    await app.inject({ method: 'DELETE', url: `/api/custom-reports/${reportId}`, headers });
    return results;
  });
}

async function main(): Promise<void> {
  const engines = benchEngines(wanted, pgliteDir);
  if (engines.length === 0) {
    process.stderr.write('No engine to benchmark (--engines pglite,postgres).\n');
    process.exitCode = 1;
    return;
  }
  const all: Result[] = [];
  for (const engine of engines) all.push(...(await benchEngine(engine.name, engine)));
  const ms = (value: number | undefined) => (value === undefined ? '' : value.toFixed(1));
  process.stdout.write(
    `\nReport APIs, ${learners.toLocaleString('en-US')} learners, ${requests} timed requests each after ` +
      `${warmup} warm-up, one at a time; "API" opened again with nothing changed, "changed" after a write ` +
      `to the organization's data (kept results no longer hold; a custom report slow to compute is then served ` +
      `as computed a moment before while newer figures are computed, and its Refresh waits for them), ` +
      `"direct" the route's service call on the database connection after a change, computed afresh\n\n`,
  );
  process.stdout.write(
    `${formatTable(
      [
        'engine',
        'report',
        'GET',
        'API p50',
        'API p95',
        'changed p50',
        'changed p95',
        'direct p50',
        'direct p95',
        'note',
      ],
      all.map((result) => [
        result.engine,
        result.name,
        routeOf(result.url).replace(/public-reports\/[\w-]+/, 'public-reports/:token'),
        ms(result.api?.p50),
        ms(result.api?.p95),
        ms(result.changed?.p50),
        ms(result.changed?.p95),
        ms(result.direct?.p50),
        ms(result.direct?.p95),
        result.note ?? '',
      ]),
      [3, 4, 5, 6, 7, 8],
    )}\n`,
  );
}

main().catch(async (error: unknown) => {
  process.stderr.write(
    `bench:reports failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  await Promise.allSettled([...pendingCleanups].map((cleanup) => cleanup()));
  process.exitCode = 1;
});
