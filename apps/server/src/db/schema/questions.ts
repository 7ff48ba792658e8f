import {
  boolean,
  doublePrecision,
  foreignKey,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  unique,
  uuid,
} from 'drizzle-orm/pg-core';
import { tenantId, timestamps, timestamptz } from './columns';
import { courseRuns, courses } from './courses';
import { learners } from './learners';
import { organizationId, tenantOrganizationId } from './organizations';

/** A quiz question of a course, registered by the course's interaction id. */
export const questions = pgTable(
  'questions',
  {
    id: tenantId(),
    organizationId: organizationId(),
    courseId: uuid('course_id').notNull(),
    interactionId: text('interaction_id').notNull(),
    slideNumber: integer('slide_number'),
    questionNumber: integer('question_number'),
    questionText: text('question_text'),
    correctAnswer: text('correct_answer'),
    active: boolean('active').notNull().default(true),
    ...timestamps(),
  },
  (table) => [
    primaryKey({ name: 'questions_pk', columns: [table.organizationId, table.id] }),
    foreignKey({
      name: 'questions_course_fk',
      columns: [table.organizationId, table.courseId],
      foreignColumns: [courses.organizationId, courses.id],
    }).onDelete('cascade'),
    unique('questions_org_course_interaction_unique').on(
      table.organizationId,
      table.courseId,
      table.interactionId,
    ),
    // Target of the answers' composite key: an answer's course is its question's course.
    unique('questions_org_course_id_unique').on(table.organizationId, table.courseId, table.id),
  ],
);

/**
 * A learner's answer to a question (spec `course_run_questions`). The
 * question's numbers and text are copied as they were when answered, so a
 * report by identifier survives a course republish. `created_at` is when the
 * answer was given.
 */
