import { eq, sql, type SQL } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../test/database';
import type { Database, DatabaseConnection } from '../client';
import { insertAuthUser, insertMembership, insertOrganization } from '../factories/organizations';
import {
  insertCourse,
  insertCourseRun,
  insertLearner,
  insertQuestion,
  insertResponse,
  insertVariable,
  insertVariableValue,
} from '../factories/learning';
import { insertSharedView } from '../factories/reports';
import {
  courseRunQuestions,
  courseRuns,
  courses,
  learningEventKeys,
  learnerVariableValues,
  learners,
  organizations,
  toTypedValue,
  userOrganizations,
} from './index';

/** Rows of a raw `db.execute` (both drivers answer `{ rows }`; the shared Database type leaves it unknown). */
async function queryRows<T>(db: Database, query: SQL): Promise<T[]> {
  const result: unknown = await db.execute(query);
  return (result as { rows: T[] }).rows;
}

/** The SQLSTATE of a failed query, whether the driver error is wrapped by Drizzle or not. */
async function sqlStateOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    const candidates = [error, (error as { cause?: unknown }).cause];
    for (const candidate of candidates) {
      const code = (candidate as { code?: unknown } | undefined)?.code;
      if (typeof code === 'string') return code;
    }
    throw error;
  }
  throw new Error('expected the statement to fail, but it succeeded');
}

const UNIQUE_VIOLATION = '23505';
const NOT_NULL_VIOLATION = '23502';
const CHECK_VIOLATION = '23514';
const FOREIGN_KEY_VIOLATION = '23503';

/** Tables not owned by one organization: identity, and the tenant itself. */
// Not tenant-owned: identities, the tenants themselves, server settings, rate-limit counters, handled webhooks.
const GLOBAL_TABLES = [
  'auth_user',
  'auth_session',
  'auth_account',
  'auth_verification',
  'organizations',
  'app_settings',
  'rate_limit_buckets',
  'billing_webhook_events',
];

let connection: DatabaseConnection;
let db: Database;

beforeAll(async () => {
  connection = await createTestDatabase();
  db = connection.db;
});

afterAll(async () => {
  await connection.close();
});

describe('migrations', () => {
  it('create every table of the data model', async () => {
    const rows = await queryRows<{ table_name: string }>(
      db,
      sql`select table_name from information_schema.tables where table_schema = 'public' order by table_name`,
    );
    const tables = rows.map((row) => row.table_name);
    for (const table of [
      'organizations',
      'users',
      'user_organizations',
      'invitations',
      'api_keys',
      'courses',
      'broadcasts',
      'learners',
      'course_runs',
      'variables',
      'learner_variable_values',
      'questions',
      'course_run_questions',
      'learning_event_keys',
      'learning_events',
      'rollup_queue',
      'custom_reports',
      'custom_report_items',
      'shared_views',
      'ai_summaries',
      'pipelines',
      'actions',
      'chatbots',
      'chatbot_variables',
      'learner_chatbot_variable_values',
      'chat_sessions',
      'chat_messages',
      'course_variable_mappings',
      'chatbot_variable_mappings',
      'activity_events',
      'analytics_settings',
      'analytics_funnels',
      ...GLOBAL_TABLES,
    ]) {
      expect(tables).toContain(table);
    }
  });

  it('give every tenant-owned table a NOT NULL organization_id inside a cascading foreign key', async () => {
    const tables = await queryRows<{ table_name: string }>(
      db,
      sql`select table_name from information_schema.tables
          where table_schema = 'public' and table_type = 'BASE TABLE'`,
    );
    const columns = await queryRows<{ table_name: string; is_nullable: string }>(
      db,
      sql`select table_name, is_nullable from information_schema.columns
          where table_schema = 'public' and column_name = 'organization_id'`,
    );
    // Either organization_id -> organizations, or a composite
    // (organization_id, parent_id) -> parent (organization_id, id): both
    // cascade from the organization and pin the row to it.
    const cascading = await queryRows<{ table_name: string; referenced: string }>(
      db,
      sql`select c.conrelid::regclass::text as table_name, c.confrelid::regclass::text as referenced
          from pg_constraint c
          join pg_attribute a on a.attrelid = c.conrelid and a.attnum = any (c.conkey)
          join pg_attribute r on r.attrelid = c.confrelid and r.attnum = any (c.confkey)
          where c.contype = 'f' and c.confdeltype = 'c'
            and a.attname = 'organization_id'
            and r.attname = case when c.confrelid = 'organizations'::regclass then 'id' else 'organization_id' end`,
    );
    const nullability = new Map(columns.map((row) => [row.table_name, row.is_nullable]));
    const cascades = new Set(cascading.map((row) => row.table_name));
    // The profile outlives the organization it was created with (set null).
    const tenantTables = tables
      .map((row) => row.table_name)
      .filter((table) => !GLOBAL_TABLES.includes(table) && table !== 'users');
    expect(tenantTables.length).toBeGreaterThan(25);
    for (const table of tenantTables) {
      expect({ table, isNullable: nullability.get(table) }).toEqual({ table, isNullable: 'NO' });
      expect({ table, cascades: cascades.has(table) }).toEqual({ table, cascades: true });
    }
  });

  it('reject a tenant row without organization_id', async () => {
    const state = await sqlStateOf(
      db.execute(sql`insert into learners (email, name) values ('no-org@example.com', 'No Org')`),
    );
    expect(state).toBe(NOT_NULL_VIOLATION);
  });
});

