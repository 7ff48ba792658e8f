import { z } from 'zod';
import { uuidSchema } from './ids';
import { LEARNING_MESSAGES } from './courses';

import { listQuerySchema, paginatedSchema } from './list';

/**
 * Learners: the organization's learner list and one
 * learner's courses, variables and answers. Every list pages, searches and
 * sorts on the server and exports as CSV with the same filters.
 */

/** Instants are ISO 8601 strings in UTC. */
const isoDateTime = z.string();

/** The variable data types (the same list as the server schema's). */
const learnerVariableDataTypes = ['number', 'text', 'boolean', 'date'] as const;

/** An `/export` takes a list's filters and sort without its paging. */
const withoutPaging = { page: true, pageSize: true } as const;

// ---- /api/learners ----------------------------------------------------------

export const LEARNER_SORT_KEYS = ['name', 'email', 'courses', 'lastActivity', 'createdAt'] as const;
export type LearnerSortKey = (typeof LEARNER_SORT_KEYS)[number];
export const LEARNER_DEFAULT_SORT = { sort: 'lastActivity', order: 'desc' } as const;

/** `?q=` matches the start of the name or of the e-mail, ignoring case. */
export const listLearnersQuery = listQuerySchema(LEARNER_SORT_KEYS, LEARNER_DEFAULT_SORT);
export type ListLearnersQuery = z.infer<typeof listLearnersQuery>;
export const exportLearnersQuery = listLearnersQuery.omit(withoutPaging);

export const learnerListItemSchema = z.object({
  id: z.string(),
  name: z.string().nullable(),
  email: z.string(),
  /** Distinct (not deleted) courses the learner has runs in. */
  courses: z.number().int().nonnegative(),
  lastActivityAt: isoDateTime.nullable(),
  createdAt: isoDateTime,
});
export type LearnerListItem = z.infer<typeof learnerListItemSchema>;
export const listLearnersResponse = paginatedSchema(learnerListItemSchema);
export type ListLearnersResponse = z.infer<typeof listLearnersResponse>;

// ---- /api/learners/:learnerId ------------------------------------------------

export const learnerParams = z.object({ learnerId: uuidSchema(LEARNING_MESSAGES.learnerNotFound) });
export const learnerCourseParams = z.object({
  learnerId: uuidSchema(LEARNING_MESSAGES.learnerNotFound),
  courseId: uuidSchema(LEARNING_MESSAGES.courseNotFound),
});

export const learnerTotalsSchema = z.object({
  courses: z.number().int().nonnegative(),
  completedCourses: z.number().int().nonnegative(),
  runs: z.number().int().nonnegative(),
  variables: z.number().int().nonnegative(),
  responses: z.number().int().nonnegative(),
  correctResponses: z.number().int().nonnegative(),
  points: z.number(),
});
export type LearnerTotals = z.infer<typeof learnerTotalsSchema>;

export const learnerProfileSchema = z.object({
  id: z.string(),
  name: z.string().nullable(),
  email: z.string(),
  createdAt: isoDateTime,
  lastActivityAt: isoDateTime.nullable(),
  totals: learnerTotalsSchema,
});
export type LearnerProfile = z.infer<typeof learnerProfileSchema>;

// ---- /api/learners/:learnerId/courses ----------------------------------------

export const LEARNER_COURSE_SORT_KEYS = ['course', 'runs', 'firstAccess', 'lastAccess', 'completed'] as const;
export type LearnerCourseSortKey = (typeof LEARNER_COURSE_SORT_KEYS)[number];
export const LEARNER_COURSE_DEFAULT_SORT = { sort: 'lastAccess', order: 'desc' } as const;

/** `?q=` matches the course title or external id anywhere, ignoring case. */
export const listLearnerCoursesQuery = listQuerySchema(LEARNER_COURSE_SORT_KEYS, LEARNER_COURSE_DEFAULT_SORT);
export type ListLearnerCoursesQuery = z.infer<typeof listLearnerCoursesQuery>;
export const exportLearnerCoursesQuery = listLearnerCoursesQuery.omit(withoutPaging);

