import {
  LEARNING_MESSAGES,
  VARIABLE_MESSAGES,
  type CourseSubPageHeading,
  type SortOrder,
  type VariableBody,
  type VariableCourseOption,
  type VariableListItem,
  type VariableSortKey,
} from '@courselens/contracts';
import type { Database } from '../../db/client';
import { AppError } from '../../errors';
import type { CsvColumn } from '../../lib/csv';
import {
  countVariables,
  findCourseHeading,
  selectCoursesWithVariables,
  selectVariableRows,
  updateVariableRow,
  type VariableFilters,
  type VariableRecord,
  type VariableRow,
} from './variables.queries';

export type VariableListInput = VariableFilters & {
  sort: VariableSortKey;
  order: SortOrder;
};

function toIso(value: Date | string | null): string | null {
  if (value === null) return null;
  return (value instanceof Date ? value : new Date(value)).toISOString();
}

function toListItem(row: VariableRow): VariableListItem {
  return {
    id: row.id,
    name: row.name,
    title: row.title,
    description: row.description,
    dataType: row.data_type,
    active: row.active,
    courseId: row.course_id,
    courseTitle: row.course_title,
    usageCount: Number(row.usage_count),
    learnerCount: Number(row.learner_count),
    lastRecordedAt: toIso(row.last_recorded_at),
    createdAt: toIso(row.created_at) ?? '',
  };
}

/** One page of the organization's variables (optionally of one course) with their usage. */
export async function listVariables(
  db: Database,
  input: VariableListInput & { page: number; pageSize: number },
): Promise<{ items: VariableListItem[]; total: number; page: number; pageSize: number }> {
  const [rows, total] = await Promise.all([
    selectVariableRows(db, input, input, {
      limit: input.pageSize,
      offset: (input.page - 1) * input.pageSize,
    }),
    countVariables(db, input),
  ]);
  return { items: rows.map(toListItem), total, page: input.page, pageSize: input.pageSize };
}

/** Every matching variable (up to `maxRows`), in the list's order, for a CSV export. */
export async function exportVariables(
  db: Database,
  input: VariableListInput,
  maxRows: number,
): Promise<VariableListItem[]> {
  const rows = await selectVariableRows(db, input, input, { limit: maxRows, offset: 0 });
  return rows.map(toListItem);
}

/** The course of a course sub-page; the tenant plugin already proved it is the organization's and live. */
export async function getCourseHeading(
  db: Database,
  organizationId: string,
  courseId: string,
): Promise<CourseSubPageHeading> {
  const course = await findCourseHeading(db, organizationId, courseId);
  if (!course) throw new AppError('NOT_FOUND', LEARNING_MESSAGES.courseNotFound);
  return course;
}

export async function listVariableCourses(
  db: Database,
  organizationId: string,
): Promise<VariableCourseOption[]> {
  const rows = await selectCoursesWithVariables(db, organizationId);
  return rows.map((row) => ({ id: row.id, courseTitle: row.course_title, variables: Number(row.variables) }));
}

function toBody(record: VariableRecord): VariableBody {
  return {
    id: record.id,
    name: record.name,
    title: record.title,
    description: record.description,
    dataType: record.dataType,
    active: record.active,
    courseId: record.courseId,
    updatedAt: record.updatedAt.toISOString(),
  };
}

/**
 * Turns a variable on or off and/or changes its description (spec sections
 * 4 and 7). The description is updated by id and name: `name` is the name
 * the person saw, and a variable renamed or replaced since answers 409 with
 * nothing changed. Logged in the activity feed when something changed.
 */
export async function updateVariable(
  db: Database,
  input: {
    organizationId: string;
    userId: string;
    variableId: string;
    name?: string | undefined;
    active?: boolean | undefined;
    description?: string | null | undefined;
  },
): Promise<VariableBody> {
  const changes: { active?: boolean; description?: string | null } = {};
  if (input.active !== undefined) changes.active = input.active;
  if (input.description !== undefined) changes.description = input.description;
  if (Object.keys(changes).length === 0) throw new AppError('BAD_REQUEST', VARIABLE_MESSAGES.nothingToUpdate);
  if (changes.description !== undefined && input.name === undefined) {
    throw new AppError('BAD_REQUEST', VARIABLE_MESSAGES.nameRequiredForDescription);
  }
  const outcome = await updateVariableRow(db, {
    organizationId: input.organizationId,
    variableId: input.variableId,
    expectedName: input.name,
    changes,
    activity: (previous, next) => {
      const parts: string[] = [];
      if (previous.active !== next.active) parts.push(next.active ? 'turned on' : 'turned off');
      if (previous.description !== next.description) {
        parts.push(next.description === null ? 'description cleared' : 'description changed');
      }
      if (parts.length === 0) return null;
      return {
        organizationId: input.organizationId,
        actorUserId: input.userId,
        kind: 'variable.updated',
        subjectType: 'variable',
        subjectId: next.id,
        summary: `Variable “${next.name}” ${parts.join(', ')}`,
        details: {
          courseId: next.courseId,
          ...(previous.active !== next.active ? { active: next.active } : {}),
          ...(previous.description !== next.description ? { description: next.description } : {}),
        },
      };
    },
  });
  if (outcome.status === 'not-found') throw new AppError('NOT_FOUND', LEARNING_MESSAGES.variableNotFound);
  if (outcome.status === 'name-changed') throw new AppError('CONFLICT', VARIABLE_MESSAGES.changedElsewhere);
  return toBody(outcome.variable);
}

/** The columns of a variables CSV export. */
export const variableCsvColumns: readonly CsvColumn<VariableListItem>[] = [
  { header: 'Name', value: (row) => row.name },
  { header: 'Title', value: (row) => row.title },
  { header: 'Course', value: (row) => row.courseTitle },
  { header: 'Data type', value: (row) => row.dataType },
  { header: 'Usage count', value: (row) => row.usageCount },
  { header: 'Learners', value: (row) => row.learnerCount },
  { header: 'Last recorded at', value: (row) => row.lastRecordedAt },
  { header: 'Active', value: (row) => (row.active ? 'yes' : 'no') },
  { header: 'Description', value: (row) => row.description },
  { header: 'Variable ID', value: (row) => row.id },
  { header: 'Course ID', value: (row) => row.courseId },
];
