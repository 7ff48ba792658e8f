// EXPLAIN ANALYZE of the report model's queries on a seeded database:
// `DATABASE_URL=postgres://... npx tsx bench/report-queries-explain.ts [--plans]`, or
// `npx tsx bench/report-queries-explain.ts --pglite-dir DIR` on a seeded PGlite folder.
// Runs each query of a manager's report (the ones bench:reports times through
// the API) straight through the metrics layer, prints its time, and with
// --plans the plan, so an index or a rewrite can be judged on real data.
// When the server runs on this machine it also prints the CPU time its
// backend spent per run (from /proc): on a machine shared with other work,
// wall time grows with the load, CPU time much less.
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import type { ReportQueryInput } from '@courselens/contracts';
import { reportQuerySchema } from '@courselens/contracts';
import { createDatabase } from '../apps/server/src/db/client';
import {
  REPORT_WORK_MEM,
  buildReportQuery,
  executeReportStatement,
  factSource,
} from '../apps/server/src/modules/metrics/report-query.queries';
import {
  describeSubject,
  effectiveQuery,
  resolvePeriod,
} from '../apps/server/src/modules/metrics/report-query.service';

const { values: args } = parseArgs({
  options: { plans: { type: 'boolean', default: false }, 'pglite-dir': { type: 'string' } },
});
const url = process.env.DATABASE_URL;
const pgliteDir = args['pglite-dir'];
if (!url?.startsWith('postgres') && !pgliteDir) {
  throw new Error(
    'Set DATABASE_URL to a seeded PostgreSQL database, or pass --pglite-dir DIR (a seeded PGlite folder)',
  );
}

// One connection, so every statement runs in the same backend process.
const connection = pgliteDir
  ? await createDatabase({ kind: 'pglite', dataDir: pgliteDir })
  : await createDatabase({ kind: 'postgres', url: url ?? '', maxConnections: 1 });
const db = connection.db;
const backendPid = pgliteDir
  ? 0
  : Number((await db.execute<{ pid: number }>(sql`select pg_backend_pid() as pid`)).rows[0]?.pid ?? 0);
