import { z } from 'zod';
import { uuidSchema } from './ids';
import { LEARNING_MESSAGES } from './courses';

import { paginatedSchema, sortOrderSchema } from './list';
import { METRIC_DEFINITIONS } from './report-model';
import {
  DEFAULT_LEADERS,
  MAX_LEADERS,
  VARIABLE_REPORT_MESSAGES,
  reportIntervalShape,
  reportPagingShape,
} from './variable-reports';

/**
 * Question reports: the answers to one question (report),
 * how they spread across the choices and how the correct rate moves (chart),
 * and the learners with the most points (leaders).
 */

export const QUESTION_REPORT_SORT_KEYS = ['answeredAt', 'learner', 'answer', 'correct', 'points'] as const;
export type QuestionReportSortKey = (typeof QUESTION_REPORT_SORT_KEYS)[number];

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const day = z
  .string()
  .regex(DAY, VARIABLE_REPORT_MESSAGES.dateInvalid)
  .refine((value) => !Number.isNaN(Date.parse(`${value}T00:00:00Z`)), VARIABLE_REPORT_MESSAGES.dateInvalid)
  .optional();

type DayRange = { from?: string | undefined; to?: string | undefined };
function checkDayRange(query: DayRange, context: z.core.$RefinementCtx<DayRange>): void {
  if (query.from && query.to && query.from > query.to) {
    context.addIssue({ code: 'custom', message: VARIABLE_REPORT_MESSAGES.dateRangeReversed, path: ['to'] });
  }
}

/** Answered from/to (UTC days, inclusive). */
export const questionRangeShape = { from: day, to: day };

export const questionReportShape = {
  ...questionRangeShape,
  /** `true` right, `false` wrong, `ungraded` answers without a verdict. */
  correct: z
    .enum(['true', 'false', 'ungraded'], { error: 'Correctness must be true, false or ungraded' })
    .optional(),
  q: z.string().trim().max(200, 'Search must be at most 200 characters long').optional(),
  sort: z
    .enum(QUESTION_REPORT_SORT_KEYS, {
      error: `Sort must be one of: ${QUESTION_REPORT_SORT_KEYS.join(', ')}`,
    })
    .default('answeredAt'),
  order: sortOrderSchema.default('desc'),
};

export const questionReportQuery = z
  .object({ ...questionReportShape, ...reportPagingShape })
  .superRefine(checkDayRange);
export type QuestionReportQuery = z.infer<typeof questionReportQuery>;
export const questionExportQuery = z.object(questionReportShape).superRefine(checkDayRange);
export const questionChartQuery = z
  .object({ ...questionRangeShape, ...reportIntervalShape })
  .superRefine(checkDayRange);
export type QuestionChartQuery = z.infer<typeof questionChartQuery>;
export const questionLeadersShape = {
  ...questionRangeShape,
  limit: z.coerce
    .number({ error: VARIABLE_REPORT_MESSAGES.limitInvalid })
    .int(VARIABLE_REPORT_MESSAGES.limitInvalid)
    .min(1, VARIABLE_REPORT_MESSAGES.limitInvalid)
    .max(MAX_LEADERS, VARIABLE_REPORT_MESSAGES.limitInvalid)
    .default(DEFAULT_LEADERS),
};
export const questionLeadersQuery = z.object(questionLeadersShape).superRefine(checkDayRange);
export type QuestionLeadersQuery = z.infer<typeof questionLeadersQuery>;
export { checkDayRange as checkQuestionDayRange };

export const questionReportParams = z.object({ questionId: uuidSchema(LEARNING_MESSAGES.questionNotFound) });

export const questionReportSubjectSchema = z.object({
  id: z.string(),
  courseId: z.string(),
  courseTitle: z.string(),
  interactionId: z.string(),
  slideNumber: z.number().int().nullable(),
  questionNumber: z.number().int().nullable(),
  questionText: z.string().nullable(),
  correctAnswer: z.string().nullable(),
});
export type QuestionReportSubject = z.infer<typeof questionReportSubjectSchema>;

