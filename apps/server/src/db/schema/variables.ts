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
  uuid,
} from 'drizzle-orm/pg-core';
import { isOneOf, tenantId, timestamps, timestamptz } from './columns';
import { courseRuns, courses } from './courses';
import { learners } from './learners';
import { organizationId, tenantOrganizationId } from './organizations';

export const VARIABLE_DATA_TYPES = ['number', 'text', 'boolean', 'date'] as const;
export type VariableDataType = (typeof VARIABLE_DATA_TYPES)[number];

/** A named value a course reports about a learner (e.g. `final_score`). */
export const variables = pgTable(
  'variables',
  {
    id: tenantId(),
    organizationId: organizationId(),
    courseId: uuid('course_id').notNull(),
    name: text('name').notNull(),
    title: text('title'),
    description: text('description'),
    dataType: text('data_type').$type<VariableDataType>().notNull().default('text'),
    active: boolean('active').notNull().default(true),
    ...timestamps(),
  },
  (table) => [
    primaryKey({ name: 'variables_pk', columns: [table.organizationId, table.id] }),
    foreignKey({
      name: 'variables_course_fk',
      columns: [table.organizationId, table.courseId],
      foreignColumns: [courses.organizationId, courses.id],
    }).onDelete('cascade'),
    check('variables_data_type_check', isOneOf(table.dataType, VARIABLE_DATA_TYPES)),
    unique('variables_org_course_name_unique').on(table.organizationId, table.courseId, table.name),
    // Target of the values' composite key: a value's course is its variable's course.
    unique('variables_org_course_id_unique').on(table.organizationId, table.courseId, table.id),
    index('variables_org_name_idx').on(table.organizationId, table.name),
  ],
);

/**
 * Typed value columns shared by course and chatbot variable values: `value`
 * keeps the text as received; the typed column matching the variable's
 * `data_type` is filled too, so SQL aggregates without casting.
 */
export const typedValueColumns = () => ({
  value: text('value'),
  valueNumber: doublePrecision('value_number'),
  valueBoolean: boolean('value_boolean'),
  valueDate: timestamptz('value_date'),
});

export type TypedValue = {
  value: string | null;
  valueNumber: number | null;
  valueBoolean: boolean | null;
  valueDate: Date | null;
};

const TRUE_WORDS = new Set(['true', '1', 'yes', 'y', 'on', 'passed', 'pass']);
const FALSE_WORDS = new Set(['false', '0', 'no', 'n', 'off', 'failed', 'fail']);

/**
 * Fills the typed value columns for a variable of `dataType` from a raw value
 * (as ingested): `value` keeps the text (ISO 8601 for dates); the typed column
 * is null when the raw value does not parse as that type.
 */
export function toTypedValue(
  dataType: VariableDataType,
  raw: string | number | boolean | Date | null | undefined,
): TypedValue {
  const empty: TypedValue = { value: null, valueNumber: null, valueBoolean: null, valueDate: null };
  if (raw === null || raw === undefined) return empty;
  const text = raw instanceof Date ? raw.toISOString() : String(raw);
  const typed: TypedValue = { ...empty, value: text };
  switch (dataType) {
    case 'number': {
      const number = typeof raw === 'number' ? raw : text.trim() === '' ? Number.NaN : Number(text);
      if (Number.isFinite(number)) typed.valueNumber = number;
      return typed;
    }
    case 'boolean': {
      const word = text.trim().toLowerCase();
      if (typeof raw === 'boolean') typed.valueBoolean = raw;
      else if (TRUE_WORDS.has(word)) typed.valueBoolean = true;
      else if (FALSE_WORDS.has(word)) typed.valueBoolean = false;
      return typed;
    }
    case 'date': {
      const date = raw instanceof Date ? raw : typeof raw === 'boolean' ? null : new Date(raw);
      if (date && !Number.isNaN(date.getTime())) {
        typed.valueDate = date;
        typed.value = date.toISOString();
      }
      return typed;
    }
    case 'text':
      return typed;
  }
}

