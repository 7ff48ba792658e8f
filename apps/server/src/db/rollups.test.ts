import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql, type SQL } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrationsDir } from '../lib/paths';
import { createTestDatabase } from '../test/database';
import { createDatabase, type Database, type DatabaseConnection } from './client';
import { insertOrganization } from './factories/organizations';
import {
  buildResponse,
  buildVariableValue,
  insertCourse,
  insertCourseRun,
  insertLearner,
  insertQuestion,
  insertVariable,
} from './factories/learning';
import { courseRunQuestions, courseRuns, learnerVariableValues, learners, type Learner } from './schema';
import { seedDemo } from './seed/seed';
import { foldAllRollups, foldRollupsOnce } from '../jobs/rollup-folder';
import { selectReportDataVersion } from '../modules/metrics/report-data-version.queries';
import {
  activityRollups,
  answerHourRollups,
  answerSheetRollups,
  expectRollupsMatchRecount,
  lastSlideRollups,
} from '../test/rollup-recount';

// The rollups (migrations 0004 to 0009) must always equal a recount from
// the raw answers, values and runs, whatever mix of statements wrote them:
// counted in the writing transaction ('inline', PGlite) or queued and
// folded later by the workers ('deferred', PostgreSQL's default).

let connection: DatabaseConnection;
let db: Database;
let mode: 'inline' | 'deferred' = 'inline';

beforeAll(async () => {
  connection = await createTestDatabase();
  db = connection.db;
});

afterAll(async () => {
  await connection.close();
});

/** Switches this file's database to queued rollups: every later statement only appends to rollup_queue. */
async function useDeferredRollups(): Promise<void> {
  mode = 'deferred';
  // A database of its own: the bulk-load test above leaves rollups behind on purpose.
  await connection.close();
  connection = await createTestDatabase();
  db = connection.db;
  if (connection.kind === 'pglite') {
    await db.execute(sql`set courselens.rollups = 'deferred'`);
    return;
  }
  // Every pooled connection must write deferred: the database's default, then a pool of its own
  // (the test database's own connection stays, to drop the database at the end).
  const name = await rows<{ name: string }>(sql`select current_database() as name`);
  await db.execute(sql.raw(`alter database "${name[0]!.name}" set courselens.rollups = 'deferred'`));
  const url = (connection as { url?: string }).url;
  if (!url) throw new Error('a PostgreSQL test database has a url');
  const deferredPool = await createDatabase({ kind: 'postgres', url, maxConnections: 4 });
  const dropDatabase = connection.close;
  connection = {
    ...deferredPool,
    close: async () => {
      await deferredPool.close();
      await dropDatabase();
    },
  };
  db = connection.db;
}

async function rows<T>(query: SQL): Promise<T[]> {
  const result: unknown = await db.execute(query);
  return (result as { rows: T[] }).rows.map((row) => ({ ...row }));
}

async function expectConsistent() {
  if (mode === 'deferred') await foldAllRollups(db);
  await expectRollupsMatchRecount(db);
  await expectReportRollupsMatchRecount();
}

/**
 * The rollups report items read (migration 0014) beside a recount: each
 * learner's graded answers, best points and last answer per question, what their runs
 * of a course add up to and which of its questions they answered, every
 * value of a variable per day, and the answers to a question per answer.
 */
async function expectReportRollupsMatchRecount() {
  const pairs = await rows(sql`
    select question_id, learner_id, graded, best_points::float8 as best_points, last_answered_at, last_answer_id,
           last_correct
    from question_learners order by 1, 2`);
  const pairsRecount = await rows(sql`
    select question_id, learner_id, count(correct)::int as graded, max(points_assigned)::float8 as best_points,
           (array_agg(created_at order by created_at desc, id desc))[1] as last_answered_at,
           (array_agg(id order by created_at desc, id desc))[1] as last_answer_id,
           (array_agg(correct order by created_at desc, id desc))[1] as last_correct
    from course_run_questions group by 1, 2 order by 1, 2`);
  expect(pairs).toEqual(pairsRecount);
  const outcomes = await rows(sql`
    select course_id, learner_id, first_started_at, last_completed_at, passed, best_score::float8 as best_score,
           array_to_string(question_ids, ',') as question_ids
    from course_learners order by 1, 2`);
  const outcomesRecount = await rows(sql`
    select r.course_id, r.learner_id, min(r.started_at) as first_started_at,
           max(r.completed_at) as last_completed_at, bool_or(r.passed) as passed,
           max(r.score)::float8 as best_score,
           array_to_string(array(select distinct a.question_id from course_run_questions a
                                 where a.course_id = r.course_id and a.learner_id = r.learner_id
                                 order by 1), ',') as question_ids
    from course_runs r group by 1, 2 order by 1, 2`);
  expect(outcomes).toEqual(outcomesRecount);
  const days = await rows(sql`
    select variable_id, day::text as day, values, numbers, number_sum::float8 as number_sum,
           number_min::float8 as number_min, number_max::float8 as number_max, booleans, trues
    from variable_daily_stats where values > 0 order by 1, 2`);
  const daysRecount = await rows(sql`
    select variable_id, (recorded_at at time zone 'UTC')::date::text as day, count(*)::int as values,
           count(value_number)::int as numbers, coalesce(sum(value_number), 0)::float8 as number_sum,
           min(value_number)::float8 as number_min, max(value_number)::float8 as number_max,
           count(value_boolean)::int as booleans, (count(*) filter (where value_boolean))::int as trues
    from learner_variable_values group by 1, 2 order by 1, 2`);
  expect(days).toEqual(daysRecount);
  const answers = await rows(sql`
    select question_id, answer, responses, correct from question_answer_stats
    where responses > 0 order by 1, 2`);
  const answersRecount = await rows(sql`
    select question_id, coalesce(nullif(answer_choice, ''), '(no answer)') as answer, count(*)::int as responses,
           (count(*) filter (where correct))::int as correct
    from course_run_questions group by 1, 2 order by 1, 2`);
  expect(answers).toEqual(answersRecount);
}