describe('constraints', () => {
  it('allow at most one primary membership per user', async () => {
    const user = await insertAuthUser(db);
    const first = await insertOrganization(db);
    const second = await insertOrganization(db);
    const third = await insertOrganization(db);
    await insertMembership(db, { userId: user.id, organizationId: first.id, isPrimary: true });
    await insertMembership(db, { userId: user.id, organizationId: third.id, isPrimary: false });

    const state = await sqlStateOf(
      insertMembership(db, { userId: user.id, organizationId: second.id, isPrimary: true }),
    );
    expect(state).toBe(UNIQUE_VIOLATION);

    // Switching primary is "all off, then one on".
    await db.transaction(async (tx) => {
      await tx
        .update(userOrganizations)
        .set({ isPrimary: false })
        .where(eq(userOrganizations.userId, user.id));
      await tx
        .update(userOrganizations)
        .set({ isPrimary: true })
        .where(eq(userOrganizations.organizationId, third.id));
    });
    const primaries = await db
      .select({ organizationId: userOrganizations.organizationId })
      .from(userOrganizations)
      .where(sql`${userOrganizations.userId} = ${user.id} and ${userOrganizations.isPrimary}`);
    expect(primaries).toEqual([{ organizationId: third.id }]);
  });

  it('keep one membership per user and organization', async () => {
    const user = await insertAuthUser(db);
    const organization = await insertOrganization(db);
    await insertMembership(db, { userId: user.id, organizationId: organization.id });
    const state = await sqlStateOf(
      insertMembership(db, { userId: user.id, organizationId: organization.id }),
    );
    expect(state).toBe(UNIQUE_VIOLATION);
  });

  it('store learner e-mails lower-case and unique per organization only', async () => {
    const acme = await insertOrganization(db);
    const globex = await insertOrganization(db);
    await insertLearner(db, { organizationId: acme.id, email: 'ann@example.com' });
    expect(await sqlStateOf(insertLearner(db, { organizationId: acme.id, email: 'Ann@Example.com' }))).toBe(
      CHECK_VIOLATION,
    );
    expect(await sqlStateOf(insertLearner(db, { organizationId: acme.id, email: 'ann@example.com' }))).toBe(
      UNIQUE_VIOLATION,
    );
    await expect(
      insertLearner(db, { organizationId: globex.id, email: 'ann@example.com' }),
    ).resolves.toMatchObject({
      organizationId: globex.id,
    });
  });

  it('reject an invalid subdomain and an unknown plan', async () => {
    expect(await sqlStateOf(insertOrganization(db, { subdomain: '-bad-' }))).toBe(CHECK_VIOLATION);
    expect(await sqlStateOf(insertOrganization(db, { subdomain: 'ab' }))).toBe(CHECK_VIOLATION);
    expect(await sqlStateOf(insertOrganization(db, { subdomain: 'Upper' }))).toBe(CHECK_VIOLATION);
    expect(
      await sqlStateOf(
        db.execute(sql`insert into organizations (name, subdomain, plan) values ('x', 'plan-x', 'gold')`),
      ),
    ).toBe(CHECK_VIOLATION);
    const organization = await insertOrganization(db, { subdomain: 'acme-learning-2' });
    expect(organization.autoRegister).toBe(true);
    expect(organization.plan).toBe('free');
  });

  it('keep external course ids unique among live courses of an organization', async () => {
    const organization = await insertOrganization(db);
    const course = await insertCourse(db, {
      organizationId: organization.id,
      externalCourseId: 'safety-101',
    });
    expect(
      await sqlStateOf(insertCourse(db, { organizationId: organization.id, externalCourseId: 'safety-101' })),
    ).toBe(UNIQUE_VIOLATION);
    await db.update(courses).set({ isDeleted: true, deletedAt: new Date() }).where(eq(courses.id, course.id));
    await expect(
      insertCourse(db, { organizationId: organization.id, externalCourseId: 'safety-101' }),
    ).resolves.toMatchObject({ externalCourseId: 'safety-101', isDeleted: false });
  });

  it('make ingested event ids an idempotency key per organization', async () => {
    const organization = await insertOrganization(db);
    const insertEvent = () =>
      db
        .insert(learningEventKeys)
        .values({ organizationId: organization.id, eventId: 'evt-1', occurredAt: new Date() })
        .onConflictDoNothing()
        .returning({ eventId: learningEventKeys.eventId });
    expect(await insertEvent()).toHaveLength(1);
    expect(await insertEvent()).toHaveLength(0);
    expect(
      await sqlStateOf(
        db
          .insert(learningEventKeys)
          .values({ organizationId: organization.id, eventId: '', occurredAt: new Date() }),
      ),
    ).toBe(CHECK_VIOLATION);
  });

  it('let a shared view point only at the target its kind names, once per target', async () => {
    const organization = await insertOrganization(db);
    const course = await insertCourse(db, { organizationId: organization.id });
    const variable = await insertVariable(db, { organizationId: organization.id, courseId: course.id });
    const question = await insertQuestion(db, { organizationId: organization.id, courseId: course.id });
    await insertSharedView(db, {
      organizationId: organization.id,
      kind: 'variable',
      variableId: variable.id,
    });
    expect(
      await sqlStateOf(
        insertSharedView(db, { organizationId: organization.id, kind: 'variable', variableId: variable.id }),
      ),
    ).toBe(UNIQUE_VIOLATION);
    expect(
      await sqlStateOf(
        insertSharedView(db, { organizationId: organization.id, kind: 'variable', questionId: question.id }),
      ),
    ).toBe(CHECK_VIOLATION);
  });

  it('delete tenant rows with their organization, through the composite keys too', async () => {
    const organization = await insertOrganization(db);
    const organizationId = organization.id;
    const course = await insertCourse(db, { organizationId });
    const learner = await insertLearner(db, { organizationId });
    const variable = await insertVariable(db, { organizationId, courseId: course.id, dataType: 'number' });
    const question = await insertQuestion(db, { organizationId, courseId: course.id });
    const run = await insertCourseRun(db, { organizationId, courseId: course.id, learnerId: learner.id });
    const refs = { organizationId, learnerId: learner.id, courseId: course.id, courseRunId: run.id };
    await insertVariableValue(db, { ...refs, variableId: variable.id, raw: 42, dataType: 'number' });
    await insertResponse(db, { ...refs, questionId: question.id });

    await db.delete(organizations).where(eq(organizations.id, organizationId));
    for (const table of [learners, courseRuns, learnerVariableValues, courseRunQuestions]) {
      expect(await db.select().from(table).where(eq(table.organizationId, organizationId))).toEqual([]);
    }
  });

  it("refuse a value or an answer that points at another organization's rows", async () => {
    const acme = await insertOrganization(db);
    const globex = await insertOrganization(db);
    const course = await insertCourse(db, { organizationId: acme.id });
    const variable = await insertVariable(db, { organizationId: acme.id, courseId: course.id });
    const question = await insertQuestion(db, { organizationId: acme.id, courseId: course.id });
    const otherCourse = await insertCourse(db, { organizationId: acme.id });
    const acmeLearner = await insertLearner(db, { organizationId: acme.id });
    const globexLearner = await insertLearner(db, { organizationId: globex.id });

    const value = { organizationId: acme.id, variableId: variable.id, courseId: course.id, raw: 'x' };
    await insertVariableValue(db, { ...value, learnerId: acmeLearner.id });
    expect(await sqlStateOf(insertVariableValue(db, { ...value, learnerId: globexLearner.id }))).toBe(
      FOREIGN_KEY_VIOLATION,
    );
    // The value's course must be its variable's course.
    expect(
      await sqlStateOf(
        insertVariableValue(db, { ...value, learnerId: acmeLearner.id, courseId: otherCourse.id }),
      ),
    ).toBe(FOREIGN_KEY_VIOLATION);
    expect(
      await sqlStateOf(
        insertResponse(db, {
          organizationId: globex.id,
          questionId: question.id,
          courseId: course.id,
          learnerId: globexLearner.id,
        }),
      ),
    ).toBe(FOREIGN_KEY_VIOLATION);
    expect(
      await sqlStateOf(
        insertCourseRun(db, { organizationId: acme.id, courseId: course.id, learnerId: globexLearner.id }),
      ),
    ).toBe(FOREIGN_KEY_VIOLATION);
  });

  it('load relations through the relational query API', async () => {
    const organization = await insertOrganization(db);
    const course = await insertCourse(db, { organizationId: organization.id });
    await insertVariable(db, { organizationId: organization.id, courseId: course.id, name: 'final_score' });
    const loaded = await db.query.courses.findFirst({
      where: eq(courses.id, course.id),
      with: { variables: true, organization: true, runs: true },
    });
    expect(loaded?.variables.map((variable) => variable.name)).toEqual(['final_score']);
    expect(loaded?.organization.id).toBe(organization.id);
  });
});

describe('toTypedValue', () => {
  it('fills the typed column matching the data type', () => {
    expect(toTypedValue('number', '87.5')).toMatchObject({ value: '87.5', valueNumber: 87.5 });
    expect(toTypedValue('number', 'n/a')).toMatchObject({ value: 'n/a', valueNumber: null });
    expect(toTypedValue('boolean', 'Yes')).toMatchObject({ value: 'Yes', valueBoolean: true });
    expect(toTypedValue('boolean', false)).toMatchObject({ value: 'false', valueBoolean: false });
    expect(toTypedValue('date', '2025-03-01T10:00:00Z')).toMatchObject({
      value: '2025-03-01T10:00:00.000Z',
      valueDate: new Date('2025-03-01T10:00:00Z'),
    });
    expect(toTypedValue('text', null)).toEqual({
      value: null,
      valueNumber: null,
      valueBoolean: null,
      valueDate: null,
    });
  });
});
