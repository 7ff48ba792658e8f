import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  date,
  doublePrecision,
  foreignKey,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  uuid,
} from 'drizzle-orm/pg-core';
import { timestamptz } from './columns';
import { courses } from './courses';
import { organizationId, tenantOrganizationId } from './organizations';
import { questions } from './questions';
import { typedValueColumns, variables } from './variables';

// Rollups of the two largest tables (answers and variable values), kept by
// statement-level triggers on those tables (migration 0003_rollups.sql), so
// every way of writing them (ingestion, seeds, course deletion cascades)
// keeps the figures right in the same transaction. Lists, the dashboard and
// reports read these instead of counting millions of rows per request.
// Inserts add to the counters; deletes and updates recompute the affected
// questions or variables from the rows that remain (both rare).

/** Answers to one question per UTC day: how many, graded, right, points, and learners first seen that day. */
export const questionDailyStats = pgTable(
  'question_daily_stats',
  {
    organizationId: tenantOrganizationId(),
    courseId: uuid('course_id').notNull(),
    questionId: uuid('question_id').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    responses: integer('responses').notNull().default(0),
    graded: integer('graded').notNull().default(0),
    correct: integer('correct').notNull().default(0),
    points: doublePrecision('points').notNull().default(0),
    newLearners: integer('new_learners').notNull().default(0),
  },
  (table) => [
    primaryKey({
      name: 'question_daily_stats_pk',
      columns: [table.organizationId, table.questionId, table.day],
    }),
    foreignKey({
      name: 'question_daily_stats_question_fk',
      columns: [table.organizationId, table.courseId, table.questionId],
      foreignColumns: [questions.organizationId, questions.courseId, questions.id],
    }).onDelete('cascade'),
    // Dashboard periods: every question's answers in a range of days.
    index('question_daily_stats_org_day_idx').on(table.organizationId, table.day),
  ],
);

/**
 * Which learners answered a question (the distinct-learner counts), when
 * first, and their answers, graded and right answers, points and best
 * points on it (leaderboards, and report items per learner or by the value
 * of another variable, which need no answer one by one).
 */
export const questionLearners = pgTable(
  'question_learners',
  {
    organizationId: tenantOrganizationId(),
    courseId: uuid('course_id').notNull(),
    questionId: uuid('question_id').notNull(),
    learnerId: uuid('learner_id').notNull(),
    firstAnsweredAt: timestamptz('first_answered_at').notNull(),
    responses: integer('responses').notNull().default(0),
    graded: integer('graded').notNull().default(0),
    correct: integer('correct').notNull().default(0),
    points: doublePrecision('points').notNull().default(0),
    /** The learner's best points on the question (a retry replaces a score); null when no answer had points. */
    bestPoints: doublePrecision('best_points'),
    /**
     * The learner's last answer to the question (the newest by time, then
     * id): when, which, and whether it was right (null: ungraded). What the
     * heatmaps show over all time, where the answers themselves would have
     * to be read and sorted per learner.
     */
    lastAnsweredAt: timestamptz('last_answered_at'),
    lastAnswerId: uuid('last_answer_id'),
    lastCorrect: boolean('last_correct'),
  },
  (table) => [
    primaryKey({
      name: 'question_learners_pk',
      columns: [table.organizationId, table.questionId, table.learnerId],
    }),
    // No foreign key to learners on purpose: the trigger on answers removes
    // a pair when its last answer goes, and must still see the pair then.
    foreignKey({
      name: 'question_learners_question_fk',
      columns: [table.organizationId, table.courseId, table.questionId],
      foreignColumns: [questions.organizationId, questions.courseId, questions.id],
    }).onDelete('cascade'),
    // A question's learners with every column its reports and heatmaps
    // read (leaders, totals, report items per learner, last answers): read
    // from the index alone, not from rows spread over the whole table.
    index('question_learners_question_idx').on(
      table.organizationId,
      table.questionId,
      table.learnerId,
      table.bestPoints,
      table.responses,
      table.graded,
      table.correct,
      table.firstAnsweredAt,
      table.courseId,
      table.lastCorrect,
    ),
  ],
);

/**
 * Answers to one question per answer given (the empty answer as "(no
 * answer)"): how many, and how many were graded right (a question chart's
 * spread of answers). Keyed by the md5 of the answer, which may be long.
 */