/** Inserts, late and tied rows, updates and deletes of runs, answers and values, checked after each step. */
async function mixedWritesScenario(): Promise<void> {
  const organization = await insertOrganization(db);
  const tenant = { organizationId: organization.id };
  const course = await insertCourse(db, tenant);
  const otherCourse = await insertCourse(db, tenant);
  const people: Learner[] = [];
  for (let index = 0; index < 4; index += 1) people.push(await insertLearner(db, tenant));
  const [first, second] = [
    await insertQuestion(db, { ...tenant, courseId: course.id }),
    await insertQuestion(db, { ...tenant, courseId: otherCourse.id }),
  ];
  const score = await insertVariable(db, {
    ...tenant,
    courseId: course.id,
    name: 'score',
    dataType: 'number',
  });
  const passed = await insertVariable(db, {
    ...tenant,
    courseId: otherCourse.id,
    name: 'passed',
    dataType: 'boolean',
  });
  const day = (n: number, hour = 12) => new Date(Date.UTC(2026, 10, n, hour));

  // One multi-row statement: two days, a learner answering twice, a survey answer (correct null).
  await db.insert(courseRunQuestions).values([
    buildResponse({
      ...tenant,
      courseId: course.id,
      questionId: first.id,
      learnerId: people[0]!.id,
      createdAt: day(3),
    }),
    buildResponse({
      ...tenant,
      courseId: course.id,
      questionId: first.id,
      learnerId: people[0]!.id,
      createdAt: day(4),
      correct: false,
      pointsAssigned: 0,
    }),
    buildResponse({
      ...tenant,
      courseId: course.id,
      questionId: first.id,
      learnerId: people[1]!.id,
      createdAt: day(4, 23),
    }),
    buildResponse({
      ...tenant,
      courseId: otherCourse.id,
      questionId: second.id,
      learnerId: people[2]!.id,
      createdAt: day(5),
      correct: null,
      pointsAssigned: null,
    }),
  ]);
  // A late answer older than the learner's first one, in its own statement.
  await db.insert(courseRunQuestions).values(
    buildResponse({
      ...tenant,
      courseId: course.id,
      questionId: first.id,
      learnerId: people[1]!.id,
      createdAt: day(1),
    }),
  );
  // Values: history per learner, a tie on recorded_at, and a late older value that must not win.
  const value = (variableId: string, courseId: string, learnerId: string, raw: number | boolean, at: Date) =>
    buildVariableValue({
      ...tenant,
      variableId,
      courseId,
      learnerId,
      raw,
      dataType: typeof raw === 'number' ? 'number' : 'boolean',
      recordedAt: at,
    });
  await db
    .insert(learnerVariableValues)
    .values([
      value(score.id, course.id, people[0]!.id, 40, day(2)),
      value(score.id, course.id, people[0]!.id, 70, day(6)),
      value(score.id, course.id, people[1]!.id, 55, day(6)),
      value(score.id, course.id, people[1]!.id, 65, day(6)),
      value(passed.id, otherCourse.id, people[2]!.id, true, day(3)),
    ]);
  await db.insert(learnerVariableValues).values(value(score.id, course.id, people[0]!.id, 10, day(1)));
  await db.insert(learnerVariableValues).values(value(score.id, course.id, people[3]!.id, 99, day(7)));
  // Runs: a batch over two days and courses, then a late run older than the learner's first.
  const run = (courseId: string, learnerId: string, at: Date) => ({
    ...tenant,
    courseId,
    learnerId,
    startedAt: at,
    createdAt: at,
  });
  await db
    .insert(courseRuns)
    .values([
      run(course.id, people[0]!.id, day(3)),
      run(course.id, people[0]!.id, day(5)),
      run(course.id, people[1]!.id, day(5, 23)),
      run(otherCourse.id, people[2]!.id, day(4)),
    ]);
  await db.insert(courseRuns).values(run(course.id, people[0]!.id, day(1)));
  // An answer after the learner's runs are counted: added to the questions they answered there.
  const third = await insertQuestion(db, { ...tenant, courseId: course.id });
  await db.insert(courseRunQuestions).values(
    buildResponse({
      ...tenant,
      courseId: course.id,
      questionId: third.id,
      learnerId: people[0]!.id,
      createdAt: day(6),
    }),
  );
  await expectConsistent();
  const firstLearner = await rows<{ runs: number }>(
    sql`select runs from course_learners where course_id = ${course.id} and learner_id = ${people[0]!.id}`,
  );
  expect(firstLearner).toEqual([{ runs: 3 }]);
  // Completing runs moves no count; moving a run's start does. Outcomes
  // are recomputed as runs pass, fail again and are rescored.
  await db.execute(sql`update course_runs set completed_at = now()`);
  await db.execute(sql`update course_runs set passed = true, score = 90 where learner_id = ${people[0]!.id}`);
  await expectConsistent();
  const passedFirst = await rows<{ passed: boolean; best_score: number }>(sql`
    select passed, best_score from course_learners where course_id = ${course.id} and learner_id = ${people[0]!.id}`);
  expect(passedFirst).toEqual([{ passed: true, best_score: 90 }]);
  // The latest outcome replaces a run's pass: the learner no longer passed, and scored less.
  await db.execute(
    sql`update course_runs set passed = false, score = 40 where learner_id = ${people[0]!.id}`,
  );
  await expectConsistent();
  const failedFirst = await rows<{ passed: boolean; best_score: number }>(sql`
    select passed, best_score from course_learners where course_id = ${course.id} and learner_id = ${people[0]!.id}`);
  expect(failedFirst).toEqual([{ passed: false, best_score: 40 }]);
  await db.execute(sql`update course_runs set created_at = ${day(9).toISOString()}::timestamptz
    where learner_id = ${people[1]!.id}`);
  await expectConsistent();

  const scoreStats = await rows<{ usage_count: number; learner_count: number }>(
    sql`select usage_count, learner_count from variable_stats where variable_id = ${score.id}`,
  );
  expect(scoreStats).toEqual([{ usage_count: 6, learner_count: 3 }]);
  const latestOfFirst = await rows<{ value_number: number }>(
    sql`select value_number from learner_variable_latest where variable_id = ${score.id} and learner_id = ${people[0]!.id}`,
  );
  expect(latestOfFirst).toEqual([{ value_number: 70 }]);

  // An update of answers and values (moves an answer to another day, changes a value).
  await db.execute(sql`update course_run_questions set created_at = ${day(9).toISOString()}::timestamptz
    where question_id = ${first.id} and learner_id = ${people[0]!.id} and correct = false`);
  await db.execute(sql`update learner_variable_values set value_number = 5, value = '5', recorded_at = ${day(8).toISOString()}::timestamptz
    where variable_id = ${score.id} and learner_id = ${people[3]!.id}`);
  await expectConsistent();

  // Deletes: one learner's answers, then a learner (its values and answers cascade).
  await db.execute(sql`delete from course_run_questions where learner_id = ${people[1]!.id}`);
  await expectConsistent();
  await db.execute(sql`delete from learners where id = ${people[0]!.id}`);
  await expectConsistent();
  const remaining = await rows<{ usage_count: number; learner_count: number }>(
    sql`select usage_count, learner_count from variable_stats where variable_id = ${score.id}`,
  );
  expect(remaining).toEqual([{ usage_count: 3, learner_count: 2 }]);

  // The whole organization goes: nothing of it stays in the rollups.
  await db.delete(learners).where(sql`organization_id = ${organization.id}`);
  if (mode === 'deferred') await foldAllRollups(db);
  const left = await rows<{ n: number }>(sql`
    select (select count(*) from question_learners where organization_id = ${organization.id})
         + (select count(*) from learner_variable_latest where organization_id = ${organization.id})
         + (select coalesce(sum(responses + new_learners), 0) from question_daily_stats
             where organization_id = ${organization.id})
         + (select coalesce(sum(usage_count + learner_count), 0) from variable_stats
             where organization_id = ${organization.id})
         + (select count(*) from learner_answer_hours where organization_id = ${organization.id}) as n`);
  expect(Number(left[0]?.n)).toBe(0);
}

