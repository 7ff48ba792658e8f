import { scrypt, timingSafeEqual } from 'node:crypto';
import { and, asc, count, eq, sql, type SQL } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../test/database';
import type { Database, DatabaseConnection } from '../client';
import {
  authAccounts,
  courseRunQuestions,
  courseRuns,
  learnerVariableValues,
  learners,
  learningEventKeys,
  learningEvents,
  organizations,
  questions,
  userOrganizations,
  variables,
} from '../schema';
import { COURSES } from './catalog';
import {
  DEMO_ORGANIZATION,
  DEMO_OWNER,
  nextBenchOrganization,
  seedDemo,
  seedIfEmpty,
  type SeedResult,
} from './seed';

const NOW = new Date('2025-06-02T09:30:00.000Z');
/** Tests do not need a slow password hash. */
const fastHash = (password: string) => Promise.resolve(`test:${password}`);

async function queryRows<T>(db: Database, query: SQL): Promise<T[]> {
  const result: unknown = await db.execute(query);
  return (result as { rows: T[] }).rows;
}

async function firstRows(db: Database, organizationId: string) {
  const firstLearners = await db
    .select({ id: learners.id, name: learners.name, email: learners.email, createdAt: learners.createdAt })
    .from(learners)
    .where(eq(learners.organizationId, organizationId))
    .orderBy(asc(learners.email))
    .limit(5);
  const firstValues = await db
    .select({
      id: learnerVariableValues.id,
      value: learnerVariableValues.value,
      valueNumber: learnerVariableValues.valueNumber,
      recordedAt: learnerVariableValues.recordedAt,
    })
    .from(learnerVariableValues)
    .where(eq(learnerVariableValues.organizationId, organizationId))
    .orderBy(asc(learnerVariableValues.id))
    .limit(5);
  const firstAnswers = await db
    .select({
      id: courseRunQuestions.id,
      answer: courseRunQuestions.answerChoice,
      correct: courseRunQuestions.correct,
    })
    .from(courseRunQuestions)
    .where(eq(courseRunQuestions.organizationId, organizationId))
    .orderBy(asc(courseRunQuestions.id))
    .limit(5);
  const firstEvents = await db
    .select({
      id: learningEvents.id,
      eventId: learningEvents.eventId,
      type: learningEvents.type,
      occurredAt: learningEvents.occurredAt,
      slideNumber: learningEvents.slideNumber,
      seconds: learningEvents.seconds,
    })
    .from(learningEvents)
    .where(and(eq(learningEvents.organizationId, organizationId), eq(learningEvents.source, 'seed')))
    .orderBy(asc(learningEvents.id))
    .limit(5);
  return { firstLearners, firstValues, firstAnswers, firstEvents };
}

