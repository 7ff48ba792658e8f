// EXPLAIN ANALYZE of the report model's queries on a seeded database:
// `DATABASE_URL=postgres://... npx tsx bench/report-queries-explain.ts [--plans]`.
// Runs each query of a manager's report (the ones bench:reports times through
// the API) straight through the metrics layer, prints its time, and with
// --plans the plan, so an index or a rewrite can be judged on real data.
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import type { ReportQueryInput } from '@courselens/contracts';
import { reportQuerySchema } from '@courselens/contracts';
import { createDatabase } from '../apps/server/src/db/client';
import { buildReportQuery } from '../apps/server/src/modules/metrics/report-query.queries';
import {
  describeSubject,
  effectiveQuery,
  resolvePeriod,
} from '../apps/server/src/modules/metrics/report-query.service';

const { values: args } = parseArgs({ options: { plans: { type: 'boolean', default: false } } });
const url = process.env.DATABASE_URL;
if (!url?.startsWith('postgres')) throw new Error('Set DATABASE_URL to a seeded PostgreSQL database');

const connection = await createDatabase({ kind: 'postgres', url });
const db = connection.db;
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
  const statement = buildReportQuery(organizationId, {
    subject: query.subject,
    measure: effective.measure!,
    breakdown: effective.breakdown,
    filters,
    period: resolvePeriod(effective.filters.period, now),
    sort: effective.sort!,
    limit: effective.limit ?? 200,
    dataType: info.dataType,
  });
  const times: number[] = [];
  for (let i = 0; i < 5; i += 1) {
    const began = performance.now();
    await db.execute(statement);
    times.push(performance.now() - began);
  }
  times.sort((a, b) => a - b);
  process.stdout.write(
    `${name.padEnd(40)} median ${times[2]!.toFixed(1)} ms, max ${times[4]!.toFixed(1)} ms\n`,
  );
  if (args.plans) {
    const plan = await db.execute<{ 'QUERY PLAN': string }>(sql`explain (analyze, buffers) ${statement}`);
    process.stdout.write(`${plan.rows.map((row) => row['QUERY PLAN']).join('\n')}\n\n`);
  }
}
await connection.close();
