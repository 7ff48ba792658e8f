import { z } from 'zod';
import { uuidSchema } from './ids';

/**
 * The report model: what a report item reads (its subject), the one number
 * it computes (a measure), how it groups (a breakdown), which data it keeps
 * (filters), and the order and number of groups it shows. Custom reports,
 * the builder's live preview and the generator all speak it; the server's
 * metrics layer runs it in SQL.
 *
 * Words have one meaning everywhere (`METRIC_DEFINITIONS`): a screen that
 * shows a count says which one it is.
 */

/** "a question", "an agent variable". */
function withArticle(noun: string): string {
  return `${/^[aeiou]/i.test(noun) ? 'An' : 'A'} ${noun}`;
}

export const REPORT_MODEL_MESSAGES = {
  subjectInvalid:
    'Choose what the report reads: a variable, an agent variable, a question, every question of some courses, or courses',
  measureInvalid: (subject: string, allowed: readonly string[]) =>
    `${withArticle(subject)} report can measure: ${allowed.map((fn) => MEASURE_LABELS[fn as MeasureFn]).join(', ')}`,
  breakdownInvalid: (subject: string, allowed: readonly string[]) =>
    `${withArticle(subject)} report can be broken down by: ${allowed.map((kind) => BREAKDOWN_LABELS[kind as BreakdownKind]).join(', ')}`,
  breakdownVariableRequired: 'Name the variable to break down by',
  markInvalid: 'The pass mark must be a number from -1000000000 to 1000000000',
  markRequired: 'A pass rate of a number variable needs a pass mark',
  coursesTooMany: 'A report item can name at most 50 courses',
  variablesTooMany: 'A report item can read at most 50 variables',
  variablesEmpty: 'Choose at least one variable',
  chatbotVariablesTooMany: 'A report item can read at most 50 agent variables',
  chatbotVariablesEmpty: 'Choose at least one agent variable',
  chatbotVariableIdInvalid: 'Agent variable must be an agent variable id',
  chatbotCourseFilter:
    'An agent variable item cannot be narrowed to courses: its values belong to agents, not courses',
  courseIdInvalid: 'Course must be a course id',
  variableIdInvalid: 'Variable must be a variable id',
  questionIdInvalid: 'Question must be a question id',
  variableNameInvalid: 'Variable names are 1 to 200 characters long',
  periodDaysInvalid: 'The period must be a whole number of days from 1 to 3660',
  periodDateInvalid: 'Dates must be written YYYY-MM-DD',
  periodReversed: 'The start date must be on or before the end date',
  valueConditionInvalid: 'A value condition needs an operator and a value',
  limitInvalid: 'Top N must be a whole number from 1 to 200',
  identifierIncomplete: 'A question chosen by identifier needs a slide number, a question number or its text',
  numberInvalid: 'Slide and question numbers must be whole numbers from 0 to 100000',
  questionTextTooLong: 'Question text must be at most 2000 characters long',
} as const;

// ---- subjects ------------------------------------------------------------------

export const SUBJECT_KINDS = [
  'variable',
  'chatbot_variable',
  'question',
  'identifier',
  'questions',
  'courses',
] as const;
export type SubjectKind = (typeof SUBJECT_KINDS)[number];

export const SUBJECT_LABELS: Record<SubjectKind, string> = {
  variable: 'variable',
  chatbot_variable: 'agent variable',
  question: 'question',
  identifier: 'question',
  questions: 'questions',
  courses: 'course',
};

const courseIdList = z
  .array(uuidSchema(REPORT_MODEL_MESSAGES.courseIdInvalid))
  .max(50, REPORT_MODEL_MESSAGES.coursesTooMany)
  .default([]);

const identifierNumber = z
  .number({ error: REPORT_MODEL_MESSAGES.numberInvalid })
  .int(REPORT_MODEL_MESSAGES.numberInvalid)
  .min(0, REPORT_MODEL_MESSAGES.numberInvalid)
  .max(100_000, REPORT_MODEL_MESSAGES.numberInvalid)
  .nullable()
  .default(null);

/**
 * What an item reads:
 * - `variable`: the values of course variables (one, or the variable of the
 *   same name in several courses, so one item compares them by course);
 * - `chatbot_variable`: the values custom AI agents captured (one agent's
 *   variable, or the variable of the same name in several agents, compared
 *   by agent): the agent stands where a course variable's course does;
 * - `question`: the answers to one question (by id);
 * - `identifier`: the answers to a question named by what people see (its
 *   course, slide, number or text), so the item survives a republish;
 * - `questions`: the answers to every question of the courses (all live
 *   courses when none is named), to rank or compare questions;
 * - `courses`: the course runs (started, completed, passed, scores).
 */