/**
 * Writes to the event log the way ingestion, retention and deletions do:
 * batches (several learners, courses and quarters, late events, a chatbot's
 * events without a course), an event moved to another hour, a retention
 * delete, a course's and a learner's deletion (their events cascade). After
 * each step the log's hourly activity must equal a recount of the log.
 */
async function activityScenario() {
  const organization = await insertOrganization(db);
  const tenant = { organizationId: organization.id };
  const [course, other] = [await insertCourse(db, tenant), await insertCourse(db, tenant)];
  const [ann, bob] = [await insertLearner(db, tenant), await insertLearner(db, tenant)];
  await db.execute(
    sql`select learning_events_partition(m::date) from unnest(array['2026-03-01', '2026-04-01']) as m`,
  );
  let sequence = 0;
  const log = (events: [string, string | null, string, string][]) =>
    db.execute(sql`
      insert into learning_events (organization_id, occurred_at, event_id, type, course_id, learner_id)
      select ${organization.id}, e.at, e.id, e.type, e.course_id, e.learner_id
      from unnest(${sql.param(events.map(([at]) => at))}::timestamptz[],
                  ${sql.param(events.map(() => `activity-${++sequence}`))}::text[],
                  ${sql.param(events.map(([, courseId]) => (courseId ? 'slide.viewed' : 'chatbot.chat.started')))}::text[],
                  ${sql.param(events.map(([, courseId]) => courseId))}::uuid[],
                  ${sql.param(events.map(([, , learnerId]) => learnerId))}::uuid[])
        as e(at, id, type, course_id, learner_id)`);
  const expectCounted = async () => {
    const { stored, recount } = await activityRollups(db);
    expect(stored).toEqual(recount);
  };

  await log([
    ['2026-03-02T09:00:00Z', course.id, ann.id, ''],
    ['2026-03-02T09:14:59Z', course.id, ann.id, ''],
    ['2026-03-02T09:15:00Z', course.id, ann.id, ''],
    ['2026-03-02T09:59:59Z', course.id, ann.id, ''],
    ['2026-03-02T09:30:00Z', other.id, ann.id, ''],
    ['2026-03-02T09:40:00Z', course.id, bob.id, ''],
    ['2026-03-02T09:45:00Z', null, bob.id, ''],
    ['2026-03-02T09:50:00Z', null, bob.id, ''],
  ]);
  await expectCounted();
  const ann9 = await rows(sql`
    select events_0, events_15, events_30, events_45 from learning_activity_hours
    where learner_id = ${ann.id} and course_id = ${course.id}`);
  expect(ann9).toEqual([{ events_0: 2, events_15: 1, events_30: 0, events_45: 1 }]);
  const chats = await rows(sql`
    select course_id, events_45 from learning_activity_hours where learner_id = ${bob.id} and course_id is null`);
  expect(chats).toEqual([{ course_id: null, events_45: 2 }]);

  // A second batch into the same rows, and a late event of an earlier hour in another month.
  await log([
    ['2026-03-02T09:01:00Z', course.id, ann.id, ''],
    ['2026-03-02T09:46:00Z', null, bob.id, ''],
    ['2026-04-01T00:05:00Z', course.id, bob.id, ''],
  ]);
  await expectCounted();

  // An event moved to another hour (the log is append-only; an update still counts right).
  await db.execute(sql`
    update learning_events set occurred_at = '2026-03-02T11:20:00Z'
    where organization_id = ${organization.id} and occurred_at = '2026-03-02T09:00:00Z'`);
  await expectCounted();

  // Retention deletes events one by one: a row left with no event goes.
  await db.execute(sql`
    delete from learning_events where organization_id = ${organization.id} and course_id is null`);
  await expectCounted();
  expect(await rows(sql`select 1 from learning_activity_hours where course_id is null`)).toEqual([]);

  // A course's and a learner's events leave with them.
  await db.execute(sql`delete from courses where id = ${other.id}`);
  await expectCounted();
  await db.execute(sql`delete from learners where id = ${bob.id}`);
  await expectCounted();
  const left = await rows(sql`
    select count(*)::int as n from learning_activity_hours where organization_id = ${organization.id}`);
  expect(left).toEqual([{ n: 2 }]);
}

