import { sql, type SQL } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../test/database';
import type { Database, DatabaseConnection } from './client';
import { insertOrganization } from './factories/organizations';
import {
  buildResponse,
  buildVariableValue,
  insertCourse,
  insertLearner,
  insertQuestion,
  insertVariable,
} from './factories/learning';
import { courseRunQuestions, courseRuns, learnerVariableValues, learners, type Learner } from './schema';
import { seedDemo } from './seed/seed';

// The rollups (migration 0004) must always equal a recount from the raw
// answers and values, whatever mix of statements wrote them.

let connection: DatabaseConnection;
let db: Database;

beforeAll(async () => {
  connection = await createTestDatabase();
  db = connection.db;
});

afterAll(async () => {
  await connection.close();
});

async function rows<T>(query: SQL): Promise<T[]> {
  const result: unknown = await db.execute(query);
  return (result as { rows: T[] }).rows.map((row) => ({ ...row }));
}

/**
 * Question rollups as stored, and as recounted from the answers. A learner
 * is counted as new on the day first stored (a late, older answer does not
 * move the count), so new learners are compared per question.
 */
async function questionRollups() {
  const stored = await rows(sql`
    select question_id, day::text as day, responses, graded, correct, points::float8 as points
    from question_daily_stats where responses > 0 order by question_id, day`);
  const recount = await rows(sql`
    select question_id, (created_at at time zone 'UTC')::date::text as day, count(*)::int as responses,
           count(correct)::int as graded, (count(*) filter (where correct))::int as correct,
           coalesce(sum(points_assigned), 0)::float8 as points
    from course_run_questions group by 1, 2 order by 1, 2`);
  const learnerCounts = await rows(sql`
    select question_id, sum(new_learners)::int as learners from question_daily_stats
    group by 1 having sum(new_learners) > 0 order by 1`);
  const learnerCountsRecount = await rows(sql`
    select question_id, count(distinct learner_id)::int as learners from course_run_questions
    group by 1 order by 1`);
  const learnerPairs = await rows(sql`
    select question_id, learner_id, first_answered_at, responses, correct, points::float8 as points
    from question_learners order by 1, 2`);
  const learnerRecount = await rows(sql`
    select question_id, learner_id, min(created_at) as first_answered_at, count(*)::int as responses,
           (count(*) filter (where correct))::int as correct, coalesce(sum(points_assigned), 0)::float8 as points
    from course_run_questions group by 1, 2 order by 1, 2`);
  return { stored, recount, learnerCounts, learnerCountsRecount, learnerPairs, learnerRecount };
}

/** Variable rollups as stored, and as recounted from the values. */
async function variableRollups() {
  const stored = await rows(sql`
    select variable_id, usage_count, learner_count, last_recorded_at from variable_stats
    where usage_count > 0 order by variable_id`);
  const recount = await rows(sql`
    select variable_id, count(*)::int as usage_count, count(distinct learner_id)::int as learner_count,
           max(recorded_at) as last_recorded_at
    from learner_variable_values group by 1 order by 1`);
  const latest = await rows(sql`
    select variable_id, learner_id, value_id, value, value_number, recorded_at
    from learner_variable_latest order by 1, 2`);
  const latestRecount = await rows(sql`
    select distinct on (variable_id, learner_id) variable_id, learner_id, id as value_id, value, value_number,
           recorded_at
    from learner_variable_values order by variable_id, learner_id, recorded_at desc, id desc`);
  return { stored, recount, latest, latestRecount };
}

/** Course rollups as stored, and as recounted from the runs. */
async function courseRollups() {
  const days = await rows(sql`
    select course_id, day::text as day, runs from course_daily_stats where runs > 0 order by 1, 2`);
  const daysRecount = await rows(sql`
    select course_id, (created_at at time zone 'UTC')::date::text as day, count(*)::int as runs
    from course_runs group by 1, 2 order by 1, 2`);
  const learners = await rows(sql`
    select course_id, learner_id, first_run_at, last_run_at, runs from course_learners order by 1, 2`);
  const learnersRecount = await rows(sql`
    select course_id, learner_id, min(created_at) as first_run_at, max(created_at) as last_run_at,
           count(*)::int as runs
    from course_runs group by 1, 2 order by 1, 2`);
  return { days, daysRecount, learners, learnersRecount };
}

async function expectConsistent() {
  const runs = await courseRollups();
  expect(runs.days).toEqual(runs.daysRecount);
  expect(runs.learners).toEqual(runs.learnersRecount);
  const questions = await questionRollups();
  expect(questions.stored).toEqual(questions.recount);
  expect(questions.learnerCounts).toEqual(questions.learnerCountsRecount);
  expect(questions.learnerPairs).toEqual(questions.learnerRecount);
  const variables = await variableRollups();
  expect(variables.stored).toEqual(variables.recount);
  expect(variables.latest).toEqual(variables.latestRecount);
}

describe('rollups of answers and variable values', () => {
  it('equal a recount after batches, out-of-order times, ties, updates and deletes', async () => {
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
    const value = (
      variableId: string,
      courseId: string,
      learnerId: string,
      raw: number | boolean,
      at: Date,
    ) =>
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
    await expectConsistent();
    const firstLearner = await rows<{ runs: number }>(
      sql`select runs from course_learners where course_id = ${course.id} and learner_id = ${people[0]!.id}`,
    );
    expect(firstLearner).toEqual([{ runs: 3 }]);
    // Completing runs moves nothing; moving a run's start does.
    await db.execute(sql`update course_runs set completed_at = now()`);
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
    const left = await rows<{ n: number }>(sql`
      select (select count(*) from question_learners where organization_id = ${organization.id})
           + (select count(*) from learner_variable_latest where organization_id = ${organization.id})
           + (select coalesce(sum(responses + new_learners), 0) from question_daily_stats
               where organization_id = ${organization.id})
           + (select coalesce(sum(usage_count + learner_count), 0) from variable_stats
               where organization_id = ${organization.id}) as n`);
    expect(Number(left[0]?.n)).toBe(0);
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
