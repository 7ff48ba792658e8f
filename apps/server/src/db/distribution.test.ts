import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { and, eq, sql, type SQL } from 'drizzle-orm';
import { reportQuerySchema } from '@courselens/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrationsDir } from '../lib/paths';
import { createTestDatabase } from '../test/database';
import { changedTables, databaseFingerprint } from '../test/fingerprint';
import type { Database, DatabaseConnection } from './client';
import {
  findDistributionViolations,
  formatDistributionViolations,
  type DistributionViolation,
} from './distribution';
import { insertResponse } from './factories/learning';
import { insertApiKey, insertInvitation } from './factories/organizations';
import { buildShareToken, insertCustomReport, insertSharedView } from './factories/reports';
import { onlyRow } from './factories/sequence';
import { runMigrations } from './migrate';
import {
  chatSessions,
  chatbotVariableMappings,
  courseRunQuestions,
  courseVariableMappings,
  courses,
  customReportItems,
  learnerChatbotVariableValues,
  learners,
  questionLearners,
  questions,
  variables,
} from './schema';
import { REFERENCE_TABLES } from './schema/distribution';
import { DEMO_ORGANIZATION, seedDemo } from './seed/seed';

// The migrated schema must distribute by organization_id unchanged (decision
// 011): this reads the catalog, so a new table or key that breaks a rule
// fails here with the offending table and constraint named.

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
  return (result as { rows: T[] }).rows;
}

describe('distribution by organization', () => {
  it('every table of the migrated schema is a reference table or distributes by organization_id', async () => {
    const violations = await findDistributionViolations(db);
    // The list itself is the failure message: which table, which key, why.
    expect(formatDistributionViolations(violations)).toBe('');
  });

  it('names a reason for every reference table', () => {
    for (const [table, reason] of Object.entries(REFERENCE_TABLES)) {
      expect(reason.length, table).toBeGreaterThan(20);
    }
  });

  it('serves the lookups by token or key hash, which fan out to every shard, from an index the token leads', async () => {
    const lookups = [
      ['api_keys', 'key_hash'],
      ['invitations', 'token_hash'],
      ['custom_reports', 'public_share_token'],
      ['shared_views', 'token'],
    ] as const;
    for (const [table, column] of lookups) {
      const found = await rows<{ index: string }>(sql`
        select i.relname as index
        from pg_index x
        join pg_class t on t.oid = x.indrelid
        join pg_class i on i.oid = x.indexrelid
        join pg_attribute a on a.attrelid = t.oid and a.attnum = x.indkey[0]
        where t.relname = ${table} and t.relnamespace = 'public'::regnamespace and a.attname = ${column}`);
      expect(found.length, `${table}.${column}`).toBeGreaterThan(0);
    }
  });

  it('reports each kind of offending table, and is clean again once they are gone', async () => {
    // Deliberately bad tables, one per rule, dropped whatever happens.
    const statements = [
      // Rule 1: a primary key and a unique key without organization_id.
      `create table distribution_check_single_key (
         id uuid primary key, organization_id uuid not null references organizations(id), token text unique)`,
      // Neither a reference table nor organization_id.
      `create table distribution_check_orphan (id integer primary key)`,
      // organization_id nullable, and no primary key at all.
      `create table distribution_check_nullable (organization_id uuid, id uuid)`,
      // Rule 2: a foreign key between tenant tables on the id alone, and a
      // composite one whose SET NULL would clear organization_id.
      `create table distribution_check_child (
         organization_id uuid not null, id uuid not null, parent_id uuid references distribution_check_single_key(id),
         learner_id uuid, primary key (organization_id, id),
         constraint distribution_check_child_learner_fk foreign key (organization_id, learner_id)
           references learners(organization_id, id) on delete set null)`,
      // Rule 3: a reference table (listed below) that references a tenant table.
      `create table distribution_check_reference (
         id uuid primary key, organization_id uuid, course_id uuid,
         constraint distribution_check_reference_course_fk foreign key (organization_id, course_id)
           references courses(organization_id, id))`,
    ];
    const tables = [
      'distribution_check_reference',
      'distribution_check_child',
      'distribution_check_nullable',
      'distribution_check_orphan',
      'distribution_check_single_key',
    ];
    let violations: DistributionViolation[];
    try {
      for (const statement of statements) await db.execute(sql.raw(statement));
      violations = await findDistributionViolations(db, [
        ...Object.keys(REFERENCE_TABLES),
        'distribution_check_reference',
        'distribution_check_missing',
      ]);
    } finally {
      for (const table of tables) await db.execute(sql.raw(`drop table if exists ${table}`));
    }
    const found = violations.map((v) => `${v.table} ${v.object ?? '-'} ${v.message}`);
    const expected = [
      /^distribution_check_single_key distribution_check_single_key_pkey primary key without organization_id/,
      /^distribution_check_single_key distribution_check_single_key_token_key unique index without organization_id/,
      /^distribution_check_orphan - has no organization_id column and is not a reference table/,
      /^distribution_check_nullable - organization_id is nullable in a tenant table/,
      /^distribution_check_nullable - tenant table without a primary key/,
      /^distribution_check_child distribution_check_child_parent_id_fkey foreign key between tenant tables without organization_id on both sides/,
      /^distribution_check_child distribution_check_child_learner_fk foreign key would set organization_id to null/,
      /^distribution_check_reference distribution_check_reference_course_fk reference table references tenant table courses/,
      /^distribution_check_missing - is listed as a reference table but does not exist/,
    ];
    for (const pattern of expected) {
      expect(
        found.some((line) => pattern.test(line)),
        `${pattern}\nin:\n${found.join('\n')}`,
      ).toBe(true);
    }
    expect(found).toHaveLength(expected.length);
    expect(formatDistributionViolations(await findDistributionViolations(db))).toBe('');
  });

  it('accepts a composite foreign key that clears only its own column on delete', async () => {
    try {
      await db.execute(
        sql.raw(`create table distribution_check_set_null (
          organization_id uuid not null, id uuid not null, learner_id uuid, primary key (organization_id, id),
          foreign key (organization_id, learner_id) references learners(organization_id, id)
            on delete set null (learner_id))`),
      );
      expect(formatDistributionViolations(await findDistributionViolations(db))).toBe('');
    } finally {
      await db.execute(sql.raw('drop table if exists distribution_check_set_null'));
    }
  });
});