export const questionAnswerStats = pgTable(
  'question_answer_stats',
  {
    organizationId: tenantOrganizationId(),
    courseId: uuid('course_id').notNull(),
    questionId: uuid('question_id').notNull(),
    answerKey: uuid('answer_key').notNull(),
    answer: text('answer').notNull(),
    responses: integer('responses').notNull().default(0),
    correct: integer('correct').notNull().default(0),
  },
  (table) => [
    primaryKey({
      name: 'question_answer_stats_pk',
      columns: [table.organizationId, table.questionId, table.answerKey],
    }),
    foreignKey({
      name: 'question_answer_stats_question_fk',
      columns: [table.organizationId, table.courseId, table.questionId],
      foreignColumns: [questions.organizationId, questions.courseId, questions.id],
    }).onDelete('cascade'),
  ],
);

/** A variable's usage: how many values, from how many learners, and the latest time. */
export const variableStats = pgTable(
  'variable_stats',
  {
    organizationId: tenantOrganizationId(),
    courseId: uuid('course_id').notNull(),
    variableId: uuid('variable_id').notNull(),
    usageCount: integer('usage_count').notNull().default(0),
    learnerCount: integer('learner_count').notNull().default(0),
    lastRecordedAt: timestamptz('last_recorded_at'),
  },
  (table) => [
    primaryKey({ name: 'variable_stats_pk', columns: [table.organizationId, table.variableId] }),
    foreignKey({
      name: 'variable_stats_variable_fk',
      columns: [table.organizationId, table.courseId, table.variableId],
      foreignColumns: [variables.organizationId, variables.courseId, variables.id],
    }).onDelete('cascade'),
  ],
);

/**
 * Values of one variable per UTC day: how many, how many are numbers and
 * their sum, smallest and largest, how many are true/false and how many
 * true. Trends of every value over time (charts) read these instead of the
 * values one by one; a condition on the values themselves still reads them.
 */
export const variableDailyStats = pgTable(
  'variable_daily_stats',
  {
    organizationId: tenantOrganizationId(),
    courseId: uuid('course_id').notNull(),
    variableId: uuid('variable_id').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    values: integer('values').notNull().default(0),
    numbers: integer('numbers').notNull().default(0),
    numberSum: doublePrecision('number_sum').notNull().default(0),
    numberMin: doublePrecision('number_min'),
    numberMax: doublePrecision('number_max'),
    booleans: integer('booleans').notNull().default(0),
    trues: integer('trues').notNull().default(0),
  },
  (table) => [
    primaryKey({
      name: 'variable_daily_stats_pk',
      columns: [table.organizationId, table.variableId, table.day],
    }),
    foreignKey({
      name: 'variable_daily_stats_variable_fk',
      columns: [table.organizationId, table.courseId, table.variableId],
      foreignColumns: [variables.organizationId, variables.courseId, variables.id],
    }).onDelete('cascade'),
  ],
);

/** Each learner's latest value of each variable (the row of learner_variable_values it copies). */
export const learnerVariableLatest = pgTable(
  'learner_variable_latest',
  {
    organizationId: tenantOrganizationId(),
    courseId: uuid('course_id').notNull(),
    variableId: uuid('variable_id').notNull(),
    learnerId: uuid('learner_id').notNull(),
    valueId: uuid('value_id').notNull(),
    ...typedValueColumns(),
    recordedAt: timestamptz('recorded_at').notNull(),
  },
  (table) => [
    primaryKey({
      name: 'learner_variable_latest_pk',
      columns: [table.organizationId, table.variableId, table.learnerId],
    }),
    foreignKey({
      name: 'learner_variable_latest_variable_fk',
      columns: [table.organizationId, table.courseId, table.variableId],
      foreignColumns: [variables.organizationId, variables.courseId, variables.id],
    }).onDelete('cascade'),
    // A learner's latest values (learner pages).
    index('learner_variable_latest_learner_idx').on(table.organizationId, table.learnerId),
    // A variable's report, newest first (its default order): a page is its
    // first entries, not a sort of every learner's value.
    index('learner_variable_latest_recent_idx').on(
      table.organizationId,
      table.variableId,
      // Nulls first, as `desc` sorts them, so `asc` reads it backwards too.
      table.recordedAt.desc().nullsFirst(),
      table.learnerId,
      table.courseId,
    ),
    // Leaderboards: the highest latest numbers of a variable first.
    index('learner_variable_latest_number_idx').on(
      table.variableId,
      table.valueNumber.desc().nullsLast(),
      table.recordedAt,
    ),
  ],
);

