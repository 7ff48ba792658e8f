import { z } from 'zod';
import { ANALYTICS_MESSAGES, analyticsBasisSchema, MAX_FUNNEL_WINDOW_DAYS } from './analytics';
import { LEARNING_MESSAGES } from './courses';
import { uuidSchema } from './ids';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from './list';
import { VARIABLE_REPORT_MESSAGES } from './variable-reports';

/**
 * Funnels (`/analytics/funnels`): how many learners go from one course event
 * to the next, where they drop off and how long each step takes.
 *
 * How a funnel counts (the server computes it in SQL, one statement):
 *
 * - The events are the learning-event log. A step matches events of one kind
 *   (`course_started`: course.started; `slide_viewed`: slide.viewed of slide
 *   N; `question_answered`: question.answered, of any question of the course
 *   or of one question; `variable_set`: variable.set of one variable,
 *   optionally to one value, compared as text; `passed`: course.passed;
 *   `completed`: what the analytics settings call completion: a
 *   course.completed event, a course.passed event, or a slide.viewed of the
 *   course's last slide (the highest slide number viewed in the events read)).
 *   A step's course is its own `courseId`, else the funnel's; without either
 *   the step matches that event in any course (only course started, passed
 *   and completed may do so).
 * - The learner's events are ordered by time (to the microsecond); events at
 *   the same instant are ordered by the first funnel step they match, so a
 *   course that sends "started" and "slide 1" with one timestamp keeps the
 *   funnel's order (two events at one instant that match the same first step
 *   count as one).
 * - Entering: a learner enters with their first step-1 event inside the
 *   period (local days of the organization's time zone). Test accounts the
 *   settings leave out never enter. Later steps may fall after the period's
 *   end, within the window.
 * - Window: every step must happen within `windowDays` (default: the
 *   settings' funnel window) of the learner's step-1 event.
 * - Order `sequential`: step k+1 is the learner's first event matching it
 *   after the event that reached step k; anything may happen in between.
 * - Order `strict`: the funnel-relevant events are the learner's events that
 *   match any step of the funnel. After the event that reached step k, the
 *   next funnel-relevant event must match step k+1, except that repeats of
 *   step k (events that match step k and not step k+1, such as answering the
 *   same question again) are skipped. Any other funnel-relevant event in
 *   between ends the learner's way through the funnel at step k.
 * - Order `any`: the learner enters with their first event in the period
 *   that matches any step; "step k" then means "k different steps done"
 *   within the window, in whatever order; its time is when the k-th
 *   different step was first done.
 * - Time to convert of step k: from the event that reached step k-1 to the
 *   one that reached step k (median, and a histogram on fixed bins).
 * - Comparison: the same funnel over the period of equal length just before,
 *   with a two-proportion z-test (two-sided, p < 0.05) on the overall
 *   conversion and on each step's conversion from the previous step; the
 *   mark is left off when an expected count is below 5 (the test's normal
 *   approximation does not hold there).
 */

export const FUNNEL_STEP_KINDS = [
  'course_started',
  'slide_viewed',
  'question_answered',
  'variable_set',
  'passed',
  'completed',
] as const;
export type FunnelStepKind = (typeof FUNNEL_STEP_KINDS)[number];

export const FUNNEL_STEP_KIND_LABELS: Record<FunnelStepKind, string> = {
  course_started: 'Course started',
  slide_viewed: 'Slide viewed',
  question_answered: 'Question answered',
  variable_set: 'Variable set',
  passed: 'Passed',
  completed: 'Completed',
};

/** Kinds that may match in any course (the others need a course to mean anything). */
export const FUNNEL_ANY_COURSE_KINDS: readonly FunnelStepKind[] = ['course_started', 'passed', 'completed'];

export const FUNNEL_ORDERS = ['sequential', 'strict', 'any'] as const;
export type FunnelOrder = (typeof FUNNEL_ORDERS)[number];

export const FUNNEL_ORDER_LABELS: Record<FunnelOrder, string> = {
  sequential: 'Sequential: each step after the previous one, other events in between allowed',
  strict: 'Strict: each step is the learner’s next funnel event (repeats of a step are skipped)',
  any: 'Any order: the steps within the window in any order',
};