/** A copy of the migrations folder whose journal ends at `lastTag`, to build a database as it was then. */
async function migrationsUntil(lastTag: string): Promise<{ folder: string; remove: () => Promise<void> }> {
  const folder = await mkdtemp(join(tmpdir(), 'courselens-migrations-'));
  await cp(migrationsDir, folder, { recursive: true });
  const journalPath = join(folder, 'meta', '_journal.json');
  const journal = JSON.parse(await readFile(journalPath, 'utf8')) as { entries: { tag: string }[] };
  const last = journal.entries.findIndex((entry) => entry.tag === lastTag);
  if (last < 0) throw new Error(`no migration ${lastTag}`);
  await writeFile(journalPath, JSON.stringify({ ...journal, entries: journal.entries.slice(0, last + 1) }));
  return { folder, remove: () => rm(folder, { recursive: true, force: true }) };
}

/** Rows of the tables whose keys 0011 changes that the demo seed leaves empty. */
async function insertOtherTenantRows(target: Database, organizationId: string) {
  const [variable] = await target
    .select()
    .from(variables)
    .where(eq(variables.organizationId, organizationId))
    .limit(1);
  const [question] = await target
    .select()
    .from(questions)
    .where(eq(questions.organizationId, organizationId))
    .limit(1);
  const [learner] = await target
    .select()
    .from(learners)
    .where(eq(learners.organizationId, organizationId))
    .limit(1);
  if (!variable || !question || !learner) throw new Error('the demo has variables, questions and learners');
  const report = await insertCustomReport(target, {
    organizationId,
    isPublic: true,
    publicShareToken: buildShareToken(),
  });
  // The first version's three item tables (0013 folds them into custom_report_items).
  await target.execute(sql`
    insert into custom_report_variables (organization_id, report_id, variable_id, display_order, comparison_type)
    values (${organizationId}, ${report.id}, ${variable.id}, 0, 'by_course')`);
  await target.execute(sql`
    insert into custom_report_questions (organization_id, report_id, question_id, display_order)
    values (${organizationId}, ${report.id}, ${question.id}, 1)`);
  await target.execute(sql`
    insert into custom_report_question_identifiers
      (organization_id, report_id, course_id, slide_number, display_order, comparison_type)
    values (${organizationId}, ${report.id}, ${question.courseId}, 1, 2, 'over_time')`);
  await insertSharedView(target, { organizationId, kind: 'variable', variableId: variable.id });
  await insertSharedView(target, { organizationId, kind: 'question', questionId: question.id });
  await target.insert(courseVariableMappings).values({
    organizationId,
    courseId: variable.courseId,
    sourceVariableName: 'old_name',
    destinationVariableId: variable.id,
  });
  await insertApiKey(target, { organizationId });
  await insertInvitation(target, { organizationId });
  // Raw SQL: the tables as 0011 found them (later migrations add columns the schema module knows).
  const chatbot = onlyRow(
    (
      await target.execute<{ id: string }>(
        sql`insert into chatbots (organization_id, name) values (${organizationId}, 'Coach') returning id`,
      )
    ).rows,
  );
  const chatbotVariable = onlyRow(
    (
      await target.execute<{ id: string }>(
        sql`insert into chatbot_variables (organization_id, chatbot_id, name)
          values (${organizationId}, ${chatbot.id}, 'goal') returning id`,
      )
    ).rows,
  );
  await insertSharedView(target, {
    organizationId,
    kind: 'chatbot_variable',
    chatbotVariableId: chatbotVariable.id,
  });
  await target
    .insert(chatbotVariableMappings)
    .values({ organizationId, chatbotVariableId: chatbotVariable.id, destinationVariableId: variable.id });
  const session = onlyRow(
    (
      await target.execute<{ id: string }>(
        sql`insert into chat_sessions (organization_id, chatbot_id, learner_id)
          values (${organizationId}, ${chatbot.id}, ${learner.id}) returning id`,
      )
    ).rows,
  );
  await target.execute(
    sql`insert into chat_messages (organization_id, session_id, role, content)
      values (${organizationId}, ${session.id}, 'user', 'Hi')`,
  );
  const value = onlyRow(
    await target
      .insert(learnerChatbotVariableValues)
      .values({
        organizationId,
        chatbotVariableId: chatbotVariable.id,
        learnerId: learner.id,
        chatSessionId: session.id,
        value: 'Pass the exam',
      })
      .returning(),
  );
  return { question, learner, session, value, reportId: report.id, variableId: variable.id };
}

