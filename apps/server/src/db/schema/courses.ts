import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  doublePrecision,
  foreignKey,
  index,
  pgTable,
  primaryKey,
  text,
  unique,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { authUsers } from './auth';
import { tenantId, timestamps, timestamptz } from './columns';
import { learners } from './learners';
import { organizationId, tenantOrganizationId } from './organizations';

/**
 * A course of an organization. Deletion is soft (`is_deleted`, `deleted_at`);
 * the external id is unique among the organization's live courses, so a
 * deleted course's id can be registered again.
 */
export const courses = pgTable(
  'courses',
  {
    id: tenantId(),
    organizationId: organizationId(),
    courseTitle: text('course_title').notNull(),
    description: text('description'),
    externalCourseId: text('external_course_id'),
    /** The message the tracker shows in the course; history in `broadcasts`. */
    broadcastMessage: text('broadcast_message'),
    isDeleted: boolean('is_deleted').notNull().default(false),
    deletedAt: timestamptz('deleted_at'),
    ...timestamps(),
  },
  (table) => [
    primaryKey({ name: 'courses_pk', columns: [table.organizationId, table.id] }),
    uniqueIndex('courses_org_external_id_unique')
      .on(table.organizationId, table.externalCourseId)
      .where(sql`not ${table.isDeleted}`),
    index('courses_org_created_idx').on(table.organizationId, table.createdAt),
    check('courses_deleted_at_matches_flag', sql`(${table.isDeleted}) = (${table.deletedAt} is not null)`),
  ],
);

/** History of a course's broadcast messages (`message` null = cleared). */
export const broadcasts = pgTable(
  'broadcasts',
  {
    id: tenantId(),
    organizationId: organizationId(),
    courseId: uuid('course_id').notNull(),
    message: text('message'),
    authorId: uuid('author_id').references(() => authUsers.id, { onDelete: 'set null' }),
    ...timestamps(),
  },
  (table) => [
    primaryKey({ name: 'broadcasts_pk', columns: [table.organizationId, table.id] }),
    foreignKey({
      name: 'broadcasts_course_fk',
      columns: [table.organizationId, table.courseId],
      foreignColumns: [courses.organizationId, courses.id],
    }).onDelete('cascade'),
    index('broadcasts_org_course_created_idx').on(
      table.organizationId,
      table.courseId,
      table.createdAt.desc().nullsFirst(),
    ),
  ],
);

/**
 * One attempt of a learner at a course (a "view" of the course). `created_at`
 * is when the attempt began (the ingested event's time), `client_run_id` the
 * tracker's id for it when one was sent.
 */
export const courseRuns = pgTable(
  'course_runs',
  {
    id: tenantId(),
    organizationId: tenantOrganizationId(),
    courseId: uuid('course_id').notNull(),
    learnerId: uuid('learner_id').notNull(),
    clientRunId: text('client_run_id'),
    startedAt: timestamptz('started_at').notNull().defaultNow(),
    completedAt: timestamptz('completed_at'),
    /** course.passed / course.failed: the latest outcome, with its score and pass mark. */
    passed: boolean('passed'),
    score: doublePrecision('score'),
    passMark: doublePrecision('pass_mark'),
    /** course.progressed: the furthest progress reported, 0 to 100. */
    progressPercent: doublePrecision('progress_percent'),
    /** course.exited: when the learner last left without completing. */
    exitedAt: timestamptz('exited_at'),
    ...timestamps(),
  },
  (table) => [
    foreignKey({
      name: 'course_runs_course_fk',
      columns: [table.organizationId, table.courseId],
      foreignColumns: [courses.organizationId, courses.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'course_runs_learner_fk',
      columns: [table.organizationId, table.learnerId],
      foreignColumns: [learners.organizationId, learners.id],
    }).onDelete('cascade'),
    primaryKey({ name: 'course_runs_pk', columns: [table.organizationId, table.id] }),
    // Also serves "runs of a learner in a course" (first/last access, count).
    unique('course_runs_client_run_unique').on(
      table.organizationId,
      table.courseId,
      table.learnerId,
      table.clientRunId,
    ),
    index('course_runs_org_course_created_idx').on(table.organizationId, table.courseId, table.createdAt),
    index('course_runs_org_learner_created_idx').on(table.organizationId, table.learnerId, table.createdAt),
    index('course_runs_org_created_idx').on(table.organizationId, table.createdAt),
  ],
);

export type Course = typeof courses.$inferSelect;
export type NewCourse = typeof courses.$inferInsert;
export type Broadcast = typeof broadcasts.$inferSelect;
export type NewBroadcast = typeof broadcasts.$inferInsert;
export type CourseRun = typeof courseRuns.$inferSelect;
export type NewCourseRun = typeof courseRuns.$inferInsert;
