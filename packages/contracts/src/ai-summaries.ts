import { z } from 'zod';
import { uuidSchema } from './ids';
import { LEARNING_MESSAGES } from './courses';
import { METRIC_DEFINITIONS } from './report-model';
import { histogramBinSchema } from './variable-reports';
import { variableDataTypeSchema } from './variables';

/**
 * AI summaries of a variable: a readable narrative written
 * from statistics computed in the database, by the built-in engine or by the
 * LLM engine when one is configured. One summary per source is cached and
 * can be regenerated.
 */

export const AI_SUMMARY_MESSAGES = {
  unknownVariableType: "Variable type must be 'course' or 'chatbot'",
  variableIdInvalid: 'Variable must be a variable id',
  /** The summary the LLM should have written, when it failed: the built-in engine answered instead. */
  llmFailedFellBack:
    'The language model could not be reached, so the built-in engine wrote this summary. Regenerate to try the model again.',
} as const;

/** The `:variableType` of `/variable/:variableId/:variableType/ai-summary`. */
export const AI_SUMMARY_VARIABLE_TYPES = ['course', 'chatbot'] as const;
export const aiSummaryVariableTypeSchema = z.enum(AI_SUMMARY_VARIABLE_TYPES);
export type AiSummaryVariableType = z.infer<typeof aiSummaryVariableTypeSchema>;

export const AI_SUMMARY_ENGINES = ['builtin', 'llm'] as const;
export const aiSummaryEngineSchema = z.enum(AI_SUMMARY_ENGINES);
export type AiSummaryEngine = z.infer<typeof aiSummaryEngineSchema>;

/** How many weeks the trend covers (the current week included). */
export const AI_SUMMARY_TREND_WEEKS = 12;
/** How many learners the top and bottom lists name. */
export const AI_SUMMARY_RANKED_LEARNERS = 3;
/** How many outliers are named (the count covers them all). */
export const AI_SUMMARY_NAMED_OUTLIERS = 3;

// ---- requests -------------------------------------------------------------------

/** `/api/ai-summaries/courses/:courseId/variables/:variableName`. */
export const courseVariableSummaryParams = z.object({
  courseId: uuidSchema(LEARNING_MESSAGES.courseNotFound),
  variableName: z.string().min(1, 'Variable name must not be empty').max(500),
});

/** `/api/ai-summaries/variables/:variableId` (a course variable by id). */
export const variableSummaryParams = z.object({ variableId: uuidSchema(LEARNING_MESSAGES.variableNotFound) });

/** `/api/ai-summaries/chatbot-variable?variableId=`: an agent's variable, by id. */
export const chatbotVariableSummaryQuery = z.object({
  variableId: uuidSchema(AI_SUMMARY_MESSAGES.variableIdInvalid),
});

// ---- statistics -----------------------------------------------------------------

/** What the summary is about (names only: never an e-mail address). */
export const aiSummarySubjectSchema = z.object({
  variableType: aiSummaryVariableTypeSchema,
  variableId: z.string(),
  variableName: z.string(),
  variableTitle: z.string().nullable(),
  description: z.string().nullable(),
  dataType: variableDataTypeSchema,
  courseId: z.string().nullable(),
  courseTitle: z.string().nullable(),
});
export type AiSummarySubject = z.infer<typeof aiSummarySubjectSchema>;

export const summaryNumericSchema = z.object({
  mean: z.number(),
  median: z.number(),
  standardDeviation: z.number(),
  min: z.number(),
  max: z.number(),
  q1: z.number(),
  q3: z.number(),
});
export type SummaryNumeric = z.infer<typeof summaryNumericSchema>;

/** The spread of the learners' latest values, by data type. */
export const summaryDistributionSchema = z.discriminatedUnion('kind', [
  /** The variable chart's bins (same edges, same labels), counting latest values. */
  z.object({ kind: z.literal('histogram'), bins: z.array(histogramBinSchema) }),
  z.object({
    kind: z.literal('top-values'),
    values: z.array(z.object({ value: z.string(), count: z.number().int(), share: z.number() })),
    /** Learners whose latest value is none of the listed ones. */
    otherCount: z.number().int(),
  }),
  z.object({
    kind: z.literal('boolean'),
    trueCount: z.number().int(),
    falseCount: z.number().int(),
    trueRate: z.number().nullable(),
  }),
  z.object({
    kind: z.literal('date-range'),
    earliest: z.string().nullable(),
    median: z.string().nullable(),
    latest: z.string().nullable(),
    spanDays: z.number().nullable(),
  }),
]);
export type SummaryDistribution = z.infer<typeof summaryDistributionSchema>;