describe('0011_distributable_schema on a database that holds data', () => {
  it(
    'keeps every row and id, and the new keys, cascades and rollups work on them',
    async () => {
      const existing = await createTestDatabase({ isEmpty: true });
      const earlier = await migrationsUntil('0010_api_key_ingest_scope');
      try {
        await runMigrations(existing, { migrationsFolder: earlier.folder });
        const target = existing.db;
        const demo = await seedDemo(target, {
          now: new Date('2025-06-02T09:30:00.000Z'),
          seed: 3,
          learners: 30,
          // A plan id the schema of 0010 accepts as well as today's.
          organization: { ...DEMO_ORGANIZATION, plan: 'free' },
          hashPassword: (password) => Promise.resolve(`test:${password}`),
        });
        const organizationId = demo.organizationId;
        const rows = await insertOtherTenantRows(target, organizationId);
        const before = await databaseFingerprint(target);

        const until0012 = await migrationsUntil('0012_event_keys_retention_index');
        try {
          await runMigrations(existing, { migrationsFolder: until0012.folder });
        } finally {
          await until0012.remove();
        }
        expect(changedTables(before, await databaseFingerprint(target))).toEqual([]);

        // 0013 turns each report item of the first version into a query of the report model.
        await runMigrations(existing);
        expect(formatDistributionViolations(await findDistributionViolations(target))).toBe('');
        const items = await target
          .select({ displayOrder: customReportItems.displayOrder, query: customReportItems.query })
          .from(customReportItems)
          .where(eq(customReportItems.reportId, rows.reportId))
          .orderBy(customReportItems.displayOrder);
        expect(
          items.map((item) => [item.query.subject, item.query.breakdown.kind, item.query.measure]),
        ).toEqual([
          [{ kind: 'variable', variableIds: [rows.variableId] }, 'course', null],
          [{ kind: 'question', questionId: rows.question.id }, 'learner', null],
          [
            {
              kind: 'identifier',
              courseId: rows.question.courseId,
              slideNumber: 1,
              questionNumber: null,
              questionText: null,
            },
            'week',
            null,
          ],
        ]);
        for (const item of items) expect(reportQuerySchema.safeParse(item.query).success).toBe(true);

        // A new answer is counted under the rollups' new keys.
        const pair = and(
          eq(questionLearners.organizationId, organizationId),
          eq(questionLearners.questionId, rows.question.id),
          eq(questionLearners.learnerId, rows.learner.id),
        );
        const [pairBefore] = await target.select().from(questionLearners).where(pair);
        await insertResponse(target, {
          organizationId,
          questionId: rows.question.id,
          courseId: rows.question.courseId,
          learnerId: rows.learner.id,
        });
        const [pairAfter] = await target.select().from(questionLearners).where(pair);
        expect(pairAfter?.responses).toBe((pairBefore?.responses ?? 0) + 1);

        // Deleting a chat clears the value's session, not its organization.
        await target
          .delete(chatSessions)
          .where(and(eq(chatSessions.organizationId, organizationId), eq(chatSessions.id, rows.session.id)));
        const [value] = await target
          .select()
          .from(learnerChatbotVariableValues)
          .where(
            and(
              eq(learnerChatbotVariableValues.organizationId, organizationId),
              eq(learnerChatbotVariableValues.id, rows.value.id),
            ),
          );
        expect(value).toMatchObject({ organizationId, chatSessionId: null });

        // Deleting a course cascades through the composite keys.
        await target
          .delete(courses)
          .where(and(eq(courses.organizationId, organizationId), eq(courses.id, rows.question.courseId)));
        const answersLeft = await target
          .select({ id: courseRunQuestions.id })
          .from(courseRunQuestions)
          .where(
            and(
              eq(courseRunQuestions.organizationId, organizationId),
              eq(courseRunQuestions.courseId, rows.question.courseId),
            ),
          );
        expect(answersLeft).toEqual([]);
      } finally {
        await earlier.remove();
        await existing.close();
      }
    },
    // Migrates from nothing, seeds and migrates again: several seconds on a shared 2-core machine.
    120_000,
  );
});