export const reportSubjectSchema = z.discriminatedUnion(
  'kind',
  [
    z
      .object({
        kind: z.literal('variable'),
        variableIds: z
          .array(uuidSchema(REPORT_MODEL_MESSAGES.variableIdInvalid))
          .min(1, REPORT_MODEL_MESSAGES.variablesEmpty)
          .max(50, REPORT_MODEL_MESSAGES.variablesTooMany),
      })
      .strict(),
    z
      .object({
        kind: z.literal('chatbot_variable'),
        chatbotVariableIds: z
          .array(uuidSchema(REPORT_MODEL_MESSAGES.chatbotVariableIdInvalid))
          .min(1, REPORT_MODEL_MESSAGES.chatbotVariablesEmpty)
          .max(50, REPORT_MODEL_MESSAGES.chatbotVariablesTooMany),
      })
      .strict(),
    z
      .object({
        kind: z.literal('question'),
        questionId: uuidSchema(REPORT_MODEL_MESSAGES.questionIdInvalid),
      })
      .strict(),
    z
      .object({
        kind: z.literal('identifier'),
        courseId: uuidSchema(REPORT_MODEL_MESSAGES.courseIdInvalid),
        slideNumber: identifierNumber,
        questionNumber: identifierNumber,
        questionText: z
          .string()
          .trim()
          .max(2000, REPORT_MODEL_MESSAGES.questionTextTooLong)
          .nullable()
          .default(null)
          .transform((value) => (value ? value : null)),
      })
      .strict()
      .refine(
        (subject) =>
          subject.slideNumber !== null || subject.questionNumber !== null || subject.questionText !== null,
        {
          error: REPORT_MODEL_MESSAGES.identifierIncomplete,
          path: ['questionNumber'],
        },
      ),
    z.object({ kind: z.literal('questions'), courseIds: courseIdList }).strict(),
    z.object({ kind: z.literal('courses'), courseIds: courseIdList }).strict(),
  ],
  { error: REPORT_MODEL_MESSAGES.subjectInvalid },
);
export type ReportSubject = z.output<typeof reportSubjectSchema>;

// ---- measures ------------------------------------------------------------------

export const MEASURE_FNS = [
  'learners',
  'values',
  'responses',
  'completions',
  'average',
  'median',
  'min',
  'max',
  'sum',
  'pass_rate',
  'completion_rate',
  'correct_rate',
  'points',
] as const;
export type MeasureFn = (typeof MEASURE_FNS)[number];

export const MEASURE_LABELS: Record<MeasureFn, string> = {
  learners: 'Learners',
  values: 'Values',
  responses: 'Responses',
  completions: 'Completions',
  average: 'Average',
  median: 'Median',
  min: 'Minimum',
  max: 'Maximum',
  sum: 'Sum',
  pass_rate: 'Pass rate',
  completion_rate: 'Completion rate',
  correct_rate: 'Correct rate',
  points: 'Points',
};

/** Which measures each subject has (the first is its default). */
export const SUBJECT_MEASURES: Record<SubjectKind, readonly MeasureFn[]> = {
  variable: ['learners', 'values', 'average', 'median', 'min', 'max', 'sum', 'pass_rate'],
  chatbot_variable: ['learners', 'values', 'average', 'median', 'min', 'max', 'sum', 'pass_rate'],
  question: ['correct_rate', 'responses', 'learners', 'points'],
  identifier: ['correct_rate', 'responses', 'learners', 'points'],
  questions: ['correct_rate', 'responses', 'learners', 'points'],
  courses: ['learners', 'completions', 'completion_rate', 'pass_rate', 'average', 'median', 'min', 'max'],
};

/** Measures that are shares (0 to 1, shown as percentages). */
export const RATE_MEASURES: readonly MeasureFn[] = ['pass_rate', 'completion_rate', 'correct_rate'];
/** Measures that are counts (whole numbers). */
export const COUNT_MEASURES: readonly MeasureFn[] = ['learners', 'values', 'responses', 'completions'];
/** Measures that read numbers (of a number variable, or run scores). */
export const NUMERIC_MEASURES: readonly MeasureFn[] = ['average', 'median', 'min', 'max', 'sum'];

