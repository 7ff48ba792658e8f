import { z } from 'zod';
import { uuidSchema } from './ids';
import { LEARNING_MESSAGES } from './courses';

import { listQuerySchema, paginatedSchema, queryBoolean } from './list';

/**
 * Variables: every variable of the organization, or
 * of one course, with how much it is used; a variable's active flag and
 * description can be changed. Lists page, search and sort on the server and
 * export as CSV with the same filters.
 */

export const VARIABLE_MESSAGES = {
  /** A description update names the variable (spec section 7: "by id and name"); it was renamed or replaced. */
  changedElsewhere: 'The variable was changed elsewhere. Reload and try again.',
  nameRequiredForDescription: "Send the variable's current name with its new description",
  nothingToUpdate: 'Send active or description to update the variable',
  descriptionTooLong: 'Description must be at most 2000 characters long',
  courseIdInvalid: 'Course must be a course id',
} as const;

export const VARIABLE_TYPES = ['number', 'text', 'boolean', 'date'] as const;
export const variableDataTypeSchema = z.enum(VARIABLE_TYPES);
export type VariableDataType = z.infer<typeof variableDataTypeSchema>;

export const MAX_VARIABLE_DESCRIPTION_LENGTH = 2000;

/** An `/export` takes a list's filters and sort without its paging. */
const withoutPaging = { page: true, pageSize: true } as const;

const courseIdFilter = uuidSchema(VARIABLE_MESSAGES.courseIdInvalid).optional();

// ---- lists -------------------------------------------------------------------

export const VARIABLE_SORT_KEYS = [
  'name',
  'course',
  'dataType',
  'usageCount',
  'learnerCount',
  'lastRecordedAt',
  'active',
  'createdAt',
] as const;
export type VariableSortKey = (typeof VARIABLE_SORT_KEYS)[number];
export const VARIABLE_DEFAULT_SORT = { sort: 'name', order: 'asc' } as const;

/**
 * `GET /api/variables`: `?q=` matches the name or the title anywhere,
 * ignoring case; `courseId` and `active` narrow the list.
 */
export const listVariablesQuery = listQuerySchema(VARIABLE_SORT_KEYS, VARIABLE_DEFAULT_SORT).extend({
  courseId: courseIdFilter,
  active: queryBoolean.optional(),
});
export type ListVariablesQuery = z.infer<typeof listVariablesQuery>;
export const exportVariablesQuery = listVariablesQuery.omit(withoutPaging);

/** `GET /api/courses/:courseId/variables`: the same list for one course. */
export const listCourseVariablesQuery = listVariablesQuery.omit({ courseId: true });
export type ListCourseVariablesQuery = z.infer<typeof listCourseVariablesQuery>;
export const exportCourseVariablesQuery = listCourseVariablesQuery.omit(withoutPaging);

export const variableListItemSchema = z.object({
  id: z.string(),
  name: z.string(),
  title: z.string().nullable(),
  description: z.string().nullable(),
  dataType: variableDataTypeSchema,
  active: z.boolean(),
  courseId: z.string(),
  courseTitle: z.string(),
  /** The spec's usage_count: how many values courses have recorded for the variable. */
  usageCount: z.number().int().nonnegative(),
  /** How many distinct learners have a value. */
  learnerCount: z.number().int().nonnegative(),
  lastRecordedAt: z.string().nullable(),
  createdAt: z.string(),
});
export type VariableListItem = z.infer<typeof variableListItemSchema>;

export const listVariablesResponse = paginatedSchema(variableListItemSchema);
export type ListVariablesResponse = z.infer<typeof listVariablesResponse>;

/** The course a course sub-page is about (for its header). */
export const courseSubPageHeadingSchema = z.object({
  id: z.string(),
  courseTitle: z.string(),
  externalCourseId: z.string().nullable(),
  description: z.string().nullable(),
});
export type CourseSubPageHeading = z.infer<typeof courseSubPageHeadingSchema>;

export const listCourseVariablesResponse = listVariablesResponse.extend({
  course: courseSubPageHeadingSchema,
});
export type ListCourseVariablesResponse = z.infer<typeof listCourseVariablesResponse>;

/** `GET /api/variables/courses`: the courses that have variables (the course filter's choices). */
export const variableCourseOptionSchema = z.object({
  id: z.string(),
  courseTitle: z.string(),
  variables: z.number().int().nonnegative(),
});
export type VariableCourseOption = z.infer<typeof variableCourseOptionSchema>;
export const listVariableCoursesResponse = z.object({ courses: z.array(variableCourseOptionSchema) });
export type ListVariableCoursesResponse = z.infer<typeof listVariableCoursesResponse>;

// ---- update ------------------------------------------------------------------

export const variableParams = z.object({ variableId: uuidSchema(LEARNING_MESSAGES.variableNotFound) });
export const variableCourseParams = z.object({ courseId: uuidSchema(LEARNING_MESSAGES.courseNotFound) });

/**
 * `PATCH /api/variables/:variableId`. Mirrors the spec's updates (section 7):
 * the active flag by id; the description by id and name, so `name` (the name
 * the client saw) is required with a description, and a name that no longer
 * matches answers 409. An empty description clears it.
 */
export const updateVariableInput = z
  .object({
    name: z.string().min(1, 'Name must not be empty').max(500).optional(),
    active: z.boolean({ error: 'Active must be true or false' }).optional(),
    description: z
      .string({ error: 'Description must be text or null' })
      .trim()
      .max(MAX_VARIABLE_DESCRIPTION_LENGTH, VARIABLE_MESSAGES.descriptionTooLong)
      .nullable()
      .optional()
      .transform((value) => (value === '' ? null : value)),
  })
  .strict()
  .refine((input) => input.active !== undefined || input.description !== undefined, {
    error: VARIABLE_MESSAGES.nothingToUpdate,
  })
  .refine((input) => input.description === undefined || input.name !== undefined, {
    error: VARIABLE_MESSAGES.nameRequiredForDescription,
    path: ['name'],
  });
export type UpdateVariableInput = z.input<typeof updateVariableInput>;

export const variableSchema = z.object({
  id: z.string(),
  name: z.string(),
  title: z.string().nullable(),
  description: z.string().nullable(),
  dataType: variableDataTypeSchema,
  active: z.boolean(),
  courseId: z.string(),
  updatedAt: z.string(),
});
export type VariableBody = z.infer<typeof variableSchema>;