/** The backend's user + system CPU time in ms, or null when /proc does not show it (a remote server). */
function backendCpuMs(): number | null {
  if (backendPid === 0) return null;
  try {
    const fields = readFileSync(`/proc/${backendPid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    // utime and stime are fields 14 and 15 of the line (11 and 12 after the name), in 1/100 s.
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null;
  }
}
const { rows: orgs } = await db.execute<{ id: string }>(sql`
  select o.id from organizations o where o.name like 'Bench Org %'
  order by (select count(*) from learners l where l.organization_id = o.id) desc limit 1`);
const organizationId = orgs[0]?.id;
if (!organizationId) throw new Error('No Bench Org: run `npm run seed -- --learners 100000` first');
const { rows } = await db.execute<{
  number_id: string;
  number_ids: string[];
  course_id: string;
  question_id: string;
}>(sql`
  with numbers as (
    select v.id, v.name, v.course_id from variables v
    join variable_stats s on s.organization_id = v.organization_id and s.variable_id = v.id
    where v.organization_id = ${organizationId} and v.data_type = 'number'
    order by s.usage_count desc limit 1)
  select n.id as number_id, n.course_id,
    (select array_agg(v.id::text) from variables v where v.organization_id = ${organizationId} and v.name = n.name) as number_ids,
    (select d.question_id from question_daily_stats d where d.organization_id = ${organizationId}
      group by d.question_id order by sum(d.responses) desc limit 1) as question_id
  from numbers n`);
const s = rows[0];
if (!s) throw new Error('no subjects');

const queries: [string, ReportQueryInput][] = [
  [
    'number variable by course',
    { subject: { kind: 'variable', variableIds: [s.number_id] }, breakdown: { kind: 'course' } },
  ],
  [
    'number variable by learner (top 200)',
    { subject: { kind: 'variable', variableIds: [s.number_id] }, breakdown: { kind: 'learner' } },
  ],
  [
    'number variable weekly',
    { subject: { kind: 'variable', variableIds: [s.number_id] }, breakdown: { kind: 'week' } },
  ],
  [
    'question weekly',
    { subject: { kind: 'question', questionId: s.question_id }, breakdown: { kind: 'week' } },
  ],
  [
    'question by learner, points',
    {
      subject: { kind: 'question', questionId: s.question_id },
      measure: { fn: 'points' },
      breakdown: { kind: 'learner' },
    },
  ],
  [
    'average by department',
    {
      subject: { kind: 'variable', variableIds: [s.number_id] },
      measure: { fn: 'average' },
      breakdown: { kind: 'variable', variableName: 'department' },
    },
  ],
  [
    'hardest questions',
    {
      subject: { kind: 'questions', courseIds: [] },
      measure: { fn: 'correct_rate' },
      breakdown: { kind: 'question' },
      sort: { by: 'measure', order: 'asc' },
      limit: 10,
    },
  ],
  [
    'completions by course this month',
    {
      subject: { kind: 'courses', courseIds: [] },
      measure: { fn: 'completions' },
      breakdown: { kind: 'course' },
      filters: { period: { kind: 'this', unit: 'month' } },
    },
  ],
  [
    'completion rate weekly',
    {
      subject: { kind: 'courses', courseIds: [] },
      measure: { fn: 'completion_rate' },
      breakdown: { kind: 'week' },
    },
  ],
  [
    'median by course (same name)',
    {
      subject: { kind: 'variable', variableIds: s.number_ids },
      measure: { fn: 'median' },
      breakdown: { kind: 'course' },
    },
  ],
  [
    'pass rate by department',
    {
      subject: { kind: 'courses', courseIds: [] },
      measure: { fn: 'pass_rate' },
      breakdown: { kind: 'variable', variableName: 'department' },
    },
  ],
  [
    'learners who did not complete',
    {
      subject: { kind: 'variable', variableIds: [s.number_id] },
      measure: { fn: 'learners' },
      filters: { activity: [{ did: false, event: 'completed', courseId: s.course_id }] },
    },
  ],
];

const now = new Date();
for (const [name, input] of queries) {
  const query = reportQuerySchema.parse(input);
  const info = await describeSubject(db, organizationId, query.subject);
  const effective = effectiveQuery(query, info, { now });
  const { period: _period, ...filters } = effective.filters;
  const executable = {
    subject: query.subject,
    measure: effective.measure!,
    breakdown: effective.breakdown,
    filters,
    period: resolvePeriod(effective.filters.period, now),
    sort: effective.sort!,
    limit: effective.limit ?? 200,
    dataType: info.dataType,
  };
  const statement = buildReportQuery(organizationId, executable);
  // The way the server runs it: one statement with the report's work_mem.
  await executeReportStatement(db, statement);
  const times: number[] = [];
  const cpuBefore = backendCpuMs();
  for (let i = 0; i < 5; i += 1) {
    const began = performance.now();
    await executeReportStatement(db, statement);
    times.push(performance.now() - began);
  }
  const cpuAfter = backendCpuMs();
  const cpu =
    cpuBefore === null || cpuAfter === null
      ? ''
      : `, server CPU ${((cpuAfter - cpuBefore) / 5).toFixed(0)} ms/run`;
  times.sort((a, b) => a - b);
  process.stdout.write(
    `${name.padEnd(40)} median ${times[2]!.toFixed(1)} ms, max ${times[4]!.toFixed(1)} ms${cpu}` +
      ` (${factSource(executable)})\n`,
  );
  if (args.plans) {
    const plan = await db.transaction(async (tx) => {
      await tx.execute(sql.raw(`set local work_mem = '${REPORT_WORK_MEM}'`));
      return tx.execute<{ 'QUERY PLAN': string }>(sql`explain (analyze, buffers) ${statement}`);
    });
    process.stdout.write(`${plan.rows.map((row) => row['QUERY PLAN']).join('\n')}\n\n`);
  }
}
await connection.close();
