import { z } from 'zod';
import { analyticsBasisSchema, ITEM_ANALYSIS_ATTEMPTS } from './analytics';
import { LEARNING_MESSAGES } from './courses';
import { uuidSchema } from './ids';
import { VARIABLE_REPORT_MESSAGES } from './variable-reports';

/**
 * Question analysis: a course's questions read as one quiz, with Moodle's
 * quiz statistics (mod/quiz/report/statistics, question/classes/statistics).
 * Every figure Moodle shows as a percentage is a plain fraction here
 * (facility 0..1, discrimination −1..1, Cronbach's alpha ≤ 1); the screen
 * formats them. Marks (mean, median, standard deviation and standard error
 * of the quiz) are in marks, beside the quiz's maximum.
 */

/**
 * Thresholds of the flags. Facility bands follow Moodle's documentation of
 * the facility index (below 20 % "difficult" or worse, 90 % and above "very
 * easy"); discrimination follows Ebel's rule of thumb that Moodle's help
 * repeats (below 0.20 the question separates stronger from weaker learners
 * too little to be worth its place; below 0 it separates them the wrong
 * way). Below `minAttemptsForFlags` attempts a correlation is mostly noise,
 * so no question is flagged.
 */
export const ITEM_ANALYSIS_THRESHOLDS = {
  tooEasyFacility: 0.9,
  tooHardFacility: 0.2,
  weakDiscrimination: 0.2,
  minAttemptsForFlags: 10,
} as const;

/** Most answer options listed per question (a free-text question can have thousands); the rest are summed up. */
export const MAX_ANSWER_OPTIONS = 20;

export const QUESTION_FLAG_KINDS = [
  'answer_key',
  'negative_discrimination',
  'weak_discrimination',
  'too_hard',
  'too_easy',
] as const;
export type QuestionFlagKind = (typeof QUESTION_FLAG_KINDS)[number];

export const QUESTION_FLAG_LABELS: Record<QuestionFlagKind, string> = {
  answer_key: 'Answer key may be wrong',
  negative_discrimination: 'Negative discrimination',
  weak_discrimination: 'Weak discrimination',
  too_hard: 'Too hard',
  too_easy: 'Too easy',
};

export const questionFlagSchema = z.object({
  kind: z.enum(QUESTION_FLAG_KINDS),
  /** Why, in words with the figures, as a sentence without its final full stop (a caller may append to it). */
  reason: z.string(),
});
export type QuestionFlag = z.infer<typeof questionFlagSchema>;

export const answerOptionSchema = z.object({
  /** The answer as the course sent it (null: sent without its text, or not answered). */
  answer: z.string().nullable(),
  /** False for the one option that stands for the analysed attempts that did not answer the question (mark 0). */
  isAnswered: z.boolean(),
  /** Whether the course marked it right (its mean mark is at least half the question's); null when never graded. */
  isCorrect: z.boolean().nullable(),
  count: z.number().int(),
  /** Of the analysed attempts, 0..1. */
  share: z.number(),
  /** Correlation of choosing this option with the rest of the attempt's score (−1..1); null when undefined. */
  pointBiserial: z.number().nullable(),
});
export type AnswerOption = z.infer<typeof answerOptionSchema>;

export const RANDOM_GUESS_BASES = ['true_false', 'choices_seen'] as const;
export type RandomGuessBasis = (typeof RANDOM_GUESS_BASES)[number];

export const questionStatisticsSchema = z.object({
  questionId: z.string(),
  interactionId: z.string(),
  slideNumber: z.number().int().nullable(),
  questionNumber: z.number().int().nullable(),
  text: z.string().nullable(),
  correctAnswer: z.string().nullable(),
  /** Analysed attempts (every one counts; an unanswered question scores 0). */
  attempts: z.number().int(),
  /** Of those, the attempts that answered it. */
  answered: z.number().int(),
  maxMark: z.number(),
  meanMark: z.number().nullable(),
  /** Mean mark over the maximum, 0..1. */
  facility: z.number().nullable(),
  /** Standard deviation of the mark (n − 1) over the maximum mark, as Moodle shows it. */
  standardDeviation: z.number().nullable(),
  /** The facility a learner guessing at random would reach, 0..1; null when the question type cannot be inferred. */
  randomGuessScore: z.number().nullable(),
  randomGuessBasis: z.enum(RANDOM_GUESS_BASES).nullable(),
  /** The question's maximum over the quiz's, 0..1. */
  intendedWeight: z.number().nullable(),
  /** Its share of the spread of totals (√covariance with the total over the sum of those), 0..1. */
  effectiveWeight: z.number().nullable(),
  /** Correlation of the mark with the rest of the attempt (total minus this question), −1..1. */
  discriminationIndex: z.number().nullable(),
  /** Discrimination over the highest it could reach with these marks, as a coefficient. */
  discriminativeEfficiency: z.number().nullable(),
  flags: z.array(questionFlagSchema),
  /** Why a figure is missing or how it was inferred, for the screen. */
  notes: z.array(z.string()),
  options: z.array(answerOptionSchema),
  /** Distinct answers left out of `options` (beyond the most frequent) and how many attempts gave them. */
  otherOptions: z.object({ distinct: z.number().int(), count: z.number().int() }),
});
export type QuestionStatistics = z.infer<typeof questionStatisticsSchema>;