export const MIN_FUNNEL_STEPS = 2;
export const MAX_FUNNEL_STEPS = 10;
/** The longest period a funnel reads (the previous period doubles what is read). */
export const MAX_FUNNEL_PERIOD_DAYS = 366;
/** The period a funnel reads when none is chosen: the last 30 local days. */
export const DEFAULT_FUNNEL_PERIOD_DAYS = 30;
export const MAX_FUNNEL_BREAKDOWN_GROUPS = 20;
export const DEFAULT_FUNNEL_BREAKDOWN_GROUPS = 5;
/** The breakdown group of every value beyond the top N. */
export const FUNNEL_OTHER_GROUP = 'Other';
/** The breakdown group of learners without a value of the variable. */
export const FUNNEL_NO_VALUE_GROUP = '(no value)';
export const MAX_FUNNEL_NAME_LENGTH = 120;
export const MAX_FUNNEL_DESCRIPTION_LENGTH = 500;
export const MAX_FUNNEL_VALUE_LENGTH = 500;
/** p below this marks a change as significant. */
export const FUNNEL_SIGNIFICANCE_LEVEL = 0.05;

/**
 * Upper edges (seconds, exclusive) of the time-to-convert histogram's bins:
 * under a minute, 1–5 min, 5–15 min, 15–60 min, 1–3 h, 3–12 h, 12–24 h,
 * 1–3 days, 3–7 days, then 7 days and more. Fixed edges, so two steps (and two
 * periods) are read on the same scale.
 */
export const FUNNEL_TIME_BIN_EDGES = [60, 300, 900, 3600, 10_800, 43_200, 86_400, 259_200, 604_800] as const;

export const FUNNEL_MESSAGES = {
  tooFewSteps: `A funnel has at least ${MIN_FUNNEL_STEPS} steps`,
  tooManySteps: `A funnel has at most ${MAX_FUNNEL_STEPS} steps`,
  invalidKind: `A step is one of: ${FUNNEL_STEP_KINDS.join(', ')}`,
  invalidOrder: `The step order is one of: ${FUNNEL_ORDERS.join(', ')}`,
  courseRequired: 'Choose the course of this step (or the funnel’s course)',
  slideRequired: 'Enter the slide number of this step (a whole number, 0 or more)',
  variableRequired: 'Choose the variable of this step',
  valueTooLong: `A value is at most ${MAX_FUNNEL_VALUE_LENGTH} characters long`,
  slideOnlyForSlides: 'Only a "slide viewed" step has a slide number',
  questionOnlyForQuestions: 'Only a "question answered" step names a question',
  variableOnlyForVariables: 'Only a "variable set" step names a variable or a value',
  nameRequired: 'Name the funnel',
  nameTooLong: `A funnel name is at most ${MAX_FUNNEL_NAME_LENGTH} characters long`,
  descriptionTooLong: `A description is at most ${MAX_FUNNEL_DESCRIPTION_LENGTH} characters long`,
  nothingToUpdate: 'Send a name, a description or a configuration to change',
  periodTooLong: `A funnel reads at most ${MAX_FUNNEL_PERIOD_DAYS} days: choose a shorter period`,
  invalidBreakdown: 'Break down by nothing, by course or by a variable',
  breakdownVariableRequired: 'Name the variable to break down by (for example department)',
  invalidTop: `Show from 1 to ${MAX_FUNNEL_BREAKDOWN_GROUPS} groups`,
  invalidStepIndex: 'Choose a step after the first one',
  stepOutOfRange: 'The funnel has no such step',
  questionNotInCourse: 'This question is not a question of the step’s course',
  variableNotInCourse: 'This variable is not a variable of the step’s course',
  storedConfigInvalid:
    'This funnel was saved with settings this version cannot read. Open it, choose its steps again and save.',
} as const;

const courseRef = uuidSchema(LEARNING_MESSAGES.courseNotFound);