describe('seedDemo', () => {
  let connection: DatabaseConnection;
  let db: Database;
  let demo: SeedResult;

  beforeAll(async () => {
    connection = await createTestDatabase();
    db = connection.db;
    demo = await seedDemo(db, { now: NOW, seed: 7, hashPassword: fastHash });
  });

  afterAll(async () => {
    await connection.close();
  });

  it('creates the demo organization with its owner, 5 courses and 200 learners', async () => {
    expect(demo).toMatchObject({
      organizationName: 'Acme Learning',
      subdomain: 'acme-learning',
      isOwnerCreated: true,
    });
    expect(demo.counts).toMatchObject({ organizations: 1, authUsers: 1, courses: 5, learners: 200 });
    expect(demo.counts.learnerVariableValues).toBeGreaterThan(1500);
    expect(demo.counts.courseRunQuestions).toBeGreaterThan(2500);
    expect(demo.totalRows).toBe(Object.values(demo.counts).reduce((sum, n) => sum + n, 0));

    const [membership] = await db
      .select()
      .from(userOrganizations)
      .where(eq(userOrganizations.organizationId, demo.organizationId));
    expect(membership).toMatchObject({ userId: demo.ownerUserId, role: 'owner', isPrimary: true });
    const [account] = await db.select().from(authAccounts).where(eq(authAccounts.userId, demo.ownerUserId));
    expect(account).toMatchObject({ providerId: 'credential', password: `test:${DEMO_OWNER.password}` });
  });

  it('reports counts that match the rows in the database', async () => {
    const countOf = async (
      table:
        | typeof learners
        | typeof courseRuns
        | typeof learnerVariableValues
        | typeof courseRunQuestions
        | typeof learningEventKeys,
    ) => {
      const [row] = await db
        .select({ n: count() })
        .from(table)
        .where(eq(table.organizationId, demo.organizationId));
      return row?.n;
    };
    expect(await countOf(learners)).toBe(demo.counts.learners);
    expect(await countOf(courseRuns)).toBe(demo.counts.courseRuns);
    expect(await countOf(learnerVariableValues)).toBe(demo.counts.learnerVariableValues);
    expect(await countOf(courseRunQuestions)).toBe(demo.counts.courseRunQuestions);
    const [seeded] = await db
      .select({ n: count() })
      .from(learningEvents)
      .where(and(eq(learningEvents.organizationId, demo.organizationId), eq(learningEvents.source, 'seed')));
    expect(seeded?.n).toBe(demo.counts.learningEvents);
    expect(await countOf(learningEventKeys)).toBe(demo.counts.learningEventKeys);
  });

  it('logs every slide a run viewed, in order, with its title, scene and the time on the slide before', async () => {
    expect(demo.counts.learningEvents).toBeGreaterThan(demo.counts.courseRuns * 8);
    const slidesOf = new Map(COURSES.map((spec) => [spec.title, spec.slides]));
    const runs = await queryRows<{
      course_title: string;
      is_completed: boolean;
      views: number | string;
      first_slide: number;
      last_slide: number;
      distinct_slides: number | string;
      is_first_after_start: boolean;
      is_ordered: boolean;
    }>(
      db,
      sql`select c.course_title, r.completed_at is not null as is_completed, count(*) as views,
                 min(e.slide_number) as first_slide, max(e.slide_number) as last_slide,
                 count(distinct e.slide_number) as distinct_slides,
                 bool_or(e.slide_number = 1 and e.occurred_at = r.started_at + interval '1 second') as is_first_after_start,
                 bool_and(e.occurred_at >= r.started_at and e.occurred_at <= coalesce(r.completed_at, ${NOW}::timestamptz)) as is_ordered
          from course_runs r
          join courses c on c.id = r.course_id
          join learning_events e on e.organization_id = r.organization_id and e.run_id = r.id and e.type = 'slide.viewed'
          where r.organization_id = ${demo.organizationId}
          group by r.id, c.course_title, r.completed_at`,
    );
    expect(runs).toHaveLength(demo.counts.courseRuns);
    for (const run of runs) {
      expect(Number(run.first_slide)).toBe(1);
      expect(Number(run.views)).toBe(Number(run.last_slide));
      expect(Number(run.distinct_slides)).toBe(Number(run.last_slide));
      expect(run.is_first_after_start).toBe(true);
      expect(run.is_ordered).toBe(true);
      if (run.is_completed) expect(Number(run.last_slide)).toBe(slidesOf.get(run.course_title));
    }
    // Learners leave along the way: fewer open the last slide than the first.
    const unfinished = runs.filter((run) => !run.is_completed);
    expect(unfinished.length).toBeGreaterThan(runs.length * 0.05);

    const [safetyStart] = await queryRows<{
      slide_title: string;
      scene: string | null;
      seconds: number | null;
    }>(
      db,
      sql`select e.slide_title, e.scene, e.seconds from learning_events e join courses c on c.id = e.course_id
          where e.organization_id = ${demo.organizationId} and c.course_title = 'Workplace Safety Essentials'
            and e.type = 'slide.viewed' and e.slide_number = 1 limit 1`,
    );
    expect(safetyStart).toEqual({ slide_title: 'Welcome', scene: 'Introduction', seconds: null });

    // The seconds on slide N - 1 are the time between its view (or the start, for slide 1) and slide N's.
    const [timing] = await queryRows<{ worst: number | string; shortest: number | string }>(
      db,
      sql`select max(abs(e.seconds - extract(epoch from e.occurred_at - case when p.slide_number = 1
                   then r.started_at else p.occurred_at end))) as worst,
                 min(e.seconds) as shortest
          from learning_events e
          join learning_events p on p.organization_id = e.organization_id and p.run_id = e.run_id
            and p.type = 'slide.viewed' and p.slide_number = e.slide_number - 1
          join course_runs r on r.id = e.run_id
          where e.organization_id = ${demo.organizationId} and e.type = 'slide.viewed' and e.slide_number > 1`,
    );
    expect(Number(timing?.worst)).toBeLessThanOrEqual(0.5);
    expect(Number(timing?.shortest)).toBeGreaterThanOrEqual(60);

    // Each answer comes while its slide is open: after the slide's view.
    const [early] = await queryRows<{ n: number | string }>(
      db,
      sql`select count(*) as n from course_run_questions a
          left join learning_events e on e.organization_id = a.organization_id and e.run_id = a.course_run_id
            and e.type = 'slide.viewed' and e.slide_number = a.slide_number
          where a.organization_id = ${demo.organizationId} and (e.id is null or a.created_at < e.occurred_at)`,
    );
    expect(Number(early?.n)).toBe(0);
  });

  it('logs a pass or a fail with the score and pass mark for every finished run, and nothing for the others', async () => {
    const [outcomes] = await queryRows<{
      finished: number | string;
      matching: number | string;
      outcome_events: number | string;
      passed: number | string;
      failed: number | string;
    }>(
      db,
      sql`select count(*) filter (where r.completed_at is not null) as finished,
                 count(*) filter (where e.type = case when r.passed then 'course.passed' else 'course.failed' end
                   and e.occurred_at = r.completed_at and e.score = r.score and e.pass_mark = r.pass_mark) as matching,
                 count(e.id) as outcome_events,
                 count(*) filter (where e.type = 'course.passed') as passed,
                 count(*) filter (where e.type = 'course.failed') as failed
          from course_runs r
          left join learning_events e on e.organization_id = r.organization_id and e.run_id = r.id
            and e.type in ('course.passed', 'course.failed')
          where r.organization_id = ${demo.organizationId}`,
    );
    expect(Number(outcomes?.finished)).toBeGreaterThan(0);
    expect(Number(outcomes?.matching)).toBe(Number(outcomes?.finished));
    expect(Number(outcomes?.outcome_events)).toBe(Number(outcomes?.finished));
    expect(Number(outcomes?.passed)).toBeGreaterThan(0);
    expect(Number(outcomes?.failed)).toBeGreaterThan(0);
  });

  it('keeps the idempotency key of every seeded event, and back-fills the starts, values, answers and completions', async () => {
    const [keys] = await queryRows<{ seeded: number | string; keyed: number | string }>(
      db,
      sql`select count(*) as seeded, count(k.event_id) as keyed
          from learning_events e
          left join learning_event_keys k on k.organization_id = e.organization_id and k.event_id = e.event_id
            and k.occurred_at = e.occurred_at
          where e.organization_id = ${demo.organizationId} and e.source = 'seed'`,
    );
    expect(Number(keys?.seeded)).toBe(demo.counts.learningEvents);
    expect(Number(keys?.keyed)).toBe(demo.counts.learningEvents);
    const types = await queryRows<{ type: string; source: string; n: number | string }>(
      db,
      sql`select type, source, count(*) as n from learning_events where organization_id = ${demo.organizationId}
          group by type, source order by type`,
    );
    expect(Object.fromEntries(types.map((row) => [row.type, row.source]))).toEqual({
      'course.completed': 'backfill',
      'course.failed': 'seed',
      'course.passed': 'seed',
      'course.started': 'backfill',
      'question.answered': 'backfill',
      'slide.viewed': 'seed',
      'variable.set': 'backfill',
    });
    expect(Number(types.find((row) => row.type === 'course.started')?.n)).toBe(demo.counts.courseRuns);
  });

  it('spreads course runs over the last 90 days before now', async () => {
    const [range] = await queryRows<{ first: string | Date; last: string | Date; weeks: number | string }>(
      db,
      sql`select min(created_at) as first, max(created_at) as last,
                 count(distinct date_trunc('week', created_at)) as weeks
          from course_runs where organization_id = ${demo.organizationId}`,
    );
    const days = (value: string | Date | undefined) =>
      (NOW.getTime() - new Date(value ?? 0).getTime()) / 86_400_000;
    expect(days(range?.first)).toBeLessThanOrEqual(90);
    expect(days(range?.first)).toBeGreaterThan(75);
    expect(days(range?.last)).toBeGreaterThanOrEqual(0);
    expect(days(range?.last)).toBeLessThan(3);
    expect(Number(range?.weeks)).toBeGreaterThanOrEqual(12);
  });

  it('has variables of every data type, each with values in its typed column', async () => {
    const rows = await queryRows<{ data_type: string; n: number | string; typed: number | string }>(
      db,
      sql`select v.data_type, count(*) as n,
                 count(case v.data_type when 'number' then lv.value_number::text when 'boolean' then lv.value_boolean::text
                                        when 'date' then lv.value_date::text else lv.value end) as typed
          from learner_variable_values lv join variables v on v.id = lv.variable_id
          where lv.organization_id = ${demo.organizationId}
          group by v.data_type order by v.data_type`,
    );
    expect(rows.map((row) => row.data_type)).toEqual(['boolean', 'date', 'number', 'text']);
    for (const row of rows) {
      expect(Number(row.n)).toBeGreaterThan(50);
      expect(Number(row.typed)).toBe(Number(row.n));
    }
    const [score] = await queryRows<{ mean: number | string; spread: number | string }>(
      db,
      sql`select avg(lv.value_number) as mean, stddev_pop(lv.value_number) as spread
          from learner_variable_values lv join variables v on v.id = lv.variable_id
          where lv.organization_id = ${demo.organizationId} and v.name = 'final_score'`,
    );
    expect(Number(score?.mean)).toBeGreaterThan(50);
    expect(Number(score?.mean)).toBeLessThan(85);
    expect(Number(score?.spread)).toBeGreaterThan(8);
  });

  it('has hard questions and easy ones', async () => {
    const rates = await queryRows<{ rate: number | string }>(
      db,
      sql`select avg(correct::int) as rate from course_run_questions
          where organization_id = ${demo.organizationId} group by question_id`,
    );
    const values = rates.map((row) => Number(row.rate));
    expect(values).toHaveLength(35);
    expect(values.filter((rate) => rate < 0.5).length).toBeGreaterThanOrEqual(3);
    expect(values.filter((rate) => rate > 0.8).length).toBeGreaterThanOrEqual(3);
  });

  it('shows drop-off: fewer learners reach the last question of a course than the first, and not every run completes', async () => {
    const [safety] = await db
      .select({ id: questions.courseId })
      .from(questions)
      .where(
        and(
          eq(questions.organizationId, demo.organizationId),
          eq(questions.interactionId, 'Slide3_MultiChoice_1'),
        ),
      );
    const reached = await queryRows<{ slide_number: number; n: number | string }>(
      db,
      sql`select slide_number, count(*) as n from course_run_questions
          where organization_id = ${demo.organizationId} and course_id = ${safety?.id}
          group by slide_number order by slide_number`,
    );
    const first = Number(reached[0]?.n);
    const last = Number(reached.at(-1)?.n);
    expect(last).toBeLessThan(first * 0.92);
    const [completion] = await queryRows<{ rate: number | string }>(
      db,
      sql`select avg((completed_at is not null)::int) as rate from course_runs where organization_id = ${demo.organizationId}`,
    );
    expect(Number(completion?.rate)).toBeGreaterThan(0.5);
    expect(Number(completion?.rate)).toBeLessThan(0.95);
  });

  it('adds a benchmark organization next to the demo, reusing the owner account', async () => {
    const organization = await nextBenchOrganization(db);
    expect(organization).toEqual({ name: 'Bench Org 1', subdomain: 'bench-org-1' });
    const bench = await seedDemo(db, {
      now: NOW,
      seed: 7,
      learners: 30,
      organization,
      hashPassword: fastHash,
    });
    expect(bench).toMatchObject({ isOwnerCreated: false, ownerUserId: demo.ownerUserId });
    expect(bench.counts).toMatchObject({ organizations: 1, authUsers: 0, learners: 30 });
    const memberships = await db
      .select({ organizationId: userOrganizations.organizationId, isPrimary: userOrganizations.isPrimary })
      .from(userOrganizations)
      .where(eq(userOrganizations.userId, demo.ownerUserId));
    expect(memberships).toHaveLength(2);
    expect(memberships.find((row) => row.organizationId === bench.organizationId)?.isPrimary).toBe(false);
    expect(await nextBenchOrganization(db)).toEqual({ name: 'Bench Org 2', subdomain: 'bench-org-2' });
    // Another label counts its own organizations.
    expect(await nextBenchOrganization(db, 'Ingest Bench Org')).toEqual({
      name: 'Ingest Bench Org 1',
      subdomain: 'ingest-bench-org-1',
    });
  });
});