export const SUMMARY_TREND_DIRECTIONS = ['up', 'down', 'flat', 'not-enough-data'] as const;
export type SummaryTrendDirection = (typeof SUMMARY_TREND_DIRECTIONS)[number];

/**
 * Values recorded per week (from the history), oldest first. `metric` says
 * what `direction` follows: the weekly mean (numbers), the weekly true rate
 * (booleans) or how many values came (text and dates).
 */
export const summaryTrendSchema = z.object({
  metric: z.enum(['mean', 'true-rate', 'values']),
  weeks: z.array(
    z.object({
      weekStart: z.string(),
      values: z.number().int(),
      mean: z.number().nullable(),
      /** The current week, not over yet: its count of values is left out of the direction. */
      isPartial: z.boolean(),
    }),
  ),
  direction: z.enum(SUMMARY_TREND_DIRECTIONS),
  /** The metric in the first and the last week that had values. */
  from: z.number().nullable(),
  to: z.number().nullable(),
});
export type SummaryTrend = z.infer<typeof summaryTrendSchema>;

export const summaryRankedLearnerSchema = z.object({ name: z.string(), value: z.string() });
export type SummaryRankedLearner = z.infer<typeof summaryRankedLearnerSchema>;

/** Latest values beyond 1.5 interquartile ranges from the quartiles (numbers only). */
export const summaryOutliersSchema = z.object({
  lowerFence: z.number(),
  upperFence: z.number(),
  count: z.number().int(),
  /** At most AI_SUMMARY_NAMED_OUTLIERS, the furthest out first. */
  learners: z.array(summaryRankedLearnerSchema),
});
export type SummaryOutliers = z.infer<typeof summaryOutliersSchema>;

/** The same variable name in the organization's other live courses. */
export const summaryCourseComparisonSchema = z.object({
  courseId: z.string(),
  courseTitle: z.string(),
  learners: z.number().int(),
  /** Mean of the latest values (numbers), or the true rate (booleans); null otherwise. */
  mean: z.number().nullable(),
});
export type SummaryCourseComparison = z.infer<typeof summaryCourseComparisonSchema>;

/**
 * What the summary's counts mean. `values` is the number a custom report
 * shows as Values for the same variable and period (each learner's latest
 * value per course); `recordedValues` counts every value ever recorded,
 * earlier ones included.
 */
export const AI_SUMMARY_COUNT_DEFINITIONS = {
  learners: METRIC_DEFINITIONS.learners,
  values: METRIC_DEFINITIONS.values,
  recordedValues: 'Values recorded: every value the course sent, a learner’s earlier values included.',
} as const;

export const aiSummaryCountDefinitionsSchema = z.object({
  learners: z.string(),
  values: z.string(),
  recordedValues: z.string(),
});

export const aiSummaryStatisticsSchema = z.object({
  subject: aiSummarySubjectSchema,
  /** Different learners with a value, each counted once. */
  learners: z.number().int(),
  /** Latest values, one per learner and course (as a custom report counts Values). */
  values: z.number().int(),
  /** Every value recorded (history), earlier values of a learner included. */
  recordedValues: z.number().int(),
  definitions: aiSummaryCountDefinitionsSchema,
  distinctValues: z.number().int(),
  firstRecordedAt: z.string().nullable(),
  lastRecordedAt: z.string().nullable(),
  numeric: summaryNumericSchema.nullable(),
  distribution: summaryDistributionSchema.nullable(),
  trend: summaryTrendSchema,
  outliers: summaryOutliersSchema.nullable(),
  /**
   * Highest latest values first (numbers; most recent for dates); empty for
   * text and booleans. Never the same learner in both lists: with fewer than
   * twice AI_SUMMARY_RANKED_LEARNERS learners, they are split between them.
   */
  topLearners: z.array(summaryRankedLearnerSchema),
  /** Lowest latest values first (earliest for dates). */
  bottomLearners: z.array(summaryRankedLearnerSchema),
  otherCourses: z.array(summaryCourseComparisonSchema),
  computedAt: z.string(),
});
export type AiSummaryStatistics = z.infer<typeof aiSummaryStatisticsSchema>;

// ---- response -------------------------------------------------------------------

export const variableAiSummarySchema = z.object({
  /** Plain paragraphs separated by blank lines; lines starting with "- " are bullets. */
  content: z.string(),
  engine: aiSummaryEngineSchema,
  /** The LLM's model name; null for the built-in engine. */
  model: z.string().nullable(),
  generatedAt: z.string(),
  /** Why the engine is not the configured one (the LLM failed), or null. */
  notice: z.string().nullable(),
  /** Values were recorded after the summary was written: regenerating would include them. */
  hasNewerData: z.boolean(),
  statistics: aiSummaryStatisticsSchema,
});
export type VariableAiSummary = z.infer<typeof variableAiSummarySchema>;
