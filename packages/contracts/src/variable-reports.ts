import { z } from 'zod';
import { uuidSchema } from './ids';
import { LEARNING_MESSAGES } from './courses';

import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, paginatedSchema, sortOrderSchema } from './list';
import { METRIC_DEFINITIONS } from './report-model';
import { variableDataTypeSchema } from './variables';

/**
 * Variable reports: one variable seen three ways. The
 * report lists every learner's latest value with summary statistics, the
 * chart its distribution and trend, the leaders the learners ranked by it.
 * The source is every variable of that name in the organization's live
 * courses (`/api/variable-reports/...?name=`), or one course's variable
 * (`/api/courses/:courseId/variables/:variableName/...`).
 */

export const VARIABLE_REPORT_MESSAGES = {
  nameRequired: 'Name the variable (?name=)',
  courseIdInvalid: 'Course must be a course id',
  dateInvalid: 'Dates must be written YYYY-MM-DD',
  dateRangeReversed: 'The start date must be on or before the end date',
  valueRangeReversed: 'The minimum value must not be greater than the maximum',
  numberInvalid: 'Minimum and maximum must be numbers',
  learnerIdInvalid: 'Learner must be a learner id',
  /** Leaders rank numbers and dates; a text or true/false value has no order worth a ranking. */
  notRankable: (dataType: string) =>
    `Leaders rank number and date variables; this is a ${dataType} variable. Use the chart to compare its values.`,
  limitInvalid: `Top must be a whole number from 1 to 100`,
} as const;

export const MAX_LEADERS = 100;
export const DEFAULT_LEADERS = 10;

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const day = z
  .string()
  .regex(DAY, VARIABLE_REPORT_MESSAGES.dateInvalid)
  .refine((value) => !Number.isNaN(Date.parse(`${value}T00:00:00Z`)), VARIABLE_REPORT_MESSAGES.dateInvalid)
  .optional();
const finite = z.coerce
  .number({ error: VARIABLE_REPORT_MESSAGES.numberInvalid })
  .refine(Number.isFinite, VARIABLE_REPORT_MESSAGES.numberInvalid)
  .optional();

/** `?name=` of the organization-wide source (and its optional course filter). */
export const variableSourceQuery = z.object({
  name: z
    .string({ error: VARIABLE_REPORT_MESSAGES.nameRequired })
    .trim()
    .min(1, VARIABLE_REPORT_MESSAGES.nameRequired)
    .max(200, 'Variable names are at most 200 characters long'),
  courseId: uuidSchema(VARIABLE_REPORT_MESSAGES.courseIdInvalid).optional(),
  /**
   * Whose variable: a course variable (the default) or the variable an agent
   * captures (`chatbot`), where `courseId` names the agent.
   */
  source: z.enum(['course', 'chatbot'], { error: "source must be 'course' or 'chatbot'" }).default('course'),
});

export const courseVariableParams = z.object({
  courseId: uuidSchema(LEARNING_MESSAGES.courseNotFound),
  variableName: z.string().min(1).max(200),
});
export type CourseVariableParams = z.infer<typeof courseVariableParams>;

/**
 * Filters every view shares: recorded from/to (UTC days, inclusive), and on
 * the value by data type: `min`/`max` for numbers, `contains` for text,
 * `value=true|false` for booleans. A filter that does not fit the type is ignored.
 */
export const variableFilterShape = {
  from: day,
  to: day,
  min: finite,
  max: finite,
  contains: z.string().trim().max(200, 'Search must be at most 200 characters long').optional(),
  value: z.enum(['true', 'false'], { error: 'Value must be true or false' }).optional(),
};

type RangeFields = {
  from?: string | undefined;
  to?: string | undefined;
  min?: number | undefined;
  max?: number | undefined;
};

/** A reversed date or value range is a mistake worth saying, not an empty answer. */
export function checkReportRanges(query: RangeFields, context: z.core.$RefinementCtx<RangeFields>): void {
  if (query.from && query.to && query.from > query.to) {
    context.addIssue({ code: 'custom', message: VARIABLE_REPORT_MESSAGES.dateRangeReversed, path: ['to'] });
  }
  if (query.min !== undefined && query.max !== undefined && query.min > query.max) {
    context.addIssue({ code: 'custom', message: VARIABLE_REPORT_MESSAGES.valueRangeReversed, path: ['max'] });
  }
}

export const VARIABLE_REPORT_SORT_KEYS = ['learner', 'value', 'recordedAt', 'course'] as const;
export type VariableReportSortKey = (typeof VARIABLE_REPORT_SORT_KEYS)[number];