/** Course runs per course and UTC day (runs over time, top courses, views). */
export const courseDailyStats = pgTable(
  'course_daily_stats',
  {
    organizationId: tenantOrganizationId(),
    courseId: uuid('course_id').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    runs: integer('runs').notNull().default(0),
  },
  (table) => [
    primaryKey({ name: 'course_daily_stats_pk', columns: [table.organizationId, table.courseId, table.day] }),
    foreignKey({
      name: 'course_daily_stats_course_fk',
      columns: [table.organizationId, table.courseId],
      foreignColumns: [courses.organizationId, courses.id],
    }).onDelete('cascade'),
    index('course_daily_stats_org_day_idx').on(table.organizationId, table.day),
  ],
);

/**
 * Each learner of each course: first and last run and how many (the spec's
 * first_access, last_access, access_count), and what the runs add up to:
 * when first started, when last completed, whether the course reported a
 * pass (true if any run passed, false if runs only failed, null without an
 * outcome) and the best score, and which of its questions they answered. Learners active in a period that ends now
 * are those whose last run is inside it. Report items about courses read
 * one row per learner and course here instead of grouping the runs.
 */
export const courseLearners = pgTable(
  'course_learners',
  {
    organizationId: tenantOrganizationId(),
    courseId: uuid('course_id').notNull(),
    learnerId: uuid('learner_id').notNull(),
    firstRunAt: timestamptz('first_run_at').notNull(),
    lastRunAt: timestamptz('last_run_at').notNull(),
    runs: integer('runs').notNull().default(0),
    firstStartedAt: timestamptz('first_started_at'),
    lastCompletedAt: timestamptz('last_completed_at'),
    passed: boolean('passed'),
    bestScore: doublePrecision('best_score'),
    /**
     * The course's questions the learner answered (sorted): who answered any
     * of some questions of the course, each learner once, without reading
     * the answers (report items on every question of courses).
     */
    questionIds: uuid('question_ids')
      .array()
      .notNull()
      .default(sql`'{}'::uuid[]`),
  },
  (table) => [
    primaryKey({
      name: 'course_learners_pk',
      columns: [table.organizationId, table.courseId, table.learnerId],
    }),
    // No foreign key to learners: the trigger on runs removes a pair with its last run.
    foreignKey({
      name: 'course_learners_course_fk',
      columns: [table.organizationId, table.courseId],
      foreignColumns: [courses.organizationId, courses.id],
    }).onDelete('cascade'),
    // Learners of a course by last access, and "active since" counts per course.
    index('course_learners_course_last_idx').on(table.organizationId, table.courseId, table.lastRunAt),
    index('course_learners_org_last_idx').on(table.organizationId, table.lastRunAt),
    // Completions in a period (report items on courses).
    index('course_learners_org_completed_idx').on(table.organizationId, table.lastCompletedAt),
  ],
);

export type QuestionDailyStats = typeof questionDailyStats.$inferSelect;
export type VariableDailyStats = typeof variableDailyStats.$inferSelect;
export type VariableStats = typeof variableStats.$inferSelect;
export type LearnerVariableLatest = typeof learnerVariableLatest.$inferSelect;

/**
 * How many times each organization's report data has changed: the version
 * that report results are cached under (`modules/metrics/result-cache.ts`).
 * Statement triggers on every table the metrics layer reads (migration 0025)
 * add one per writing statement, on both engines and whoever writes (the
 * write path, the rollup folder, deletions, renames), in the writing
 * transaction. Each database backend counts on a row of its own, so
 * concurrent writers of one organization never wait on each other; the
 * version is the sum of an organization's rows, which only grows. The
 * hourly upkeep folds the rows of backends into `backend = 0`, keeping the
 * sum.
 */
export const reportDataVersions = pgTable(
  'report_data_versions',
  {
    organizationId: organizationId(),
    /** The writing backend's process id; 0 holds what the upkeep folded. */
    backend: integer('backend').notNull(),
    changes: bigint('changes', { mode: 'number' }).notNull().default(0),
  },
  (table) => [
    primaryKey({ name: 'report_data_versions_pk', columns: [table.organizationId, table.backend] }),
  ],
);