describe('determinism', () => {
  let left: DatabaseConnection;
  let right: DatabaseConnection;

  beforeAll(async () => {
    [left, right] = await Promise.all([createTestDatabase(), createTestDatabase()]);
  });

  afterAll(async () => {
    await Promise.all([left.close(), right.close()]);
  });

  it('gives the same rows, ids included, for the same seed and a different dataset for another seed', async () => {
    const options = { now: NOW, seed: 123, learners: 60, hashPassword: fastHash };
    const a = await seedDemo(left.db, options);
    const b = await seedDemo(right.db, options);
    expect(b.counts).toEqual(a.counts);
    expect(b.organizationId).toBe(a.organizationId);
    const rowsA = await firstRows(left.db, a.organizationId);
    expect(await firstRows(right.db, b.organizationId)).toEqual(rowsA);
    expect(rowsA.firstLearners).toHaveLength(5);
    expect(rowsA.firstEvents).toHaveLength(5);

    const other = await seedDemo(left.db, {
      ...options,
      seed: 124,
      organization: { name: 'Other', subdomain: 'other-org' },
    });
    const rowsOther = await firstRows(left.db, other.organizationId);
    expect(rowsOther.firstLearners.map((row) => row.email)).not.toEqual(
      rowsA.firstLearners.map((row) => row.email),
    );
  });
});