export const reportMeasureSchema = z
  .object({
    fn: z.enum(MEASURE_FNS, { error: `Measure must be one of: ${MEASURE_FNS.join(', ')}` }),
    /**
     * Pass rate: the share of learners whose value (or best score) is at or
     * above the mark. A true/false variable passes on true and needs none.
     */
    mark: z
      .number({ error: REPORT_MODEL_MESSAGES.markInvalid })
      .min(-1_000_000_000, REPORT_MODEL_MESSAGES.markInvalid)
      .max(1_000_000_000, REPORT_MODEL_MESSAGES.markInvalid)
      .nullable()
      .default(null),
  })
  .strict();
export type ReportMeasure = z.output<typeof reportMeasureSchema>;

// ---- breakdowns ----------------------------------------------------------------

export const BREAKDOWN_KINDS = [
  'none',
  'learner',
  'course',
  'agent',
  'question',
  'answer',
  'day',
  'week',
  'month',
  'variable',
] as const;
export type BreakdownKind = (typeof BREAKDOWN_KINDS)[number];
export const TIME_BREAKDOWNS: readonly BreakdownKind[] = ['day', 'week', 'month'];

export const BREAKDOWN_LABELS: Record<BreakdownKind, string> = {
  none: 'Nothing (one number)',
  learner: 'Learner',
  course: 'Course',
  agent: 'Agent',
  question: 'Question',
  answer: 'Answer',
  day: 'Day',
  week: 'Week',
  month: 'Month',
  variable: 'Value of another variable',
};

/** Which breakdowns each subject has. */
export const SUBJECT_BREAKDOWNS: Record<SubjectKind, readonly BreakdownKind[]> = {
  variable: ['none', 'learner', 'course', 'day', 'week', 'month', 'variable'],
  // An agent's values have no course: they are grouped by agent instead. The
  // value of another variable is a learner's latest value of a course
  // variable of that name (a department), which groups any learner.
  chatbot_variable: ['none', 'learner', 'agent', 'day', 'week', 'month', 'variable'],
  question: ['none', 'learner', 'answer', 'course', 'day', 'week', 'month', 'variable'],
  identifier: ['none', 'learner', 'answer', 'course', 'day', 'week', 'month', 'variable'],
  questions: ['none', 'question', 'course', 'learner', 'day', 'week', 'month', 'variable'],
  courses: ['none', 'course', 'learner', 'day', 'week', 'month', 'variable'],
};

export const reportBreakdownSchema = z
  .object({
    kind: z.enum(BREAKDOWN_KINDS, { error: `Breakdown must be one of: ${BREAKDOWN_KINDS.join(', ')}` }),
    /**
     * `variable`: the name of the variable whose value groups the learners
     * (each learner's latest value of any variable of that name, e.g.
     * `department`); learners without one fall in "(no value)".
     */
    variableName: z
      .string()
      .trim()
      .min(1, REPORT_MODEL_MESSAGES.variableNameInvalid)
      .max(200, REPORT_MODEL_MESSAGES.variableNameInvalid)
      .nullable()
      .default(null),
  })
  .strict()
  .refine((breakdown) => breakdown.kind !== 'variable' || breakdown.variableName !== null, {
    error: REPORT_MODEL_MESSAGES.breakdownVariableRequired,
    path: ['variableName'],
  });
export type ReportBreakdown = z.output<typeof reportBreakdownSchema>;

// ---- filters -------------------------------------------------------------------

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const daySchema = z
  .string()
  .regex(DAY, REPORT_MODEL_MESSAGES.periodDateInvalid)
  .refine(
    (value) => !Number.isNaN(Date.parse(`${value}T00:00:00Z`)),
    REPORT_MODEL_MESSAGES.periodDateInvalid,
  );

export const PERIOD_UNITS = ['week', 'month', 'quarter', 'year'] as const;
export type PeriodUnit = (typeof PERIOD_UNITS)[number];

/**
 * When the data happened (UTC): the last N days up to now, a calendar unit
 * (this month so far, or the whole of last month), or dates from and to
 * (inclusive). Null for all time.
 */