export const reportSearchShape = {
  q: z.string().trim().max(200, 'Search must be at most 200 characters long').optional(),
  sort: z
    .enum(VARIABLE_REPORT_SORT_KEYS, {
      error: `Sort must be one of: ${VARIABLE_REPORT_SORT_KEYS.join(', ')}`,
    })
    .default('recordedAt'),
  order: sortOrderSchema.default('desc'),
};
export const reportPagingShape = {
  page: z.coerce
    .number({ error: 'Page must be a whole number of 1 or more' })
    .int('Page must be a whole number of 1 or more')
    .min(1, 'Page must be a whole number of 1 or more')
    .max(1_000_000, 'Page must be at most 1000000')
    .default(1),
  pageSize: z.coerce
    .number({ error: `Page size must be a whole number from 1 to ${MAX_PAGE_SIZE}` })
    .int(`Page size must be a whole number from 1 to ${MAX_PAGE_SIZE}`)
    .min(1, `Page size must be a whole number from 1 to ${MAX_PAGE_SIZE}`)
    .max(MAX_PAGE_SIZE, `Page size must be a whole number from 1 to ${MAX_PAGE_SIZE}`)
    .default(DEFAULT_PAGE_SIZE),
};
export const reportIntervalShape = {
  interval: z.enum(['day', 'week'], { error: 'Interval must be day or week' }).optional(),
};
const leadersLimit = z.coerce
  .number({ error: VARIABLE_REPORT_MESSAGES.limitInvalid })
  .int(VARIABLE_REPORT_MESSAGES.limitInvalid)
  .min(1, VARIABLE_REPORT_MESSAGES.limitInvalid)
  .max(MAX_LEADERS, VARIABLE_REPORT_MESSAGES.limitInvalid)
  .default(DEFAULT_LEADERS);
export const leadersShape = { order: sortOrderSchema.default('desc'), limit: leadersLimit };
const source = variableSourceQuery.shape;

/** Report of one course's variable (`courseId` comes from the path). */
export const courseVariableReportQuery = z
  .object({ ...variableFilterShape, ...reportSearchShape, ...reportPagingShape })
  .superRefine(checkReportRanges);
export type CourseVariableReportQuery = z.infer<typeof courseVariableReportQuery>;
export const variableReportQuery = z
  .object({ ...source, ...variableFilterShape, ...reportSearchShape, ...reportPagingShape })
  .superRefine(checkReportRanges);
export type VariableReportQuery = z.infer<typeof variableReportQuery>;

/** CSV export: the report's filters, search and sort, every page. */
export const courseVariableExportQuery = z
  .object({ ...variableFilterShape, ...reportSearchShape })
  .superRefine(checkReportRanges);
export const variableExportQuery = z
  .object({ ...source, ...variableFilterShape, ...reportSearchShape })
  .superRefine(checkReportRanges);

export const courseVariableChartQuery = z
  .object({ ...variableFilterShape, ...reportIntervalShape })
  .superRefine(checkReportRanges);
export type CourseVariableChartQuery = z.infer<typeof courseVariableChartQuery>;
export const variableChartQuery = z
  .object({ ...source, ...variableFilterShape, ...reportIntervalShape })
  .superRefine(checkReportRanges);

export const courseVariableLeadersQuery = z
  .object({ ...variableFilterShape, ...leadersShape })
  .superRefine(checkReportRanges);
export type CourseVariableLeadersQuery = z.infer<typeof courseVariableLeadersQuery>;
export const variableLeadersQuery = z
  .object({ ...source, ...variableFilterShape, ...leadersShape })
  .superRefine(checkReportRanges);

/** The filters as the server reads them. */
export type VariableReportFilters = {
  from?: string | undefined;
  to?: string | undefined;
  min?: number | undefined;
  max?: number | undefined;
  contains?: string | undefined;
  value?: 'true' | 'false' | undefined;
};

export const courseVariableHistoryQuery = z.object({
  learnerId: uuidSchema(VARIABLE_REPORT_MESSAGES.learnerIdInvalid),
});
export const variableHistoryQuery = variableSourceQuery.extend({
  learnerId: uuidSchema(VARIABLE_REPORT_MESSAGES.learnerIdInvalid),
});

// ---- answers -----------------------------------------------------------------

/** The variable a report is about: its name, type and the courses that send it. */
export const variableReportSubjectSchema = z.object({
  name: z.string(),
  title: z.string().nullable(),
  dataType: variableDataTypeSchema,
  /** Set for one course's variable. */
  courseId: z.string().nullable(),
  courses: z.array(z.object({ id: z.string(), courseTitle: z.string(), variableId: z.string() })),
});
export type VariableReportSubject = z.infer<typeof variableReportSubjectSchema>;

export const variableReportRowSchema = z.object({
  learnerId: z.string(),
  learnerName: z.string().nullable(),
  /** Absent from shared (public) answers. */
  learnerEmail: z.string().optional(),
  courseId: z.string(),
  courseTitle: z.string(),
  variableId: z.string(),
  /** The value as received (ISO 8601 for dates). */
  value: z.string().nullable(),
  valueNumber: z.number().nullable(),
  valueBoolean: z.boolean().nullable(),
  valueDate: z.string().nullable(),
  recordedAt: z.string(),
});
export type VariableReportRow = z.infer<typeof variableReportRowSchema>;

/**
 * What the counts of a variable's statistics mean, sent with them so every
 * screen shows the same words beside the same numbers (the words of
 * `METRIC_DEFINITIONS`, which custom reports show too).
 */