export const quizStatisticsSchema = z.object({
  attempts: z.number().int(),
  /** Questions analysed (answered in at least one analysed attempt). */
  questions: z.number().int(),
  /** The most an attempt can score: the questions' maximum marks summed. */
  maxTotal: z.number(),
  mean: z.number().nullable(),
  median: z.number().nullable(),
  /** Of the totals, n − 1. */
  standardDeviation: z.number().nullable(),
  skewness: z.number().nullable(),
  /** Excess kurtosis (0 for a normal distribution). */
  kurtosis: z.number().nullable(),
  /** Coefficient of internal consistency (Cronbach's alpha; KR-20 for right/wrong questions), at most 1. */
  cronbachAlpha: z.number().nullable(),
  /** √(1 − alpha): the share of the spread that is random error. */
  errorRatio: z.number().nullable(),
  /** Standard error of measurement, in marks: error ratio × standard deviation. */
  standardError: z.number().nullable(),
  /** Why a figure is missing, for the screen. */
  notes: z.array(z.string()),
});
export type QuizStatistics = z.infer<typeof quizStatisticsSchema>;

export const questionAnalysisBasisSchema = analyticsBasisSchema.extend({
  itemAnalysisAttempts: z.enum(ITEM_ANALYSIS_ATTEMPTS),
  /** Learners whose attempts were analysed. */
  learners: z.number().int(),
  /** Finished runs (in the period) without a single answer: not quiz attempts, left out. */
  runsWithoutAnswers: z.number().int(),
  /** Questions hidden on the Questions page, left out of the quiz. */
  hiddenQuestions: z.number().int(),
  from: z.string().nullable(),
  to: z.string().nullable(),
});
export type QuestionAnalysisBasis = z.infer<typeof questionAnalysisBasisSchema>;

export const questionAnalysisResponse = z.object({
  course: z.object({ id: z.string(), title: z.string() }),
  quiz: quizStatisticsSchema,
  /** In slide and question order. */
  questions: z.array(questionStatisticsSchema),
  basis: questionAnalysisBasisSchema,
});
export type QuestionAnalysisResponse = z.infer<typeof questionAnalysisResponse>;

const isoDay = z.iso.date({ error: 'Dates are YYYY-MM-DD' });

/** `GET /api/analytics/questions`: the course, and an optional period of run starts (local days, inclusive). */
export const questionAnalysisQuery = z
  .object({
    courseId: uuidSchema(LEARNING_MESSAGES.courseNotFound),
    from: isoDay.optional(),
    to: isoDay.optional(),
  })
  .refine((query) => !query.from || !query.to || query.from <= query.to, {
    error: VARIABLE_REPORT_MESSAGES.dateRangeReversed,
    path: ['to'],
  });
export type QuestionAnalysisQuery = z.infer<typeof questionAnalysisQuery>;

/** `GET /api/analytics/questions/courses`: the picker's courses, and the one to open first. */
export const questionAnalysisCoursesResponse = z.object({
  courses: z.array(
    z.object({
      id: z.string(),
      title: z.string(),
      /** Questions of the course (not hidden). */
      questions: z.number().int(),
      hasAnswers: z.boolean(),
    }),
  ),
  /** The first course (by title) with answers; null when none has any. */
  defaultCourseId: z.string().nullable(),
});
export type QuestionAnalysisCoursesResponse = z.infer<typeof questionAnalysisCoursesResponse>;