export const questionResponseRowSchema = z.object({
  id: z.string(),
  learnerId: z.string(),
  learnerName: z.string().nullable(),
  /** Absent from shared (public) answers. */
  learnerEmail: z.string().optional(),
  answer: z.string().nullable(),
  correct: z.boolean().nullable(),
  points: z.number().nullable(),
  answeredAt: z.string(),
});
export type QuestionResponseRow = z.infer<typeof questionResponseRowSchema>;

/**
 * What the counts of a question report mean, sent with them so every screen
 * shows the same words beside the same numbers (the words of
 * `METRIC_DEFINITIONS`, which custom reports show too).
 */
export const QUESTION_COUNT_DEFINITIONS = {
  responses: METRIC_DEFINITIONS.responses,
  learners: METRIC_DEFINITIONS.learners,
  correctRate: METRIC_DEFINITIONS.correct_rate,
  points: METRIC_DEFINITIONS.points,
} as const;

export const questionCountDefinitionsSchema = z.object({
  responses: z.string(),
  learners: z.string(),
  correctRate: z.string(),
  points: z.string(),
});
export type QuestionCountDefinitions = z.infer<typeof questionCountDefinitionsSchema>;

/** Totals over the date range, whatever the search or correctness filter. */
export const questionReportTotalsSchema = z.object({
  /** Every answer, retries included. */
  responses: z.number().int().nonnegative(),
  graded: z.number().int().nonnegative(),
  correct: z.number().int().nonnegative(),
  /** correct / graded, 0 to 1; null when nothing is graded. */
  correctRate: z.number().min(0).max(1).nullable(),
  /** Each learner's best points on the question, averaged over learners (retries do not add up); null without points. */
  points: z.number().nullable(),
  /** Different learners who answered, each counted once. */
  learners: z.number().int().nonnegative(),
  definitions: questionCountDefinitionsSchema,
});
export type QuestionReportTotals = z.infer<typeof questionReportTotalsSchema>;

export const questionReportResponse = paginatedSchema(questionResponseRowSchema).extend({
  question: questionReportSubjectSchema,
  totals: questionReportTotalsSchema,
});
export type QuestionReportResponse = z.infer<typeof questionReportResponse>;

export const questionChartResponse = z.object({
  question: questionReportSubjectSchema,
  choices: z.array(
    z.object({
      /** The answer as given; "(no answer)" for an empty one. */
      label: z.string(),
      count: z.number().int().nonnegative(),
      isCorrect: z.boolean(),
    }),
  ),
  trend: z.object({
    interval: z.enum(['day', 'week']),
    points: z.array(
      z.object({
        date: z.string(),
        responses: z.number().int().nonnegative(),
        correct: z.number().int().nonnegative(),
        correctRate: z.number().min(0).max(1).nullable(),
        /** The bucket has not ended yet (today, this week): its count is not comparable with the others. */
        isPartial: z.boolean(),
      }),
    ),
  }),
});
export type QuestionChartResponse = z.infer<typeof questionChartResponse>;

export const questionLeaderRowSchema = z.object({
  rank: z.number().int().positive(),
  learnerId: z.string(),
  /** The learner's name, never an e-mail address ("Unnamed learner" when there is none to show). */
  learnerName: z.string().nullable(),
  /** The learner's best points on the question (a retry replaces, never adds). */
  points: z.number(),
  /** Their answers, retries included, and how many were right. */
  responses: z.number().int().nonnegative(),
  correct: z.number().int().nonnegative(),
});
export type QuestionLeaderRow = z.infer<typeof questionLeaderRowSchema>;

/** What a question's leaderboard ranks, shown with it. */
export const QUESTION_LEADERS_DEFINITION =
  'Each learner once, by their best points on the question: a retry replaces a score, it never adds to it.';

export const questionLeadersResponse = z.object({
  question: questionReportSubjectSchema,
  limit: z.number().int(),
  /** What the ranking counts (`QUESTION_LEADERS_DEFINITION`). */
  definition: z.string(),
  items: z.array(questionLeaderRowSchema),
});
export type QuestionLeadersResponse = z.infer<typeof questionLeadersResponse>;