/** One step as the builder sends it; the fields that do not belong to its kind must be absent or null. */
export const funnelStepSchema = z
  .object({
    kind: z.enum(FUNNEL_STEP_KINDS, { error: FUNNEL_MESSAGES.invalidKind }),
    /** The step's own course; null or absent: the funnel's course (or any course). */
    courseId: courseRef.nullish(),
    /** `slide_viewed`: the slide's number in the course. */
    slideNumber: z
      .number({ error: FUNNEL_MESSAGES.slideRequired })
      .int({ error: FUNNEL_MESSAGES.slideRequired })
      .min(0, { error: FUNNEL_MESSAGES.slideRequired })
      .max(1_000_000, { error: FUNNEL_MESSAGES.slideRequired })
      .nullish(),
    /** `question_answered`: one question; null or absent: any question of the course. */
    questionId: uuidSchema(LEARNING_MESSAGES.questionNotFound).nullish(),
    /** `variable_set`: the variable. */
    variableId: uuidSchema(LEARNING_MESSAGES.variableNotFound).nullish(),
    /** `variable_set`: the value it must be set to, compared as text; null or absent: any value. */
    value: z
      .string({ error: FUNNEL_MESSAGES.valueTooLong })
      .max(MAX_FUNNEL_VALUE_LENGTH, { error: FUNNEL_MESSAGES.valueTooLong })
      .nullish(),
  })
  .superRefine((step, context) => {
    const issue = (path: string, message: string) =>
      context.addIssue({ code: 'custom', path: [path], message });
    if (step.kind === 'slide_viewed') {
      if (step.slideNumber === null || step.slideNumber === undefined)
        issue('slideNumber', FUNNEL_MESSAGES.slideRequired);
    } else if (step.slideNumber !== null && step.slideNumber !== undefined) {
      issue('slideNumber', FUNNEL_MESSAGES.slideOnlyForSlides);
    }
    if (step.kind !== 'question_answered' && step.questionId) {
      issue('questionId', FUNNEL_MESSAGES.questionOnlyForQuestions);
    }
    if (step.kind === 'variable_set') {
      if (!step.variableId) issue('variableId', FUNNEL_MESSAGES.variableRequired);
    } else {
      if (step.variableId) issue('variableId', FUNNEL_MESSAGES.variableOnlyForVariables);
      if (step.value !== null && step.value !== undefined)
        issue('value', FUNNEL_MESSAGES.variableOnlyForVariables);
    }
  });
export type FunnelStep = z.infer<typeof funnelStepSchema>;
export type FunnelStepInput = z.input<typeof funnelStepSchema>;

/** What a funnel counts: its steps, their order and the window. */
export const funnelDefinitionSchema = z
  .object({
    /** The funnel's course: the course of every step that names none. Null: each step names its own, or any course. */
    courseId: courseRef.nullable().default(null),
    steps: z
      .array(funnelStepSchema, { error: FUNNEL_MESSAGES.tooFewSteps })
      .min(MIN_FUNNEL_STEPS, { error: FUNNEL_MESSAGES.tooFewSteps })
      .max(MAX_FUNNEL_STEPS, { error: FUNNEL_MESSAGES.tooManySteps }),
    order: z.enum(FUNNEL_ORDERS, { error: FUNNEL_MESSAGES.invalidOrder }).default('sequential'),
    /** Days from step 1 within which every step must happen; null: the analytics settings' default. */
    windowDays: z
      .number({ error: 'The conversion window is a whole number of days' })
      .int({ error: `The conversion window is a whole number of days from 1 to ${MAX_FUNNEL_WINDOW_DAYS}` })
      .min(1, {
        error: `The conversion window is a whole number of days from 1 to ${MAX_FUNNEL_WINDOW_DAYS}`,
      })
      .max(MAX_FUNNEL_WINDOW_DAYS, {
        error: `The conversion window is a whole number of days from 1 to ${MAX_FUNNEL_WINDOW_DAYS}`,
      })
      .nullable()
      .default(null),
  })
  .superRefine((definition, context) => {
    definition.steps.forEach((step, index) => {
      const hasCourse = Boolean(step.courseId ?? definition.courseId);
      if (!hasCourse && !FUNNEL_ANY_COURSE_KINDS.includes(step.kind)) {
        context.addIssue({
          code: 'custom',
          path: ['steps', index, 'courseId'],
          message: FUNNEL_MESSAGES.courseRequired,
        });
      }
    });
  });
export type FunnelDefinition = z.infer<typeof funnelDefinitionSchema>;
export type FunnelDefinitionInput = z.input<typeof funnelDefinitionSchema>;