export const learnerCourseSchema = z.object({
  courseId: z.string(),
  courseTitle: z.string(),
  externalCourseId: z.string().nullable(),
  runs: z.number().int().nonnegative(),
  firstAccessAt: isoDateTime,
  lastAccessAt: isoDateTime,
  /** A run of this course was completed. */
  completed: z.boolean(),
  /** The latest completion, when there is one. */
  completedAt: isoDateTime.nullable(),
});
export type LearnerCourse = z.infer<typeof learnerCourseSchema>;
export const listLearnerCoursesResponse = paginatedSchema(learnerCourseSchema);
export type ListLearnerCoursesResponse = z.infer<typeof listLearnerCoursesResponse>;

// ---- /api/learners/:learnerId/variables (and per course) ---------------------

export const LEARNER_VARIABLE_SORT_KEYS = ['name', 'course', 'dataType', 'recordedAt'] as const;
export type LearnerVariableSortKey = (typeof LEARNER_VARIABLE_SORT_KEYS)[number];
export const LEARNER_VARIABLE_DEFAULT_SORT = { sort: 'name', order: 'asc' } as const;

/** `?q=` matches the variable's name or title anywhere, ignoring case. */
export const listLearnerVariablesQuery = listQuerySchema(
  LEARNER_VARIABLE_SORT_KEYS,
  LEARNER_VARIABLE_DEFAULT_SORT,
);
export type ListLearnerVariablesQuery = z.infer<typeof listLearnerVariablesQuery>;
export const exportLearnerVariablesQuery = listLearnerVariablesQuery.omit(withoutPaging);

/** The latest value the learner has for one variable. */
export const learnerVariableSchema = z.object({
  variableId: z.string(),
  name: z.string(),
  title: z.string().nullable(),
  courseId: z.string(),
  courseTitle: z.string(),
  dataType: z.enum(learnerVariableDataTypes),
  /** The value as received (ISO 8601 for dates); null when the course sent null. */
  value: z.string().nullable(),
  recordedAt: isoDateTime,
});
export type LearnerVariable = z.infer<typeof learnerVariableSchema>;
export const listLearnerVariablesResponse = paginatedSchema(learnerVariableSchema);
export type ListLearnerVariablesResponse = z.infer<typeof listLearnerVariablesResponse>;

/** `/learners/:learnerId/courses/:courseId/variables` also names the course. */
export const listLearnerCourseVariablesResponse = listLearnerVariablesResponse.extend({
  course: z.object({ id: z.string(), courseTitle: z.string(), externalCourseId: z.string().nullable() }),
});
export type ListLearnerCourseVariablesResponse = z.infer<typeof listLearnerCourseVariablesResponse>;

// ---- /api/learners/:learnerId/responses ---------------------------------------

export const LEARNER_RESPONSE_SORT_KEYS = ['answeredAt', 'question', 'course', 'points', 'correct'] as const;
export type LearnerResponseSortKey = (typeof LEARNER_RESPONSE_SORT_KEYS)[number];
export const LEARNER_RESPONSE_DEFAULT_SORT = { sort: 'answeredAt', order: 'desc' } as const;

/** `?q=` matches the question text or the answer anywhere, ignoring case. */
export const listLearnerResponsesQuery = listQuerySchema(
  LEARNER_RESPONSE_SORT_KEYS,
  LEARNER_RESPONSE_DEFAULT_SORT,
);
export type ListLearnerResponsesQuery = z.infer<typeof listLearnerResponsesQuery>;
export const exportLearnerResponsesQuery = listLearnerResponsesQuery.omit(withoutPaging);

export const learnerResponseSchema = z.object({
  id: z.string(),
  questionId: z.string(),
  questionText: z.string().nullable(),
  slideNumber: z.number().int().nullable(),
  questionNumber: z.number().int().nullable(),
  courseId: z.string(),
  courseTitle: z.string(),
  answer: z.string().nullable(),
  correct: z.boolean().nullable(),
  correctAnswer: z.string().nullable(),
  points: z.number().nullable(),
  answeredAt: isoDateTime,
});
export type LearnerResponse = z.infer<typeof learnerResponseSchema>;
export const listLearnerResponsesResponse = paginatedSchema(learnerResponseSchema);
export type ListLearnerResponsesResponse = z.infer<typeof listLearnerResponsesResponse>;