export const courseRunQuestions = pgTable(
  'course_run_questions',
  {
    id: tenantId(),
    organizationId: tenantOrganizationId(),
    courseRunId: uuid('course_run_id'),
    questionId: uuid('question_id').notNull(),
    learnerId: uuid('learner_id').notNull(),
    courseId: uuid('course_id').notNull(),
    slideNumber: integer('slide_number'),
    questionNumber: integer('question_number'),
    questionText: text('question_text'),
    answerChoice: text('answer_choice'),
    correct: boolean('correct'),
    correctAnswer: text('correct_answer'),
    pointsAssigned: doublePrecision('points_assigned'),
    ...timestamps(),
  },
  (table) => [
    primaryKey({ name: 'course_run_questions_pk', columns: [table.organizationId, table.id] }),
    foreignKey({
      name: 'course_run_questions_question_fk',
      columns: [table.organizationId, table.courseId, table.questionId],
      foreignColumns: [questions.organizationId, questions.courseId, questions.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'course_run_questions_learner_fk',
      columns: [table.organizationId, table.learnerId],
      foreignColumns: [learners.organizationId, learners.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'course_run_questions_course_run_fk',
      columns: [table.organizationId, table.courseRunId],
      foreignColumns: [courseRuns.organizationId, courseRuns.id],
    }).onDelete('cascade'),
    // A question's answers in time order; the trailing columns make its
    // reports (totals, leaders, answers over time, custom report items)
    // index-only scans instead of a heap visit per answer.
    index('course_run_questions_question_idx').on(
      table.organizationId,
      table.questionId,
      table.createdAt,
      table.learnerId,
      table.correct,
      table.pointsAssigned,
    ),
    index('course_run_questions_learner_idx').on(table.organizationId, table.learnerId, table.createdAt),
    index('course_run_questions_course_idx').on(table.organizationId, table.courseId, table.createdAt),
    index('course_run_questions_course_run_idx').on(table.organizationId, table.courseRunId),
    // An organization's answers in a period with who gave them (the
    // analytics overview, the dashboard under analytics settings): an
    // index-only range scan instead of one per course.
    index('course_run_questions_org_created_idx').on(
      table.organizationId,
      table.createdAt,
      table.learnerId,
      table.courseId,
      table.correct,
    ),
    // Each learner's last answer to each question of a course, streamed in
    // order (heatmaps, item analysis) instead of sorting every answer.
    index('course_run_questions_course_last_idx').on(
      table.organizationId,
      table.courseId,
      table.questionId,
      table.learnerId,
      table.createdAt.desc(),
      table.id.desc(),
      table.correct,
    ),
  ],
);

/**
 * Each learner's answers per course and UTC hour: how many, how many graded
 * and how many right. The analytics overview reads its active learners and
 * answers per local day from it instead of every answer of the period (in
 * a time zone a whole number of hours off UTC an hour falls in one local
 * day). Kept by statement triggers on the answers in the writing
 * transaction (migration 0023); a row belongs to one learner, so batches of
 * different learners never wait on one another.
 */
export const learnerAnswerHours = pgTable(
  'learner_answer_hours',
  {
    organizationId: tenantOrganizationId(),
    hour: timestamptz('hour').notNull(),
    learnerId: uuid('learner_id').notNull(),
    courseId: uuid('course_id').notNull(),
    answers: integer('answers').notNull().default(0),
    graded: integer('graded').notNull().default(0),
    correct: integer('correct').notNull().default(0),
  },
  (table) => [
    primaryKey({
      name: 'learner_answer_hours_pk',
      columns: [table.organizationId, table.hour, table.learnerId, table.courseId],
    }),
    foreignKey({
      name: 'learner_answer_hours_course_fk',
      columns: [table.organizationId, table.courseId],
      foreignColumns: [courses.organizationId, courses.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'learner_answer_hours_learner_fk',
      columns: [table.organizationId, table.learnerId],
      foreignColumns: [learners.organizationId, learners.id],
    }).onDelete('cascade'),
  ],
);

/**
 * Each run's answer sheet: the last answer to each question the run
 * answered (by time, then id, as item analysis counts a question answered
 * twice), its mark (points, else 1 for right and 0 for wrong) and whether
 * it was graded, in question-id order, with the run's total. Question
 * analysis reads one row per run instead of sorting every answer of a
 * course by run to find the last ones and add them up. Kept by statement
 * triggers on the answers in the writing transaction (migration 0024): an
 * insert merges its answers into the sheet (newest wins, whatever order
 * concurrent batches commit in); a delete or update rebuilds the sheets of
 * its runs from the answers that remain.
 */
export const runAnswerSheets = pgTable(
  'run_answer_sheets',
  {
    organizationId: tenantOrganizationId(),
    courseRunId: uuid('course_run_id').notNull(),
    courseId: uuid('course_id').notNull(),
    questionIds: uuid('question_ids').array().notNull(),
    /** The answer row kept for each question, and when it was written: what a later answer is compared with. */
    answerIds: uuid('answer_ids').array().notNull(),
    answeredAt: timestamptz('answered_at').array().notNull(),
    marks: doublePrecision('marks').array().notNull(),
    answers: text('answers').array().notNull(),
    graded: boolean('graded').array().notNull(),
    total: doublePrecision('total').notNull(),
  },
  (table) => [
    primaryKey({ name: 'run_answer_sheets_pk', columns: [table.organizationId, table.courseRunId] }),
    foreignKey({
      name: 'run_answer_sheets_course_run_fk',
      columns: [table.organizationId, table.courseRunId],
      foreignColumns: [courseRuns.organizationId, courseRuns.id],
    }).onDelete('cascade'),
    // A course's sheets, for its item analysis.
    index('run_answer_sheets_course_idx').on(table.organizationId, table.courseId),
  ],
);

export type Question = typeof questions.$inferSelect;
export type NewQuestion = typeof questions.$inferInsert;
export type CourseRunQuestion = typeof courseRunQuestions.$inferSelect;
export type NewCourseRunQuestion = typeof courseRunQuestions.$inferInsert;