/** The course a step reads: its own, else the funnel's, else null (any course). */
export function funnelStepCourseId(
  definition: Pick<FunnelDefinition, 'courseId'>,
  step: Pick<FunnelStep, 'courseId'>,
) {
  return step.courseId ?? definition.courseId ?? null;
}

export const FUNNEL_BREAKDOWN_KINDS = ['none', 'course', 'variable'] as const;
export type FunnelBreakdownKind = (typeof FUNNEL_BREAKDOWN_KINDS)[number];

const breakdownTop = z
  .number({ error: FUNNEL_MESSAGES.invalidTop })
  .int({ error: FUNNEL_MESSAGES.invalidTop })
  .min(1, { error: FUNNEL_MESSAGES.invalidTop })
  .max(MAX_FUNNEL_BREAKDOWN_GROUPS, { error: FUNNEL_MESSAGES.invalidTop })
  .default(DEFAULT_FUNNEL_BREAKDOWN_GROUPS);

/**
 * Groups of the learners who entered: by the course of their step-1 event, or
 * by their latest value of a variable (every variable of that name, whatever
 * its course: "department" is often set by several courses). The top N groups
 * by learners entered are shown, the rest as "Other".
 */
export const funnelBreakdownSchema = z.discriminatedUnion(
  'kind',
  [
    z.object({ kind: z.literal('none') }),
    z.object({ kind: z.literal('course'), top: breakdownTop }),
    z.object({
      kind: z.literal('variable'),
      variableName: z
        .string({ error: FUNNEL_MESSAGES.breakdownVariableRequired })
        .trim()
        .min(1, { error: FUNNEL_MESSAGES.breakdownVariableRequired })
        .max(255, { error: FUNNEL_MESSAGES.breakdownVariableRequired }),
      top: breakdownTop,
    }),
  ],
  { error: FUNNEL_MESSAGES.invalidBreakdown },
);
export type FunnelBreakdown = z.infer<typeof funnelBreakdownSchema>;
export type FunnelBreakdownInput = z.input<typeof funnelBreakdownSchema>;

/** What a saved funnel keeps: the definition and how it is broken down. */
export const funnelConfigSchema = z.object({
  definition: funnelDefinitionSchema,
  breakdown: funnelBreakdownSchema.default({ kind: 'none' }),
});
export type FunnelConfig = z.infer<typeof funnelConfigSchema>;
export type FunnelConfigInput = z.input<typeof funnelConfigSchema>;

const isoDay = z.iso.date({ error: VARIABLE_REPORT_MESSAGES.dateInvalid });

function dayNumber(day: string): number {
  return Date.parse(`${day}T00:00:00Z`) / 86_400_000;
}

/** Local days, inclusive; absent: the last 30 days (to today in the organization's time zone). */
export const funnelPeriodSchema = z
  .object({ from: isoDay.optional(), to: isoDay.optional() })
  .superRefine((period, context) => {
    if (!period.from || !period.to) return;
    if (period.from > period.to) {
      context.addIssue({ code: 'custom', path: ['to'], message: VARIABLE_REPORT_MESSAGES.dateRangeReversed });
    } else if (dayNumber(period.to) - dayNumber(period.from) + 1 > MAX_FUNNEL_PERIOD_DAYS) {
      context.addIssue({ code: 'custom', path: ['from'], message: FUNNEL_MESSAGES.periodTooLong });
    }
  });
export type FunnelPeriod = z.infer<typeof funnelPeriodSchema>;

/** `POST /api/analytics/funnels/compute`. */
export const funnelComputeInput = z.object({
  definition: funnelDefinitionSchema,
  period: funnelPeriodSchema.default({}),
  breakdown: funnelBreakdownSchema.default({ kind: 'none' }),
  /** Also count the period of equal length just before, and test the difference. */
  compare: z.boolean({ error: 'compare must be true or false' }).default(false),
});
export type FunnelComputeInput = z.input<typeof funnelComputeInput>;
export type FunnelComputeRequest = z.output<typeof funnelComputeInput>;

