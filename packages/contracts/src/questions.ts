import { z } from 'zod';
import { uuidSchema } from './ids';
import { LEARNING_MESSAGES } from './courses';

import { listQuerySchema, paginatedSchema, queryBoolean } from './list';
import { courseSubPageHeadingSchema } from './variables';

/**
 * Questions: the quiz questions of the organization,
 * or of one course, with their answer totals aggregated in SQL. Only active
 * questions are listed (spec section 4); `?active=false` lists the hidden
 * ones so a question turned off can be turned on again.
 */

export const QUESTION_MESSAGES = {
  courseIdInvalid: 'Course must be a course id',
  nothingToUpdate: 'Send active to update the question',
} as const;

const withoutPaging = { page: true, pageSize: true } as const;

export const QUESTION_SORT_KEYS = [
  'course',
  'slide',
  'interactionId',
  'text',
  'totalResponses',
  'correctResponses',
  'uniqueLearners',
  'correctRate',
  'createdAt',
] as const;
export type QuestionSortKey = (typeof QUESTION_SORT_KEYS)[number];
export const QUESTION_DEFAULT_SORT = { sort: 'course', order: 'asc' } as const;
/** A course's questions read best in the course's own order. */
export const COURSE_QUESTION_DEFAULT_SORT = { sort: 'slide', order: 'asc' } as const;

const activeFilter = queryBoolean.default(true);

/**
 * `GET /api/questions`: `?q=` matches the question text or the interaction id
 * anywhere, ignoring case; `courseId` narrows to one course; `active`
 * (default true) picks the listed or the hidden questions.
 */
export const listQuestionsQuery = listQuerySchema(QUESTION_SORT_KEYS, QUESTION_DEFAULT_SORT).extend({
  courseId: uuidSchema(QUESTION_MESSAGES.courseIdInvalid).optional(),
  active: activeFilter,
});
export type ListQuestionsQuery = z.infer<typeof listQuestionsQuery>;
export const exportQuestionsQuery = listQuestionsQuery.omit(withoutPaging);

/** `GET /api/courses/:courseId/questions`. */
export const listCourseQuestionsQuery = listQuerySchema(
  QUESTION_SORT_KEYS,
  COURSE_QUESTION_DEFAULT_SORT,
).extend({ active: activeFilter });
export type ListCourseQuestionsQuery = z.infer<typeof listCourseQuestionsQuery>;
export const exportCourseQuestionsQuery = listCourseQuestionsQuery.omit(withoutPaging);

export const questionListItemSchema = z.object({
  id: z.string(),
  courseId: z.string(),
  courseTitle: z.string(),
  interactionId: z.string(),
  slideNumber: z.number().int().nullable(),
  questionNumber: z.number().int().nullable(),
  questionText: z.string().nullable(),
  correctAnswer: z.string().nullable(),
  active: z.boolean(),
  totalResponses: z.number().int().nonnegative(),
  correctResponses: z.number().int().nonnegative(),
  uniqueLearnersCount: z.number().int().nonnegative(),
  /** correctResponses / totalResponses, from 0 to 1; null before the first answer. */
  correctRate: z.number().min(0).max(1).nullable(),
  createdAt: z.string(),
});
export type QuestionListItem = z.infer<typeof questionListItemSchema>;

/** Totals over every question the filters match (not only the page). */
export const questionTotalsSchema = z.object({
  questions: z.number().int().nonnegative(),
  totalResponses: z.number().int().nonnegative(),
  correctResponses: z.number().int().nonnegative(),
  /**
   * Mean of the questions' unique learners. (Distinct learners across all
   * the matched questions would mean reading every learner-question pair on
   * each request: over a second at 100 000 learners.)
   */
  averageLearnersPerQuestion: z.number().nonnegative(),
  correctRate: z.number().min(0).max(1).nullable(),
});
export type QuestionTotals = z.infer<typeof questionTotalsSchema>;

export const listQuestionsResponse = paginatedSchema(questionListItemSchema).extend({
  totals: questionTotalsSchema,
});
export type ListQuestionsResponse = z.infer<typeof listQuestionsResponse>;

export const listCourseQuestionsResponse = listQuestionsResponse.extend({
  course: courseSubPageHeadingSchema,
});
export type ListCourseQuestionsResponse = z.infer<typeof listCourseQuestionsResponse>;

/** `GET /api/questions/courses`: the courses that have questions (the course filter's choices). */
export const questionCourseOptionSchema = z.object({
  id: z.string(),
  courseTitle: z.string(),
  questions: z.number().int().nonnegative(),
});
export type QuestionCourseOption = z.infer<typeof questionCourseOptionSchema>;
export const listQuestionCoursesResponse = z.object({ courses: z.array(questionCourseOptionSchema) });
export type ListQuestionCoursesResponse = z.infer<typeof listQuestionCoursesResponse>;

export const questionParams = z.object({ questionId: uuidSchema(LEARNING_MESSAGES.questionNotFound) });
export const questionCourseParams = z.object({ courseId: uuidSchema(LEARNING_MESSAGES.courseNotFound) });

/**
 * `PATCH /api/questions/:questionId`: the active flag only. The text, numbers
 * and correct answer come from the course (ingestion), so they are not edited.
 */
export const updateQuestionInput = z
  .object({ active: z.boolean({ error: 'Active must be true or false' }).optional() })
  .strict()
  .refine((input) => input.active !== undefined, { error: QUESTION_MESSAGES.nothingToUpdate });
export type UpdateQuestionInput = z.input<typeof updateQuestionInput>;

export const questionSchema = z.object({
  id: z.string(),
  courseId: z.string(),
  interactionId: z.string(),
  slideNumber: z.number().int().nullable(),
  questionNumber: z.number().int().nullable(),
  questionText: z.string().nullable(),
  active: z.boolean(),
  updatedAt: z.string(),
});
export type QuestionBody = z.infer<typeof questionSchema>;