/**
 * Answers the way ingestion and deletions write them: several in one hour
 * (right, wrong and ungraded), one moved to another hour, one deleted, then
 * the course. The hourly answer counts must equal a recount every time.
 */
async function answerHoursScenario() {
  const organization = await insertOrganization(db);
  const tenant = { organizationId: organization.id };
  const course = await insertCourse(db, tenant);
  const question = await insertQuestion(db, { ...tenant, courseId: course.id });
  const learner = await insertLearner(db, tenant);
  const at = (time: string) => new Date(`2026-03-02T${time}Z`);
  const answer = (time: string, correct: boolean | null) =>
    buildResponse({
      ...tenant,
      courseId: course.id,
      questionId: question.id,
      learnerId: learner.id,
      createdAt: at(time),
      correct,
    });
  const stored = () =>
    rows(sql`select to_char(hour at time zone 'UTC', 'HH24') as hour, answers, graded, correct
             from learner_answer_hours where organization_id = ${organization.id} order by hour`);
  const expectCounted = async () => {
    const { stored: all, recount } = await answerHourRollups(db);
    expect(all).toEqual(recount);
  };

  await db
    .insert(courseRunQuestions)
    .values([answer('09:00:00', true), answer('09:20:00', false), answer('09:59:59', null)]);
  await db.insert(courseRunQuestions).values([answer('09:30:00', false), answer('10:00:00', true)]);
  expect(await stored()).toEqual([
    { hour: '09', answers: 4, graded: 3, correct: 1 },
    { hour: '10', answers: 1, graded: 1, correct: 1 },
  ]);
  await expectCounted();
  // A wrong answer moved to the next hour, then another deleted: both hours keep the rest.
  await db.execute(sql`update course_run_questions set created_at = ${at('10:10:00').toISOString()}::timestamptz
    where organization_id = ${organization.id} and created_at = ${at('09:20:00').toISOString()}::timestamptz`);
  await db.execute(sql`delete from course_run_questions
    where organization_id = ${organization.id} and created_at = ${at('09:30:00').toISOString()}::timestamptz`);
  expect(await stored()).toEqual([
    { hour: '09', answers: 2, graded: 1, correct: 1 },
    { hour: '10', answers: 2, graded: 2, correct: 1 },
  ]);
  await expectCounted();
  await db.execute(sql`delete from courses where id = ${course.id}`);
  expect(await stored()).toEqual([]);
  await expectCounted();
}