/** A two-proportion z-test of this period's rate against the previous period's. */
export const funnelComparisonSchema = z.object({
  /** The previous period's rate (0..1), null when nobody was at the base there. */
  previousRate: z.number().nullable(),
  previousCount: z.number().int(),
  previousBase: z.number().int(),
  /** This rate minus the previous one, in fractions (0.05 = 5 percentage points), null without both rates. */
  change: z.number().nullable(),
  zScore: z.number().nullable(),
  pValue: z.number().nullable(),
  /** p < 0.05 with every expected count at least 5. */
  isSignificant: z.boolean(),
});
export type FunnelComparison = z.infer<typeof funnelComparisonSchema>;

/** A time-to-convert histogram bin: seconds from `from` (inclusive) to `to` (exclusive; null: no upper edge). */
export const funnelTimeBinSchema = z.object({
  from: z.number(),
  to: z.number().nullable(),
  label: z.string(),
  count: z.number().int(),
});
export type FunnelTimeBin = z.infer<typeof funnelTimeBinSchema>;

export const funnelStepResultSchema = z.object({
  index: z.number().int(),
  kind: z.enum(FUNNEL_STEP_KINDS),
  /** What the step is, without its course ("Answered Q2 · Which helmet?"). */
  label: z.string(),
  courseId: z.string().nullable(),
  /** The step's course; null: any course. */
  courseTitle: z.string().nullable(),
  questionId: z.string().nullable(),
  /** Learners who reached the step. */
  count: z.number().int(),
  /** Of the learners who entered (0..1; 1 for the first step, 0 when nobody entered). */
  conversionFromFirst: z.number(),
  /** Of the learners who reached the previous step (0..1). */
  conversionFromPrevious: z.number(),
  /** Reached the previous step but not this one (0 for the first step). */
  droppedOff: z.number().int(),
  /** Median seconds from the previous step to this one; null for the first step or without conversions. */
  medianSeconds: z.number().nullable(),
  histogram: z.array(funnelTimeBinSchema),
  /** This step's conversion from the previous step against the previous period (null for the first step or without compare). */
  comparison: funnelComparisonSchema.nullable(),
});
export type FunnelStepResult = z.infer<typeof funnelStepResultSchema>;

export const funnelBreakdownGroupSchema = z.object({
  /** The course id or the value; null for "Other" and "(no value)". */
  key: z.string().nullable(),
  label: z.string(),
  isOther: z.boolean(),
  /** Learners of the group at each step, in step order. */
  counts: z.array(z.number().int()),
  /** Of the group's entered learners, those who reached the last step (0..1). */
  conversion: z.number(),
});
export type FunnelBreakdownGroup = z.infer<typeof funnelBreakdownGroupSchema>;

const resolvedPeriodSchema = z.object({ from: z.string(), to: z.string() });

export const funnelComputeResult = z.object({
  period: resolvedPeriodSchema,
  previousPeriod: resolvedPeriodSchema.nullable(),
  order: z.enum(FUNNEL_ORDERS),
  windowDays: z.number().int(),
  /** Whether the window is the settings' default (the funnel names none). */
  isDefaultWindow: z.boolean(),
  entered: z.number().int(),
  converted: z.number().int(),
  /** converted / entered (0 when nobody entered). */
  conversion: z.number(),
  /** Median seconds from step 1 to the last step, for those who converted. */
  medianSecondsToConvert: z.number().nullable(),
  steps: z.array(funnelStepResultSchema),
  /** The overall conversion against the previous period (null without compare). */
  comparison: funnelComparisonSchema.nullable(),
  breakdown: z
    .object({
      kind: z.enum(['course', 'variable']),
      /** "Course" or the variable's name. */
      label: z.string(),
      groups: z.array(funnelBreakdownGroupSchema),
    })
    .nullable(),
  basis: analyticsBasisSchema,
});
export type FunnelComputeResult = z.infer<typeof funnelComputeResult>;

