import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  unique,
  uuid,
} from 'drizzle-orm/pg-core';
import { authUsers } from './auth';
import { isOneOf, tenantId, timestamps } from './columns';
import { courses } from './courses';
import { organizationId } from './organizations';
import { questions } from './questions';
import { variables } from './variables';

export const CUSTOM_REPORT_TYPES = ['table', 'bar', 'line', 'pie', 'leaderboard', 'comparison'] as const;
export type CustomReportType = (typeof CUSTOM_REPORT_TYPES)[number];

/** How a report item is broken down. */
export const COMPARISON_TYPES = ['by_learner', 'by_course', 'over_time'] as const;
export type ComparisonType = (typeof COMPARISON_TYPES)[number];

/**
 * A saved report. It is readable without sign-in only while `is_public` and
 * through `public_share_token` (at least 128 random bits; rotating replaces it).
 */
export const customReports = pgTable(
  'custom_reports',
  {
    id: tenantId(),
    organizationId: organizationId(),
    name: text('name').notNull(),
    description: text('description'),
    reportType: text('report_type').$type<CustomReportType>().notNull().default('table'),
    /** Builder settings (filters, date range, chart options). */
    config: jsonb('config').$type<Record<string, unknown>>().notNull().default({}),
    isPublic: boolean('is_public').notNull().default(false),
    publicShareToken: text('public_share_token'),
    /** Visits of the public link. */
    viewCount: integer('view_count').notNull().default(0),
    createdBy: uuid('created_by').references(() => authUsers.id, { onDelete: 'set null' }),
    ...timestamps(),
  },
  (table) => [
    primaryKey({ name: 'custom_reports_pk', columns: [table.organizationId, table.id] }),
    // Unique within the organization (a distributed table's keys must hold
    // it); the token leads so that the public link, opened without an
    // organization, is found by this index.
    unique('custom_reports_public_share_token_unique').on(table.publicShareToken, table.organizationId),
    check('custom_reports_report_type_check', isOneOf(table.reportType, CUSTOM_REPORT_TYPES)),
    check('custom_reports_view_count_non_negative', sql`${table.viewCount} >= 0`),
    check(
      'custom_reports_public_has_token',
      sql`not ${table.isPublic} or ${table.publicShareToken} is not null`,
    ),
    index('custom_reports_org_created_idx').on(table.organizationId, table.createdAt.desc().nullsFirst()),
  ],
);

const reportItemColumns = () => ({
  displayOrder: integer('display_order').notNull().default(0),
  displayName: text('display_name'),
  comparisonType: text('comparison_type').$type<ComparisonType>().notNull().default('by_learner'),
});

export const customReportVariables = pgTable(
  'custom_report_variables',
  {
    id: tenantId(),
    organizationId: organizationId(),
    reportId: uuid('report_id').notNull(),
    variableId: uuid('variable_id').notNull(),
    ...reportItemColumns(),
    ...timestamps(),
  },
  (table) => [
    primaryKey({ name: 'custom_report_variables_pk', columns: [table.organizationId, table.id] }),
    foreignKey({
      name: 'custom_report_variables_report_fk',
      columns: [table.organizationId, table.reportId],
      foreignColumns: [customReports.organizationId, customReports.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'custom_report_variables_variable_fk',
      columns: [table.organizationId, table.variableId],
      foreignColumns: [variables.organizationId, variables.id],
    }).onDelete('cascade'),
    check('custom_report_variables_comparison_check', isOneOf(table.comparisonType, COMPARISON_TYPES)),
    unique('custom_report_variables_report_variable_unique').on(
      table.organizationId,
      table.reportId,
      table.variableId,
    ),
    index('custom_report_variables_org_variable_idx').on(table.organizationId, table.variableId),
  ],
);

export const customReportQuestions = pgTable(
  'custom_report_questions',
  {
    id: tenantId(),
    organizationId: organizationId(),
    reportId: uuid('report_id').notNull(),
    questionId: uuid('question_id').notNull(),
    ...reportItemColumns(),
    ...timestamps(),
  },
  (table) => [
    primaryKey({ name: 'custom_report_questions_pk', columns: [table.organizationId, table.id] }),
    foreignKey({
      name: 'custom_report_questions_report_fk',
      columns: [table.organizationId, table.reportId],
      foreignColumns: [customReports.organizationId, customReports.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'custom_report_questions_question_fk',
      columns: [table.organizationId, table.questionId],
      foreignColumns: [questions.organizationId, questions.id],
    }).onDelete('cascade'),
    check('custom_report_questions_comparison_check', isOneOf(table.comparisonType, COMPARISON_TYPES)),
    unique('custom_report_questions_report_question_unique').on(
      table.organizationId,
      table.reportId,
      table.questionId,
    ),
    index('custom_report_questions_org_question_idx').on(table.organizationId, table.questionId),
  ],
);

/**
 * A question chosen by what identifies it to people (course, slide, number,
 * text) rather than by id, so the report survives a course republish.
 */
export const customReportQuestionIdentifiers = pgTable(
  'custom_report_question_identifiers',
  {
    id: tenantId(),
    organizationId: organizationId(),
    reportId: uuid('report_id').notNull(),
    courseId: uuid('course_id').notNull(),
    slideNumber: integer('slide_number'),
    questionNumber: integer('question_number'),
    questionText: text('question_text'),
    ...reportItemColumns(),
    ...timestamps(),
  },
  (table) => [
    primaryKey({ name: 'custom_report_question_identifiers_pk', columns: [table.organizationId, table.id] }),
    foreignKey({
      name: 'custom_report_question_identifiers_report_fk',
      columns: [table.organizationId, table.reportId],
      foreignColumns: [customReports.organizationId, customReports.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'custom_report_question_identifiers_course_fk',
      columns: [table.organizationId, table.courseId],
      foreignColumns: [courses.organizationId, courses.id],
    }).onDelete('cascade'),
    check(
      'custom_report_question_identifiers_comparison_check',
      isOneOf(table.comparisonType, COMPARISON_TYPES),
    ),
    index('custom_report_question_identifiers_report_idx').on(table.reportId, table.displayOrder),
    index('custom_report_question_identifiers_org_course_idx').on(table.organizationId, table.courseId),
  ],
);

export type CustomReport = typeof customReports.$inferSelect;
export type NewCustomReport = typeof customReports.$inferInsert;
export type CustomReportVariable = typeof customReportVariables.$inferSelect;
export type NewCustomReportVariable = typeof customReportVariables.$inferInsert;
export type CustomReportQuestion = typeof customReportQuestions.$inferSelect;
export type NewCustomReportQuestion = typeof customReportQuestions.$inferInsert;
export type CustomReportQuestionIdentifier = typeof customReportQuestionIdentifiers.$inferSelect;
export type NewCustomReportQuestionIdentifier = typeof customReportQuestionIdentifiers.$inferInsert;