/**
 * A run's answers in the orders ingestion can write them: retries, an older
 * answer arriving after a newer one, two answers at one instant, points and
 * ungraded answers, an answer outside any run; then an update, deletes and
 * the run's deletion. The sheet must hold each question's newest answer and
 * equal a recount every time.
 */
async function answerSheetScenario() {
  const organization = await insertOrganization(db);
  const tenant = { organizationId: organization.id };
  const course = await insertCourse(db, tenant);
  const [q1, q2, q3] = [
    await insertQuestion(db, { ...tenant, courseId: course.id }),
    await insertQuestion(db, { ...tenant, courseId: course.id }),
    await insertQuestion(db, { ...tenant, courseId: course.id }),
  ];
  const learner = await insertLearner(db, tenant);
  const run = await insertCourseRun(db, { ...tenant, courseId: course.id, learnerId: learner.id });
  const answer = (
    questionId: string,
    time: string,
    answerChoice: string,
    fields: { correct: boolean | null; pointsAssigned: number | null },
    courseRunId: string | null = run.id,
  ) =>
    buildResponse({
      ...tenant,
      courseId: course.id,
      courseRunId,
      questionId,
      learnerId: learner.id,
      createdAt: new Date(`2026-03-02T${time}Z`),
      answerChoice,
      ...fields,
    });
  const sheet = async () => {
    type SheetRow = { questions: string; answers: string; marks: string; graded: string; total: number };
    const found = await rows<SheetRow>(sql`
      select question_ids::text as questions, answers::text as answers, marks::text as marks,
             graded::text as graded, total
      from run_answer_sheets where organization_id = ${organization.id}`);
    const byQuestion = new Map([
      [q1.id, 'q1'],
      [q2.id, 'q2'],
      [q3.id, 'q3'],
    ]);
    return found.map((row) => ({
      ...row,
      questions: row.questions.replace(/[0-9a-f-]{36}/g, (id) => byQuestion.get(id) ?? id),
    }));
  };
  const expectRecounted = async () => {
    const { stored, recount } = await answerSheetRollups(db);
    expect(stored).toEqual(recount);
  };
  const sorted = [q1, q2, q3].map((q) => q.id).sort();
  const order = (entries: Record<string, string>) => sorted.map((id) => entries[id]).filter(Boolean);

  const right = { correct: true, pointsAssigned: null };
  const wrong = { correct: false, pointsAssigned: null };
  await db.insert(courseRunQuestions).values([
    answer(q1.id, '09:00:00', 'A', wrong),
    answer(q2.id, '09:01:00', 'B', { correct: true, pointsAssigned: 5 }),
    // Answered twice in one batch: the later one counts.
    answer(q3.id, '09:02:00', 'C', wrong),
    answer(q3.id, '09:03:00', 'D', right),
    // Outside any run: no sheet.
    answer(q1.id, '09:04:00', 'Z', right, null),
  ]);
  let expected = order({ [q1.id]: 'A', [q2.id]: 'B', [q3.id]: 'D' });
  expect((await sheet())[0]).toMatchObject({ answers: `{${expected.join(',')}}`, total: 6 });
  await expectRecounted();

  // A retry of q1 replaces its answer; an older answer to q2 arriving later does not.
  await db.insert(courseRunQuestions).values([answer(q1.id, '09:10:00', 'E', right)]);
  await db
    .insert(courseRunQuestions)
    .values([answer(q2.id, '08:59:00', 'F', { correct: null, pointsAssigned: null })]);
  expected = order({ [q1.id]: 'E', [q2.id]: 'B', [q3.id]: 'D' });
  expect((await sheet())[0]).toMatchObject({ answers: `{${expected.join(',')}}`, total: 7 });
  await expectRecounted();

  // Two answers at one instant in two batches: the greater id counts, as item analysis orders them.
  await db
    .insert(courseRunQuestions)
    .values([answer(q1.id, '09:20:00', 'G', wrong), answer(q1.id, '09:20:00', 'H', right)]);
  await db.insert(courseRunQuestions).values([answer(q1.id, '09:20:00', 'I', right)]);
  await expectRecounted();

  // Deleting q1's newest answers brings back the one before; an update moving q2's older answer later takes over.
  await db.execute(sql`delete from course_run_questions
    where organization_id = ${organization.id} and answer_choice in ('G', 'H', 'I')`);
  await db.execute(sql`update course_run_questions set created_at = '2026-03-02T10:00:00Z'
    where organization_id = ${organization.id} and answer_choice = 'F'`);
  expected = order({ [q1.id]: 'E', [q2.id]: 'F', [q3.id]: 'D' });
  expect(await sheet()).toEqual([expect.objectContaining({ answers: `{${expected.join(',')}}`, total: 2 })]);
  await expectRecounted();

  // A run left with no answer has no sheet; a deleted run takes its sheet with it.
  await db.execute(sql`delete from course_run_questions
    where organization_id = ${organization.id} and course_run_id = ${run.id}`);
  expect(await sheet()).toEqual([]);
  await db.insert(courseRunQuestions).values([answer(q2.id, '11:00:00', 'J', right)]);
  expect(await sheet()).toHaveLength(1);
  await db.execute(sql`delete from course_runs where id = ${run.id}`);
  expect(await sheet()).toEqual([]);
  await expectRecounted();
}

