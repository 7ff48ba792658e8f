import { z } from 'zod';
import { analyticsBasisSchema, analyticsPeriodQuery } from './analytics';
import { LEARNING_MESSAGES } from './courses';
import { uuidSchema } from './ids';
import { sortOrderSchema } from './list';

/**
 * Analytics heatmaps: a course's questions by slide coloured by correct
 * rate, its learners by question (who got what wrong), and activity by
 * weekday and hour in the organization's time zone.
 */

/** Learners per page of the learners × questions grid. */
export const HEATMAP_LEARNERS_PAGE_SIZE = 50;

/**
 * A question's correct rate is marked "too few responses" below this many
 * learners answering, whatever its interval says.
 */
export const HEATMAP_MIN_RESPONSES = 5;

/**
 * …or when its 95 % Wilson interval is wider than this (in rate, 0..1). The
 * colour scale has bands 20 points wide: an interval up to 30 points wide
 * touches at most two neighbouring bands, so the colour is right or one band
 * off; a wider one can span three bands and the colour says little. At a
 * 50 % rate this needs about 40 learners, at 90 % or above about 15.
 */
export const HEATMAP_MAX_INTERVAL_WIDTH = 0.3;

/** The confidence of the Wilson interval, and its z (two-sided 95 %). */
export const HEATMAP_CONFIDENCE = 0.95;
export const HEATMAP_Z = 1.959963984540054;

/** Correct-rate bands of the colour scale (lower bounds), low to high. */
export const CORRECT_RATE_BANDS = [0, 0.2, 0.4, 0.6, 0.8] as const;

/** Which band (0..4) a rate falls in; 1.0 is in the top band. */
export function correctRateBand(rate: number): number {
  const clamped = Math.min(1, Math.max(0, rate));
  return Math.min(CORRECT_RATE_BANDS.length - 1, Math.floor(clamped * CORRECT_RATE_BANDS.length + 1e-9));
}

export const HEATMAP_LEARNER_SORTS = ['name', 'wrong', 'score'] as const;
export type HeatmapLearnerSort = (typeof HEATMAP_LEARNER_SORTS)[number];

export const HEATMAP_MESSAGES = {
  invalidSort: `Sort by one of: ${HEATMAP_LEARNER_SORTS.join(', ')}`,
  invalidPage: 'Page is a whole number from 1',
} as const;

const courseId = uuidSchema(LEARNING_MESSAGES.courseNotFound);

export const heatmapQuestionsQuery = analyticsPeriodQuery.safeExtend({ courseId });
export type HeatmapQuestionsQuery = z.infer<typeof heatmapQuestionsQuery>;

export const heatmapLearnersQuery = analyticsPeriodQuery.safeExtend({
  courseId,
  sort: z.enum(HEATMAP_LEARNER_SORTS, { error: HEATMAP_MESSAGES.invalidSort }).default('wrong'),
  order: sortOrderSchema.optional(),
  page: z.coerce
    .number({ error: HEATMAP_MESSAGES.invalidPage })
    .int({ error: HEATMAP_MESSAGES.invalidPage })
    .min(1, { error: HEATMAP_MESSAGES.invalidPage })
    .max(100_000, { error: HEATMAP_MESSAGES.invalidPage })
    .default(1),
});
export type HeatmapLearnersQuery = z.infer<typeof heatmapLearnersQuery>;

/** The order a sort starts in when none is asked: names A to Z, most wrong first, lowest score first. */
export const HEATMAP_LEARNER_DEFAULT_ORDER: Record<HeatmapLearnerSort, 'asc' | 'desc'> = {
  name: 'asc',
  wrong: 'desc',
  score: 'asc',
};

export const heatmapActivityQuery = analyticsPeriodQuery.safeExtend({ courseId: courseId.optional() });
export type HeatmapActivityQuery = z.infer<typeof heatmapActivityQuery>;

const heatmapCourse = z.object({ id: z.string(), title: z.string() });

/** A question as a column of a grid. */
export const heatmapQuestionSchema = z.object({
  questionId: z.string(),
  interactionId: z.string(),
  /** The question's text, or its interaction id when it has none. */
  label: z.string(),
  slideNumber: z.number().int().nullable(),
  questionNumber: z.number().int().nullable(),
});
export type HeatmapQuestion = z.infer<typeof heatmapQuestionSchema>;