describe('seedIfEmpty', () => {
  let connection: DatabaseConnection;

  beforeAll(async () => {
    connection = await createTestDatabase();
  });

  afterAll(async () => {
    await connection.close();
  });

  it('seeds an empty database once, even when called twice at the same time', async () => {
    const options = { now: NOW, learners: 20, hashPassword: fastHash };
    const results = await Promise.all([seedIfEmpty(connection, options), seedIfEmpty(connection, options)]);
    expect(results.filter((result) => result !== null)).toHaveLength(1);
    expect(await seedIfEmpty(connection, options)).toBeNull();
    const rows = await connection.db.select({ subdomain: organizations.subdomain }).from(organizations);
    expect(rows).toEqual([{ subdomain: DEMO_ORGANIZATION.subdomain }]);
  });
});

describe('default password hash', () => {
  it('stores the demo password in Better Auth’s scrypt format', async () => {
    const connection = await createTestDatabase();
    try {
      const result = await seedDemo(connection.db, { now: NOW, learners: 5 });
      const [account] = await connection.db
        .select({ password: authAccounts.password })
        .from(authAccounts)
        .where(eq(authAccounts.userId, result.ownerUserId));
      const [salt, key] = (account?.password ?? '').split(':');
      expect(salt).toMatch(/^[0-9a-f]{32}$/);
      expect(key).toMatch(/^[0-9a-f]{128}$/);
      const derived = await new Promise<Buffer>((resolve, reject) => {
        scrypt(
          DEMO_OWNER.password.normalize('NFKC'),
          salt ?? '',
          64,
          { N: 16_384, r: 16, p: 1, maxmem: 128 * 16_384 * 16 * 2 },
          (error, buffer) => (error ? reject(error) : resolve(buffer)),
        );
      });
      expect(timingSafeEqual(derived, Buffer.from(key ?? '', 'hex'))).toBe(true);
      const [variable] = await connection.db.select({ n: count() }).from(variables);
      expect(variable?.n).toBe(27);
    } finally {
      await connection.close();
    }
  });
});