/** Slide views to the log; each course's highest slide viewed only rises, and goes with the course. */
async function lastSlideScenario() {
  const organization = await insertOrganization(db);
  const tenant = { organizationId: organization.id };
  const [course, other] = [await insertCourse(db, tenant), await insertCourse(db, tenant)];
  const learner = await insertLearner(db, tenant);
  await db.execute(sql`select learning_events_partition('2026-03-01'::date)`);
  let sequence = 0;
  const views = (courseId: string, slides: (number | null)[], type = 'slide.viewed') =>
    db.execute(sql`
      insert into learning_events (organization_id, occurred_at, event_id, type, course_id, learner_id, slide_number)
      select ${organization.id}, '2026-03-02T09:00:00Z', 'slides-' || n, ${type}, ${courseId}, ${learner.id}, s
      from unnest(${sql.param(slides.map(() => `${++sequence}`))}::text[], ${sql.param(slides)}::int[]) as v(n, s)`);
  const stored = () =>
    rows(sql`select course_id, last_slide from course_last_slides
             where organization_id = ${organization.id} order by last_slide`);

  await views(course.id, [1, 2, 3]);
  await views(other.id, [null]);
  // Another type's slide number is not a slide viewed.
  await views(other.id, [9], 'question.answered');
  expect(await stored()).toEqual([{ course_id: course.id, last_slide: 3 }]);
  const { stored: all, recount } = await lastSlideRollups(db);
  expect(all).toEqual(recount);
  await views(course.id, [2]);
  await views(course.id, [7, 5]);
  await views(other.id, [4]);
  expect(await stored()).toEqual([
    { course_id: other.id, last_slide: 4 },
    { course_id: course.id, last_slide: 7 },
  ]);
  // Retention deleting the views that reached slide 7 leaves the course's last slide.
  await db.execute(sql`delete from learning_events where course_id = ${course.id} and slide_number = 7`);
  expect(await stored()).toContainEqual({ course_id: course.id, last_slide: 7 });
  await db.execute(sql`delete from courses where id = ${other.id}`);
  expect(await stored()).toEqual([{ course_id: course.id, last_slide: 7 }]);
  // Gone with its course (which also leaves the database as a recount of its log sees it).
  await db.execute(sql`delete from courses where id = ${course.id}`);
  expect(await stored()).toEqual([]);
}