/** One question's cell of the slides × questions grid. */
export const heatmapQuestionCellSchema = heatmapQuestionSchema.extend({
  /** Its place on its slide (1 = the slide's first question), the grid's column. */
  position: z.number().int().positive(),
  /** Learners whose last answer in the period was graded (right or wrong). */
  learners: z.number().int(),
  correct: z.number().int(),
  /** Every answer in the period, retries and ungraded ones included. */
  responses: z.number().int(),
  /** `correct / learners`, null when no graded answer. */
  correctRate: z.number().nullable(),
  /** The 95 % Wilson interval of the rate. */
  low: z.number().nullable(),
  high: z.number().nullable(),
  /** Too few learners for the colour to be trusted (see HEATMAP_MIN_RESPONSES, HEATMAP_MAX_INTERVAL_WIDTH). */
  isTooFew: z.boolean(),
});
export type HeatmapQuestionCell = z.infer<typeof heatmapQuestionCellSchema>;

const thresholds = z.object({
  minResponses: z.number().int(),
  maxIntervalWidth: z.number(),
  confidence: z.number(),
});

export const heatmapQuestionsResponse = z.object({
  basis: analyticsBasisSchema,
  course: heatmapCourse,
  /** The grid's rows: slide numbers in order, null for questions with no slide. */
  slides: z.array(z.number().int().nullable()),
  /** The widest slide's question count: the grid's columns. */
  positions: z.number().int(),
  cells: z.array(heatmapQuestionCellSchema),
  thresholds,
});
export type HeatmapQuestionsResponse = z.infer<typeof heatmapQuestionsResponse>;

/** A learner's last answer to one question in the period. */
export const heatmapAnswerSchema = z.object({
  questionId: z.string(),
  /** null: answered but not graded. */
  correct: z.boolean().nullable(),
  answer: z.string().nullable(),
  answeredAt: z.string(),
});
export type HeatmapAnswer = z.infer<typeof heatmapAnswerSchema>;

export const heatmapLearnerRowSchema = z.object({
  learnerId: z.string(),
  name: z.string().nullable(),
  email: z.string(),
  answered: z.number().int(),
  correct: z.number().int(),
  wrong: z.number().int(),
  /** `correct / (correct + wrong)`, null when nothing graded. */
  score: z.number().nullable(),
  /** Only the questions the learner answered; the others are blank. */
  answers: z.array(heatmapAnswerSchema),
});
export type HeatmapLearnerRow = z.infer<typeof heatmapLearnerRowSchema>;

export const heatmapLearnersResponse = z.object({
  basis: analyticsBasisSchema,
  course: heatmapCourse,
  /** The grid's columns: every question answered in the period, by slide and number. */
  questions: z.array(heatmapQuestionSchema),
  items: z.array(heatmapLearnerRowSchema),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
  sort: z.enum(HEATMAP_LEARNER_SORTS),
  order: sortOrderSchema,
});
export type HeatmapLearnersResponse = z.infer<typeof heatmapLearnersResponse>;

/** ISO weekdays, Monday first, as the grid's rows. */
export const WEEKDAY_LABELS = [
  'Monday',
  'Tuesday',
  'Wednesday',
  'Thursday',
  'Friday',
  'Saturday',
  'Sunday',
] as const;

export const heatmapActivityCellSchema = z.object({
  /** 1 = Monday … 7 = Sunday (ISO). */
  weekday: z.number().int().min(1).max(7),
  /** 0..23, local hour. */
  hour: z.number().int().min(0).max(23),
  events: z.number().int(),
  learners: z.number().int(),
});
export type HeatmapActivityCell = z.infer<typeof heatmapActivityCellSchema>;

export const heatmapActivityResponse = z.object({
  basis: analyticsBasisSchema,
  /** null: the whole organization. */
  course: heatmapCourse.nullable(),
  /** Only the weekday × hour slots with activity; the others are 0. */
  cells: z.array(heatmapActivityCellSchema),
  totals: z.object({ events: z.number().int(), learners: z.number().int() }),
});
export type HeatmapActivityResponse = z.infer<typeof heatmapActivityResponse>;