export const VARIABLE_COUNT_DEFINITIONS = {
  learners: METRIC_DEFINITIONS.learners,
  values: METRIC_DEFINITIONS.values,
} as const;

export const variableCountDefinitionsSchema = z.object({ learners: z.string(), values: z.string() });
export type VariableCountDefinitions = z.infer<typeof variableCountDefinitionsSchema>;

/**
 * Statistics over the filtered latest values (one per learner and course).
 * `learners` counts people once, `values` their latest values per course
 * (a learner in two courses with the variable has two); the other fields
 * are filled for the variable's data type only.
 */
export const variableSummarySchema = z.object({
  dataType: variableDataTypeSchema,
  /** Different learners with a value, each counted once. */
  learners: z.number().int().nonnegative(),
  /** Latest values, one per learner and course (what mean, median and the histogram read). */
  values: z.number().int().nonnegative(),
  /** The same number as `values` (kept for screens written before `values`). */
  count: z.number().int().nonnegative(),
  definitions: variableCountDefinitionsSchema,
  distinct: z.number().int().nonnegative(),
  mean: z.number().nullable(),
  median: z.number().nullable(),
  min: z.number().nullable(),
  max: z.number().nullable(),
  /** The sample standard deviation; null below two numbers. */
  stddev: z.number().nullable(),
  topValues: z.array(z.object({ value: z.string(), count: z.number().int().nonnegative() })),
  trueCount: z.number().int().nonnegative().nullable(),
  falseCount: z.number().int().nonnegative().nullable(),
  trueRate: z.number().min(0).max(1).nullable(),
  earliest: z.string().nullable(),
  latest: z.string().nullable(),
});
export type VariableSummary = z.infer<typeof variableSummarySchema>;

export const variableReportResponse = paginatedSchema(variableReportRowSchema).extend({
  variable: variableReportSubjectSchema,
  summary: variableSummarySchema,
});
export type VariableReportResponse = z.infer<typeof variableReportResponse>;

export const variableHistoryResponse = z.object({
  learnerId: z.string(),
  items: z.array(
    z.object({
      courseId: z.string(),
      courseTitle: z.string(),
      value: z.string().nullable(),
      recordedAt: z.string(),
    }),
  ),
});
export type VariableHistoryResponse = z.infer<typeof variableHistoryResponse>;

/**
 * A histogram bin with "nice" edges (`niceBins`): from `from` (inclusive) to
 * `to` (exclusive; the last bin holds its upper edge). `label` is how every
 * screen names it (`binLabel`), the chart, its table and the AI summary alike.
 */
export const histogramBinSchema = z.object({
  from: z.number(),
  to: z.number(),
  label: z.string(),
  count: z.number().int(),
});
export type HistogramBin = z.infer<typeof histogramBinSchema>;
export const categoryCountSchema = z.object({ label: z.string(), count: z.number().int() });

export const variableDistributionSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('histogram'), bins: z.array(histogramBinSchema) }),
  /** Text (top 10 + "Other"), booleans (True/False/Unset) and dates (by month, YYYY-MM). */
  z.object({ kind: z.literal('categories'), items: z.array(categoryCountSchema) }),
]);
export type VariableDistribution = z.infer<typeof variableDistributionSchema>;

export const trendPointSchema = z.object({
  /** First day of the bucket, YYYY-MM-DD (UTC; weeks start on Monday). */
  date: z.string(),
  count: z.number().int().nonnegative(),
  /** Numbers only. */
  mean: z.number().nullable(),
  /** The bucket has not ended yet (today, this week): its count is not comparable with the others. */
  isPartial: z.boolean(),
});
export type TrendPointData = z.infer<typeof trendPointSchema>;

export const variableChartResponse = z.object({
  variable: variableReportSubjectSchema,
  distribution: variableDistributionSchema,
  trend: z.object({ interval: z.enum(['day', 'week']), points: z.array(trendPointSchema) }),
});
export type VariableChartResponse = z.infer<typeof variableChartResponse>;

export const leaderRowSchema = z.object({
  rank: z.number().int().positive(),
  learnerId: z.string(),
  /** The learner's name, never an e-mail address ("Unnamed learner" when there is none to show). */
  learnerName: z.string().nullable(),
  courseTitle: z.string(),
  value: z.string().nullable(),
  valueNumber: z.number().nullable(),
  recordedAt: z.string(),
});
export type LeaderRow = z.infer<typeof leaderRowSchema>;

/** What a leaderboard of a variable ranks, shown with it. */
export const VARIABLE_LEADERS_DEFINITION =
  'Each learner once, by their latest value; a learner with the variable in several courses is placed by the value that ranks them first.';

export const variableLeadersResponse = z.object({
  variable: variableReportSubjectSchema,
  order: sortOrderSchema,
  limit: z.number().int(),
  /** What the ranking counts (`VARIABLE_LEADERS_DEFINITION`). */
  definition: z.string(),
  items: z.array(leaderRowSchema),
});
export type VariableLeadersResponse = z.infer<typeof variableLeadersResponse>;