describe('rollups of answers and variable values', () => {
  it('equal a recount after batches, out-of-order times, ties, updates and deletes', async () => {
    await mixedWritesScenario();
  });
  it("keep the log's hourly activity equal to a recount of the log", async () => {
    await activityScenario();
  });

  it('keep each learner’s answers per course and hour equal to a recount of the answers', async () => {
    await answerHoursScenario();
  });

  it("keep each run's answer sheet: each question's newest answer, equal to a recount", async () => {
    await answerSheetScenario();
  });

  it("keep each course's highest slide viewed, raised by later views and never lowered", async () => {
    await lastSlideScenario();
  });

  it('are rebuilt exactly after a bulk load that deferred them (the demo seed)', async () => {
    await seedDemo(db, {
      now: new Date('2026-11-20T12:00:00Z'),
      learners: 120,
      seed: 3,
      hashPassword: async (password) => `plain:${password}`,
    });
    const counts = await rows<{ answers: number; latest: number }>(sql`
      select (select count(*)::int from question_learners) as answers,
             (select count(*)::int from learner_variable_latest) as latest`);
    expect(counts[0]?.answers).toBeGreaterThan(100);
    expect(counts[0]?.latest).toBeGreaterThan(100);
    await expectConsistent();
  });

  it('get each pair’s last answer from the answers when migration 0027 copies question_learners', async () => {
    // The pairs as they were before the migration (the demo seed's, some answered more than once), without
    // their last answer; the migration's statements run again as the migrator runs them, in one transaction.
    const retried = await rows<{ n: number }>(
      sql`select count(*)::int as n from question_learners where responses > 1`,
    );
    expect(retried[0]?.n).toBeGreaterThan(0);
    await db.execute(
      sql`update question_learners set last_answered_at = null, last_answer_id = null, last_correct = null`,
    );
    const migration = readFileSync(join(migrationsDir, '0027_question_last_answers.sql'), 'utf8');
    await db.transaction(async (tx) => {
      for (const statement of migration.split('--> statement-breakpoint')) {
        if (statement.trim()) await tx.execute(sql.raw(statement));
      }
    });
    await expectConsistent();
    // The copy keeps its key, index and triggers: a later answer moves its pair's last answer, and the
    // report data version with it.
    const [pair] = await rows<{ organization_id: string; question_id: string; learner_id: string }>(sql`
      select organization_id, question_id, learner_id from question_learners order by last_answered_at limit 1`);
    if (!pair) throw new Error('the demo seed left no pair');
    const versionBefore = await selectReportDataVersion(db, pair.organization_id);
    await db.execute(sql`
      insert into course_run_questions (organization_id, course_run_id, course_id, question_id, learner_id,
        answer_choice, correct, created_at)
      select a.organization_id, a.course_run_id, a.course_id, a.question_id, a.learner_id, 'later',
        not coalesce(a.correct, false), now()
      from course_run_questions a
      where a.organization_id = ${pair.organization_id} and a.question_id = ${pair.question_id}
        and a.learner_id = ${pair.learner_id}
      limit 1`);
    await expectConsistent();
    expect(await selectReportDataVersion(db, pair.organization_id)).not.toBe(versionBefore);
    const indexes = await rows<{ name: string }>(sql`
      select indexname as name from pg_indexes where tablename = 'question_learners' order by 1`);
    expect(indexes).toEqual([{ name: 'question_learners_pk' }, { name: 'question_learners_question_idx' }]);
  });

  it('skip statements of a transaction in bulk-load mode', async () => {
    const organization = await insertOrganization(db);
    const tenant = { organizationId: organization.id };
    const course = await insertCourse(db, tenant);
    const learner = await insertLearner(db, tenant);
    const variable = await insertVariable(db, {
      ...tenant,
      courseId: course.id,
      name: 'bulk',
      dataType: 'number',
    });
    await db.transaction(async (tx) => {
      await tx.execute(sql`set local courselens.bulk_load = 'on'`);
      await tx.insert(learnerVariableValues).values(
        buildVariableValue({
          ...tenant,
          variableId: variable.id,
          courseId: course.id,
          learnerId: learner.id,
          raw: 1,
          dataType: 'number',
        }),
      );
    });
    const stats = await rows(sql`select usage_count from variable_stats where variable_id = ${variable.id}`);
    expect(stats).toEqual([]);
    // Outside the bulk transaction the triggers are on again.
    await db.insert(learnerVariableValues).values(
      buildVariableValue({
        ...tenant,
        variableId: variable.id,
        courseId: course.id,
        learnerId: learner.id,
        raw: 2,
        dataType: 'number',
      }),
    );
    const after = await rows(sql`select usage_count from variable_stats where variable_id = ${variable.id}`);
    expect(after).toEqual([{ usage_count: 1 }]);
  });
});