/** `POST /api/analytics/funnels/dropped-off` (and `/export` without the page). */
export const funnelDroppedOffInput = z.object({
  definition: funnelDefinitionSchema,
  period: funnelPeriodSchema.default({}),
  /** The step learners did not reach (1-based position minus one: 1 is the second step). */
  stepIndex: z
    .number({ error: FUNNEL_MESSAGES.invalidStepIndex })
    .int({ error: FUNNEL_MESSAGES.invalidStepIndex })
    .min(1, { error: FUNNEL_MESSAGES.invalidStepIndex })
    .max(MAX_FUNNEL_STEPS - 1, { error: FUNNEL_MESSAGES.invalidStepIndex }),
  page: z
    .number({ error: 'Page must be a whole number of 1 or more' })
    .int({ error: 'Page must be a whole number of 1 or more' })
    .min(1, { error: 'Page must be a whole number of 1 or more' })
    .max(1_000_000, { error: 'Page must be at most 1000000' })
    .default(1),
  pageSize: z
    .number({ error: `Page size must be a whole number from 1 to ${MAX_PAGE_SIZE}` })
    .int({ error: `Page size must be a whole number from 1 to ${MAX_PAGE_SIZE}` })
    .min(1, { error: `Page size must be a whole number from 1 to ${MAX_PAGE_SIZE}` })
    .max(MAX_PAGE_SIZE, { error: `Page size must be a whole number from 1 to ${MAX_PAGE_SIZE}` })
    .default(DEFAULT_PAGE_SIZE),
});
export type FunnelDroppedOffInput = z.input<typeof funnelDroppedOffInput>;
export type FunnelDroppedOffRequest = z.output<typeof funnelDroppedOffInput>;

export const funnelDroppedOffExportInput = funnelDroppedOffInput.omit({ page: true, pageSize: true });
export type FunnelDroppedOffExportInput = z.input<typeof funnelDroppedOffExportInput>;

export const funnelDroppedLearnerSchema = z.object({
  learnerId: z.string(),
  name: z.string().nullable(),
  email: z.string(),
  /** The last step reached (0-based) and its label. */
  lastStepIndex: z.number().int(),
  lastStepLabel: z.string(),
  /** When the learner reached it (ISO). */
  reachedAt: z.string(),
});
export type FunnelDroppedLearner = z.infer<typeof funnelDroppedLearnerSchema>;

export const funnelDroppedOffResponse = z.object({
  items: z.array(funnelDroppedLearnerSchema),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
  period: resolvedPeriodSchema,
  basis: analyticsBasisSchema,
});
export type FunnelDroppedOffResponse = z.infer<typeof funnelDroppedOffResponse>;

const funnelName = z
  .string({ error: FUNNEL_MESSAGES.nameRequired })
  .trim()
  .min(1, { error: FUNNEL_MESSAGES.nameRequired })
  .max(MAX_FUNNEL_NAME_LENGTH, { error: FUNNEL_MESSAGES.nameTooLong });
const funnelDescription = z
  .string({ error: FUNNEL_MESSAGES.descriptionTooLong })
  .trim()
  .max(MAX_FUNNEL_DESCRIPTION_LENGTH, { error: FUNNEL_MESSAGES.descriptionTooLong })
  .nullish()
  .transform((value) => (value ? value : null));

/** `POST /api/analytics/funnels`. */
export const funnelSaveInput = z.object({
  name: funnelName,
  description: funnelDescription,
  config: funnelConfigSchema,
});
export type FunnelSaveInput = z.input<typeof funnelSaveInput>;

/** `PUT /api/analytics/funnels/:funnelId`: any of the fields (a rename sends the name alone). */
export const funnelUpdateInput = z
  .object({
    name: funnelName.optional(),
    description: funnelDescription.optional(),
    config: funnelConfigSchema.optional(),
  })
  .refine(
    (input) => input.name !== undefined || input.description !== undefined || input.config !== undefined,
    {
      error: FUNNEL_MESSAGES.nothingToUpdate,
    },
  );
export type FunnelUpdateInput = z.input<typeof funnelUpdateInput>;

export const funnelParams = z.object({ funnelId: uuidSchema(ANALYTICS_MESSAGES.funnelNotFound) });

export const savedFunnelSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  /** Null when the stored configuration no longer reads (see `problem`). */
  config: funnelConfigSchema.nullable(),
  problem: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type SavedFunnel = z.infer<typeof savedFunnelSchema>;

export const listFunnelsResponse = z.object({
  items: z.array(savedFunnelSchema),
  /**
   * A funnel to start from when none is saved: course started, the first
   * question, completed, in the course with the most runs. Null when funnels
   * are saved or the organization has no course yet.
   */
  suggestion: z.object({ name: z.string(), config: funnelConfigSchema }).nullable(),
});
export type ListFunnelsResponse = z.infer<typeof listFunnelsResponse>;