/** Every value a learner's course reported for a variable (history: the latest wins). */
export const learnerVariableValues = pgTable(
  'learner_variable_values',
  {
    id: tenantId(),
    organizationId: tenantOrganizationId(),
    variableId: uuid('variable_id').notNull(),
    learnerId: uuid('learner_id').notNull(),
    /** Denormalized from the variable (the foreign key keeps them equal): course filters need no join. */
    courseId: uuid('course_id').notNull(),
    courseRunId: uuid('course_run_id'),
    ...typedValueColumns(),
    recordedAt: timestamptz('recorded_at').notNull().defaultNow(),
    ...timestamps(),
  },
  (table) => [
    primaryKey({ name: 'learner_variable_values_pk', columns: [table.organizationId, table.id] }),
    foreignKey({
      name: 'learner_variable_values_variable_fk',
      columns: [table.organizationId, table.courseId, table.variableId],
      foreignColumns: [variables.organizationId, variables.courseId, variables.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'learner_variable_values_learner_fk',
      columns: [table.organizationId, table.learnerId],
      foreignColumns: [learners.organizationId, learners.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'learner_variable_values_course_run_fk',
      columns: [table.organizationId, table.courseRunId],
      foreignColumns: [courseRuns.organizationId, courseRuns.id],
    }).onDelete('cascade'),
    // Latest value per learner: distinct on (learner_id) ... order by recorded_at desc.
    index('learner_variable_values_latest_idx').on(
      table.organizationId,
      table.variableId,
      table.learnerId,
      table.recordedAt.desc().nullsFirst(),
    ),
    // Trend over time and date-range filters of one variable.
    index('learner_variable_values_variable_time_idx').on(
      table.organizationId,
      table.variableId,
      table.recordedAt,
    ),
    // A learner's variables, optionally within one course (and learner deletion).
    index('learner_variable_values_learner_idx').on(table.organizationId, table.learnerId, table.courseId),
    // A course's values: last activity per course, course deletion, course variable lists.
    index('learner_variable_values_org_course_recorded_idx').on(
      table.organizationId,
      table.courseId,
      table.recordedAt,
    ),
    // Deleting runs (course deletion) finds their values.
    index('learner_variable_values_course_run_idx').on(table.organizationId, table.courseRunId),
  ],
);

/**
 * Maps a variable name sent by a course onto another (destination) variable of
 * the organization, so courses with different naming feed one variable.
 */
export const courseVariableMappings = pgTable(
  'course_variable_mappings',
  {
    id: tenantId(),
    organizationId: organizationId(),
    courseId: uuid('course_id').notNull(),
    sourceVariableName: text('source_variable_name').notNull(),
    destinationVariableId: uuid('destination_variable_id').notNull(),
    ...timestamps(),
  },
  (table) => [
    primaryKey({ name: 'course_variable_mappings_pk', columns: [table.organizationId, table.id] }),
    foreignKey({
      name: 'course_variable_mappings_course_fk',
      columns: [table.organizationId, table.courseId],
      foreignColumns: [courses.organizationId, courses.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'course_variable_mappings_destination_fk',
      columns: [table.organizationId, table.destinationVariableId],
      foreignColumns: [variables.organizationId, variables.id],
    }).onDelete('cascade'),
    unique('course_variable_mappings_source_unique').on(
      table.organizationId,
      table.courseId,
      table.sourceVariableName,
    ),
    index('course_variable_mappings_destination_idx').on(table.organizationId, table.destinationVariableId),
  ],
);

export type Variable = typeof variables.$inferSelect;
export type NewVariable = typeof variables.$inferInsert;
export type LearnerVariableValue = typeof learnerVariableValues.$inferSelect;
export type NewLearnerVariableValue = typeof learnerVariableValues.$inferInsert;
export type CourseVariableMapping = typeof courseVariableMappings.$inferSelect;
export type NewCourseVariableMapping = typeof courseVariableMappings.$inferInsert;