describe('queued rollups (deferred, folded by the workers)', () => {
  beforeAll(async () => {
    await useDeferredRollups();
  });

  it('count nothing until folded, then equal a recount after the same mix of writes', async () => {
    const organization = await insertOrganization(db);
    const tenant = { organizationId: organization.id };
    const course = await insertCourse(db, tenant);
    const learner = await insertLearner(db, tenant);
    await db.insert(courseRuns).values({ ...tenant, courseId: course.id, learnerId: learner.id });
    const queued = await rows<{ n: number }>(sql`select count(*)::int as n from rollup_queue`);
    expect(queued[0]?.n).toBeGreaterThan(0);
    const counted = await rows<{ n: number }>(
      sql`select count(*)::int as n from course_learners where course_id = ${course.id}`,
    );
    expect(counted[0]?.n).toBe(0);
    await mixedWritesScenario();
    const left = await rows<{ n: number }>(sql`select count(*)::int as n from rollup_queue`);
    expect(left[0]?.n).toBe(0);
  });

  it('move the report data version when folded, so no report result kept before the fold is served after it', async () => {
    const organization = await insertOrganization(db);
    const tenant = { organizationId: organization.id };
    const course = await insertCourse(db, tenant);
    const learner = await insertLearner(db, tenant);
    await db.insert(courseRuns).values({ ...tenant, courseId: course.id, learnerId: learner.id });
    const written = BigInt(await selectReportDataVersion(db, organization.id));
    await foldAllRollups(db);
    const folded = BigInt(await selectReportDataVersion(db, organization.id));
    expect(folded > written).toBe(true);
    const counted = await rows<{ n: number }>(
      sql`select count(*)::int as n from course_learners where course_id = ${course.id}`,
    );
    expect(counted[0]?.n).toBe(1);
  });

  it("keep the log's hourly activity in the writing transaction, with nothing to fold", async () => {
    await activityScenario();
    await lastSlideScenario();
    await answerHoursScenario();
  });

  it('count nothing when a fold is rolled back (a worker killed mid-fold), and everything at the next', async () => {
    const organization = await insertOrganization(db);
    const tenant = { organizationId: organization.id };
    const course = await insertCourse(db, tenant);
    const question = await insertQuestion(db, { ...tenant, courseId: course.id });
    const learner = await insertLearner(db, tenant);
    await db.insert(courseRunQuestions).values(
      [1, 2, 3].map((n) =>
        buildResponse({
          ...tenant,
          courseId: course.id,
          questionId: question.id,
          learnerId: learner.id,
          createdAt: new Date(Date.UTC(2026, 9, n)),
        }),
      ),
    );
    await expect(
      db.transaction(async (tx) => {
        expect(await foldRollupsOnce(tx as unknown as Database)).toBeGreaterThan(0);
        throw new Error('the worker dies here');
      }),
    ).rejects.toThrow('the worker dies here');
    const stats = await rows<{ responses: number }>(
      sql`select coalesce(sum(responses), 0)::int as responses from question_daily_stats where question_id = ${question.id}`,
    );
    expect(stats[0]?.responses).toBe(0);
    await expectConsistent();
  });

  it('recompute what a course deletion removed while facts of it were still queued', async () => {
    const organization = await insertOrganization(db);
    const tenant = { organizationId: organization.id };
    const course = await insertCourse(db, tenant);
    const kept = await insertCourse(db, tenant);
    const learner = await insertLearner(db, tenant);
    const variable = await insertVariable(db, {
      ...tenant,
      courseId: course.id,
      name: 'score',
      dataType: 'number',
    });
    const value = (courseId: string, variableId: string, raw: number) =>
      buildVariableValue({
        ...tenant,
        variableId,
        courseId,
        learnerId: learner.id,
        raw,
        dataType: 'number',
        recordedAt: new Date(),
      });
    await db
      .insert(learnerVariableValues)
      .values([value(course.id, variable.id, 1), value(course.id, variable.id, 2)]);
    await foldAllRollups(db);
    await db.insert(learnerVariableValues).values(value(course.id, variable.id, 3));
    await db.insert(courseRuns).values([
      { ...tenant, courseId: course.id, learnerId: learner.id },
      { ...tenant, courseId: kept.id, learnerId: learner.id },
    ]);
    await db.execute(
      sql`delete from learner_variable_values where value_number = 1 and variable_id = ${variable.id}`,
    );
    await db.execute(sql`delete from course_runs where course_id = ${course.id}`);
    await expectConsistent();
  });
});