export const reportPeriodSchema = z
  .discriminatedUnion(
    'kind',
    [
      z
        .object({
          kind: z.literal('last_days'),
          days: z
            .number({ error: REPORT_MODEL_MESSAGES.periodDaysInvalid })
            .int(REPORT_MODEL_MESSAGES.periodDaysInvalid)
            .min(1, REPORT_MODEL_MESSAGES.periodDaysInvalid)
            .max(3660, REPORT_MODEL_MESSAGES.periodDaysInvalid),
        })
        .strict(),
      z.object({ kind: z.literal('this'), unit: z.enum(PERIOD_UNITS) }).strict(),
      z.object({ kind: z.literal('last'), unit: z.enum(PERIOD_UNITS) }).strict(),
      z
        .object({ kind: z.literal('between'), from: daySchema, to: daySchema })
        .strict()
        .refine((period) => period.from <= period.to, {
          error: REPORT_MODEL_MESSAGES.periodReversed,
          path: ['to'],
        }),
    ],
    { error: 'Period must be last_days, this, last or between' },
  )
  .nullable();
export type ReportPeriod = z.output<typeof reportPeriodSchema>;

export const VALUE_OPERATORS = ['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'contains'] as const;
export type ValueOperator = (typeof VALUE_OPERATORS)[number];

export const VALUE_OPERATOR_LABELS: Record<ValueOperator, string> = {
  eq: 'is',
  ne: 'is not',
  gt: 'is more than',
  gte: 'is at least',
  lt: 'is less than',
  lte: 'is at most',
  contains: 'contains',
};

const conditionValue = z.union(
  [z.string().max(200, 'Values in a condition are at most 200 characters long'), z.number(), z.boolean()],
  {
    error: REPORT_MODEL_MESSAGES.valueConditionInvalid,
  },
);

/** A condition on the subject's own value (variables) or on a learner's latest value of a named variable. */
export const valueConditionSchema = z
  .object({
    /** Null: the subject's value. Else the learner's latest value of the variable of that name. */
    variableName: z
      .string()
      .trim()
      .min(1, REPORT_MODEL_MESSAGES.variableNameInvalid)
      .max(200, REPORT_MODEL_MESSAGES.variableNameInvalid)
      .nullable()
      .default(null),
    op: z.enum(VALUE_OPERATORS, { error: `Operator must be one of: ${VALUE_OPERATORS.join(', ')}` }),
    value: conditionValue,
  })
  .strict();
export type ValueCondition = z.output<typeof valueConditionSchema>;

export const ACTIVITY_EVENTS = ['started', 'completed', 'passed', 'failed'] as const;
export type ActivityEvent = (typeof ACTIVITY_EVENTS)[number];

/** Learners who did (or did not) start, complete, pass or fail a course (any course when none is named). */
export const activityConditionSchema = z
  .object({
    did: z.boolean({ error: 'did must be true or false' }),
    event: z.enum(ACTIVITY_EVENTS, { error: `Event must be one of: ${ACTIVITY_EVENTS.join(', ')}` }),
    courseId: uuidSchema(REPORT_MODEL_MESSAGES.courseIdInvalid).nullable().default(null),
  })
  .strict();
export type ActivityCondition = z.output<typeof activityConditionSchema>;

export const reportFiltersSchema = z
  .object({
    /** Only these courses (on top of the subject's own). */
    courseIds: courseIdList,
    period: reportPeriodSchema.default(null),
    values: z.array(valueConditionSchema).max(10, 'At most 10 value conditions').default([]),
    activity: z.array(activityConditionSchema).max(5, 'At most 5 activity conditions').default([]),
  })
  .strict();
export type ReportFilters = z.output<typeof reportFiltersSchema>;

// ---- sort, limit, query --------------------------------------------------------

export const reportSortSchema = z
  .object({
    by: z.enum(['measure', 'label'], { error: 'Sort by measure or label' }),
    order: z.enum(['asc', 'desc'], { error: 'Order must be asc or desc' }),
  })
  .strict();
export type ReportSort = z.output<typeof reportSortSchema>;

export const MAX_QUERY_ROWS = 200;

/** One item's question to the data. Time breakdowns always read in time order. */
export const reportQuerySchema = z
  .object({
    subject: reportSubjectSchema,
    /** Null: the subject's default measure for its data type (`defaultMeasure`). */
    measure: reportMeasureSchema.nullable().default(null),
    breakdown: reportBreakdownSchema.default({ kind: 'none', variableName: null }),
    filters: reportFiltersSchema.default({ courseIds: [], period: null, values: [], activity: [] }),
    sort: reportSortSchema.nullable().default(null),
    /** The top N groups; the rest are summed up as "Others" when the measure allows. */
    limit: z
      .number({ error: REPORT_MODEL_MESSAGES.limitInvalid })
      .int(REPORT_MODEL_MESSAGES.limitInvalid)
      .min(1, REPORT_MODEL_MESSAGES.limitInvalid)
      .max(MAX_QUERY_ROWS, REPORT_MODEL_MESSAGES.limitInvalid)
      .nullable()
      .default(null),
  })
  .strict()
  .superRefine((query, context) => {
    const subject = query.subject.kind;
    const measures = SUBJECT_MEASURES[subject];
    if (query.measure && !measures.includes(query.measure.fn)) {
      context.addIssue({
        code: 'custom',
        message: REPORT_MODEL_MESSAGES.measureInvalid(SUBJECT_LABELS[subject], measures),
        path: ['measure', 'fn'],
      });
    }
    const breakdowns = SUBJECT_BREAKDOWNS[subject];
    if (!breakdowns.includes(query.breakdown.kind)) {
      context.addIssue({
        code: 'custom',
        message: REPORT_MODEL_MESSAGES.breakdownInvalid(SUBJECT_LABELS[subject], breakdowns),
        path: ['breakdown', 'kind'],
      });
    }
    if (subject === 'chatbot_variable' && query.filters.courseIds.length > 0) {
      context.addIssue({
        code: 'custom',
        message: REPORT_MODEL_MESSAGES.chatbotCourseFilter,
        path: ['filters', 'courseIds'],
      });
    }
  });
export type ReportQueryInput = z.input<typeof reportQuerySchema>;
export type ReportQuery = z.output<typeof reportQuerySchema>;

/** Subjects that read a variable's values (a course's or an agent's). */
export const VARIABLE_SUBJECTS: readonly SubjectKind[] = ['variable', 'chatbot_variable'];

/**
 * The measure an item gets when it names none: the average of a number
 * variable (or of scores), the share of true of a true/false variable, the
 * count of values of a text or date variable, the correct rate of answers,
 * the learners of courses.
 */
export function defaultMeasure(subject: SubjectKind, dataType: string | null): ReportMeasure {
  if (VARIABLE_SUBJECTS.includes(subject)) {
    if (dataType === 'number') return { fn: 'average', mark: null };
    if (dataType === 'boolean') return { fn: 'pass_rate', mark: null };
    return { fn: 'values', mark: null };
  }
  if (subject === 'courses') return { fn: 'learners', mark: null };
  return { fn: 'correct_rate', mark: null };
}

/** The sort a query gets when it names none: time in order, else the measure, largest first. */
export function effectiveSort(query: Pick<ReportQuery, 'breakdown' | 'sort'>): ReportSort {
  if (TIME_BREAKDOWNS.includes(query.breakdown.kind)) return { by: 'label', order: 'asc' };
  return query.sort ?? { by: 'measure', order: 'desc' };
}

// ---- results -------------------------------------------------------------------

/** What each count means, shown beside the number wherever it appears. */
export const METRIC_DEFINITIONS = {
  learners: 'Learners: different people counted once, however many courses, values or attempts they have.',
  values:
    'Values: each learner’s latest value per course (a learner in two courses with the variable counts twice); over time, every value recorded.',
  responses: 'Responses: every answer submitted, retries included.',
  completions: 'Completions: learners who completed the course at least once.',
  average: 'Average of each learner’s latest value (or best score) per course.',
  median: 'Median of each learner’s latest value (or best score) per course.',
  min: 'Smallest latest value (or best score).',
  max: 'Largest latest value (or best score).',
  sum: 'Sum of each learner’s latest value per course.',
  pass_rate:
    'Pass rate: share of learners whose latest value (or best score) reaches the pass mark, or who passed.',
  completion_rate: 'Completion rate: share of learners who started and completed the course.',
  correct_rate: 'Correct rate: share of responses that were correct, retries included.',
  points: 'Points: each learner’s best points on a question, averaged over learners.',
} as const satisfies Record<MeasureFn, string>;

/** What a row's `count` counts for each subject, with its definition. */
export const SUBJECT_COUNTS: Record<SubjectKind, { label: string; definition: string }> = {
  variable: { label: 'Values', definition: METRIC_DEFINITIONS.values },
  chatbot_variable: {
    label: 'Values',
    definition:
      'Values: each learner’s latest value per agent (a learner who told two agents counts twice); over time, every value recorded.',
  },
  question: { label: 'Responses', definition: METRIC_DEFINITIONS.responses },
  identifier: { label: 'Responses', definition: METRIC_DEFINITIONS.responses },
  questions: { label: 'Responses', definition: METRIC_DEFINITIONS.responses },
  courses: {
    label: 'Enrolments',
    definition:
      'Enrolments: each learner counted once per course they started, however many times they ran it.',
  },
};

export const reportResultRowSchema = z.object({
  /** Stable id of the group (a learner, course or question id, a bucket start, a value). */
  key: z.string(),
  label: z.string(),
  /** The measure; null when the group has nothing to measure (no numbers). */
  value: z.number().nullable(),
  /** Distinct learners in the group. */
  learners: z.number().int().nonnegative(),
  /** Values, responses or runs in the group (what the subject counts). */
  count: z.number().int().nonnegative(),
  /** By learner: their latest value as recorded (variables) or their last answer (questions). */
  detail: z.string().nullable(),
  /** Time breakdowns: the bucket is not over yet (the current week), so it is not comparable. */
  isPartial: z.boolean(),
  /** Set when the row sums up groups past the limit. */
  groups: z.number().int().nonnegative().nullable(),
});
export type ReportResultRow = z.infer<typeof reportResultRowSchema>;

export const reportResultSchema = z.object({
  measure: z.object({
    fn: z.enum(MEASURE_FNS),
    label: z.string(),
    /** How to write the value: a share (0 to 1) as a percentage, a whole count, or a number. */
    unit: z.enum(['percent', 'count', 'number']),
    definition: z.string(),
  }),
  breakdown: z.object({ kind: z.enum(BREAKDOWN_KINDS), label: z.string() }),
  /** The measure over everything the filters keep (not the sum of rows). */
  total: reportResultRowSchema.omit({ key: true, label: true, detail: true, isPartial: true, groups: true }),
  rows: z.array(reportResultRowSchema),
  /** The groups past the limit, summed up (null when none, or when the measure cannot be summed up). */
  others: reportResultRowSchema.nullable(),
  /** Groups in all, before the limit. */
  groupCount: z.number().int().nonnegative(),
  /** The period actually read (UTC ISO), after presets are resolved. */
  period: z.object({ from: z.string().nullable(), to: z.string().nullable() }),
});
export type ReportResult = z.infer<typeof reportResultSchema>;

// ---- charts ----------------------------------------------------------------------

export const REPORT_CHARTS = ['auto', 'number', 'table', 'bar', 'line', 'pie', 'leaderboard'] as const;
export type ReportChart = (typeof REPORT_CHARTS)[number];
export type ResolvedChart = Exclude<ReportChart, 'auto'>;

export const REPORT_CHART_LABELS: Record<ReportChart, string> = {
  auto: 'Automatic',
  number: 'One number',
  table: 'Table',
  bar: 'Bar chart',
  line: 'Line chart',
  pie: 'Pie chart',
  leaderboard: 'Leaderboard',
};

/** Bars or slices a chart draws at most; past it the chart shows the top N and "Others". */
export const MAX_CHART_CATEGORIES = 30;
export const MAX_PIE_SLICES = 8;

/**
 * The chart an item is drawn with. `auto` picks what reads: one number with
 * no breakdown, a line over time, a leaderboard by learner, a table when
 * there are too many groups for bars, else bars. A chosen chart is kept
 * unless it cannot show the data (a pie of a rate, a line without time, a
 * pie with too many slices), where the table is the honest fallback.
 */
export function resolveChart(
  chart: ReportChart,
  query: Pick<ReportQuery, 'breakdown' | 'limit'> & { measure: Pick<ReportMeasure, 'fn'> },
  groupCount: number,
): ResolvedChart {
  const breakdown = query.breakdown.kind;
  const isTime = TIME_BREAKDOWNS.includes(breakdown);
  const shown = query.limit === null ? groupCount : Math.min(groupCount, query.limit);
  if (breakdown === 'none') return chart === 'table' ? 'table' : 'number';
  if (chart === 'auto') {
    if (isTime) return 'line';
    if (breakdown === 'learner') return 'leaderboard';
    return shown > MAX_CHART_CATEGORIES ? 'table' : 'bar';
  }
  if (chart === 'line' && !isTime) return 'bar';
  if (chart === 'pie') {
    const isAdditive = COUNT_MEASURES.includes(query.measure.fn) || query.measure.fn === 'sum';
    if (!isAdditive || isTime) return 'table';
  }
  if (chart === 'number') return 'table';
  return chart;
}
