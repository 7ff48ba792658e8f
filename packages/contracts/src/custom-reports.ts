import { z } from 'zod';
import { uuidSchema } from './ids';
import {
  REPORT_CHARTS,
  REPORT_MODEL_MESSAGES,
  reportQuerySchema,
  reportResultSchema,
  type BreakdownKind,
  type ReportChart,
  type ReportQuery,
  type ReportSubject,
} from './report-model';

import { listQuerySchema, paginatedSchema, queryBoolean } from './list';
import { sharedViewContextSchema } from './shared-views';

/**
 * Custom reports: a named selection of variables and
 * questions, each broken down by learner, by course or over time, whose data
 * the server assembles in SQL; a report can be shared through an unguessable
 * public link, and drafted from a sentence by the generator.
 */

export const MAX_REPORT_NAME_LENGTH = 200;
export const MAX_REPORT_DESCRIPTION_LENGTH = 2000;
export const MAX_REPORT_DISPLAY_NAME_LENGTH = 200;
export const MAX_REPORT_ITEMS = 20;
/** Rows of one item's breakdown the server returns at most (learners, courses or weeks). */
export const MAX_REPORT_ROWS = 200;
export const MAX_REPORT_PERIOD_DAYS = 3660;
export const MAX_GENERATOR_PROMPT_LENGTH = 1000;

export const CUSTOM_REPORT_MESSAGES = {
  notFound: 'Report not found',
  /** Spec section 8: creating a report without a user. */
  notAuthenticated: 'User not authenticated',
  /** What a public link that is not (or no longer) shared answers: nothing about the report. */
  publicNotFound: 'This report is not available',
  nameRequired: 'Report name is required',
  nameTooLong: `Report name must be at most ${MAX_REPORT_NAME_LENGTH} characters long`,
  descriptionTooLong: `Description must be at most ${MAX_REPORT_DESCRIPTION_LENGTH} characters long`,
  displayNameTooLong: `Display names must be at most ${MAX_REPORT_DISPLAY_NAME_LENGTH} characters long`,
  tooManyItems: `A report can have at most ${MAX_REPORT_ITEMS} variables and questions`,
  reportTypeInvalid: 'Report type must be one of: table, bar, line, pie, leaderboard, comparison',
  comparisonTypeInvalid: 'Breakdown must be one of: by_learner, by_course, over_time',
  variableIdInvalid: 'Variable must be a variable id',
  questionIdInvalid: 'Question must be a question id',
  courseIdInvalid: 'Course must be a course id',
  identifierIncomplete: REPORT_MODEL_MESSAGES.identifierIncomplete,
  numberInvalid: REPORT_MODEL_MESSAGES.numberInvalid,
  questionTextTooLong: REPORT_MODEL_MESSAGES.questionTextTooLong,
  periodInvalid: `Period must be a whole number of days from 1 to ${MAX_REPORT_PERIOD_DAYS}`,
  limitInvalid: `Top N must be a whole number from 1 to ${MAX_REPORT_ROWS}`,
  unknownVariables: 'Some variables of the report do not exist in this organization',
  unknownChatbotVariables: 'Some agent variables of the report do not exist in this organization',
  unknownQuestions: 'Some questions of the report do not exist in this organization',
  unknownCourses: 'Some courses of the report do not exist in this organization',
  unknownVariableNames: 'Some variables a breakdown or condition names do not exist in this organization',
  mixedVariableTypes:
    'The variables of one item must all be of the same type (number, text, true/false or date)',
  mixedChatbotVariableTypes:
    'The agent variables of one item must all be of the same type (number, text, true/false or date)',
  promptRequired: 'Describe the report you want',
  promptTooLong: `The description must be at most ${MAX_GENERATOR_PROMPT_LENGTH} characters long`,
} as const;

export const CUSTOM_REPORT_TYPES = ['table', 'bar', 'line', 'pie', 'leaderboard', 'comparison'] as const;
export const customReportTypeSchema = z.enum(CUSTOM_REPORT_TYPES, {
  error: CUSTOM_REPORT_MESSAGES.reportTypeInvalid,
});
export type CustomReportType = z.infer<typeof customReportTypeSchema>;

export const CUSTOM_REPORT_TYPE_LABELS: Record<CustomReportType, string> = {
  table: 'Table',
  bar: 'Bar chart',
  line: 'Line chart',
  pie: 'Pie chart',
  leaderboard: 'Leaderboard',
  comparison: 'Comparison',
};

export const COMPARISON_TYPES = ['by_learner', 'by_course', 'over_time'] as const;
export const comparisonTypeSchema = z.enum(COMPARISON_TYPES, {
  error: CUSTOM_REPORT_MESSAGES.comparisonTypeInvalid,
});
export type ComparisonType = z.infer<typeof comparisonTypeSchema>;

/** The breakdown each of the first version's comparison types became. */
export const COMPARISON_BREAKDOWNS: Record<ComparisonType, BreakdownKind> = {
  by_learner: 'learner',
  by_course: 'course',
  over_time: 'week',
};

// ---- input -------------------------------------------------------------------

const displayNameField = z
  .string()
  .trim()
  .max(MAX_REPORT_DISPLAY_NAME_LENGTH, CUSTOM_REPORT_MESSAGES.displayNameTooLong)
  .nullable()
  .optional()
  .transform((value) => (value ? value : null));

const chartField = z
  .enum(REPORT_CHARTS, { error: `Chart must be one of: ${REPORT_CHARTS.join(', ')}` })
  .default('auto');

/** An item as the report model says it: what it reads, measures and groups by. */
const queryItemInput = z
  .object({
    kind: z.literal('query'),
    displayName: displayNameField,
    chart: chartField,
    query: reportQuerySchema,
  })
  .strict();

// The first version's items (a variable, a question or a question by
// identifier, with a comparison type) are still accepted and read as the
// same query with the subject's default measure.
const legacyCommon = {
  displayName: displayNameField,
  comparisonType: comparisonTypeSchema.default('by_learner'),
};
const legacyNumber = z
  .number({ error: CUSTOM_REPORT_MESSAGES.numberInvalid })
  .int(CUSTOM_REPORT_MESSAGES.numberInvalid)
  .min(0, CUSTOM_REPORT_MESSAGES.numberInvalid)
  .max(100_000, CUSTOM_REPORT_MESSAGES.numberInvalid)
  .nullable()
  .optional()
  .transform((value) => value ?? null);
const legacyVariableItem = z
  .object({
    kind: z.literal('variable'),
    variableId: uuidSchema(CUSTOM_REPORT_MESSAGES.variableIdInvalid),
    ...legacyCommon,
  })
  .strict();
const legacyQuestionItem = z
  .object({
    kind: z.literal('question'),
    questionId: uuidSchema(CUSTOM_REPORT_MESSAGES.questionIdInvalid),
    ...legacyCommon,
  })
  .strict();
const legacyIdentifierItem = z
  .object({
    kind: z.literal('identifier'),
    courseId: uuidSchema(CUSTOM_REPORT_MESSAGES.courseIdInvalid),
    slideNumber: legacyNumber,
    questionNumber: legacyNumber,
    questionText: z
      .string()
      .trim()
      .max(2000, CUSTOM_REPORT_MESSAGES.questionTextTooLong)
      .nullable()
      .optional()
      .transform((value) => (value ? value : null)),
    ...legacyCommon,
  })
  .strict();

export type ReportItem = { displayName: string | null; chart: ReportChart; query: ReportQuery };

function legacySubject(
  item:
    | z.output<typeof legacyVariableItem>
    | z.output<typeof legacyQuestionItem>
    | z.output<typeof legacyIdentifierItem>,
): ReportSubject {
  switch (item.kind) {
    case 'variable':
      return { kind: 'variable', variableIds: [item.variableId] };
    case 'question':
      return { kind: 'question', questionId: item.questionId };
    case 'identifier':
      return {
        kind: 'identifier',
        courseId: item.courseId,
        slideNumber: item.slideNumber,
        questionNumber: item.questionNumber,
        questionText: item.questionText,
      };
  }
}

export const reportItemInput = z
  .discriminatedUnion(
    'kind',
    [queryItemInput, legacyVariableItem, legacyQuestionItem, legacyIdentifierItem],
    { error: 'Each item needs a kind: query, variable, question or identifier' },
  )
  .superRefine((item, context) => {
    if (
      item.kind === 'identifier' &&
      item.slideNumber === null &&
      item.questionNumber === null &&
      item.questionText === null
    ) {
      context.addIssue({
        code: 'custom',
        message: CUSTOM_REPORT_MESSAGES.identifierIncomplete,
        path: ['questionNumber'],
      });
    }
  })
  .transform((item): ReportItem => {
    if (item.kind === 'query') return { displayName: item.displayName, chart: item.chart, query: item.query };
    return {
      displayName: item.displayName,
      chart: 'auto',
      query: {
        subject: legacySubject(item),
        measure: null,
        breakdown: { kind: COMPARISON_BREAKDOWNS[item.comparisonType], variableName: null },
        filters: { courseIds: [], period: null, values: [], activity: [] },
        sort: null,
        limit: null,
      },
    };
  });
export type ReportItemInput = z.input<typeof reportItemInput>;

/** Builder settings kept in `custom_reports.config`. */
export const customReportConfigSchema = z
  .object({
    /** Only data of the last N days; null for all time. */
    periodDays: z
      .number({ error: CUSTOM_REPORT_MESSAGES.periodInvalid })
      .int(CUSTOM_REPORT_MESSAGES.periodInvalid)
      .min(1, CUSTOM_REPORT_MESSAGES.periodInvalid)
      .max(MAX_REPORT_PERIOD_DAYS, CUSTOM_REPORT_MESSAGES.periodInvalid)
      .nullable()
      .default(null),
    /** At most N rows per item (the top N of a leaderboard); null for the server's cap. */
    limit: z
      .number({ error: CUSTOM_REPORT_MESSAGES.limitInvalid })
      .int(CUSTOM_REPORT_MESSAGES.limitInvalid)
      .min(1, CUSTOM_REPORT_MESSAGES.limitInvalid)
      .max(MAX_REPORT_ROWS, CUSTOM_REPORT_MESSAGES.limitInvalid)
      .nullable()
      .default(null),
  })
  .strict();
export type CustomReportConfig = z.output<typeof customReportConfigSchema>;

/**
 * `POST /api/custom-reports` and `PUT /api/custom-reports/:reportId`: the
 * whole report; `items` in display order (the order is their position).
 */
export const customReportInput = z
  .object({
    name: z
      .string({ error: CUSTOM_REPORT_MESSAGES.nameRequired })
      .trim()
      .min(1, CUSTOM_REPORT_MESSAGES.nameRequired)
      .max(MAX_REPORT_NAME_LENGTH, CUSTOM_REPORT_MESSAGES.nameTooLong),
    description: z
      .string()
      .trim()
      .max(MAX_REPORT_DESCRIPTION_LENGTH, CUSTOM_REPORT_MESSAGES.descriptionTooLong)
      .nullable()
      .optional()
      .transform((value) => (value ? value : null)),
    reportType: customReportTypeSchema.default('table'),
    config: customReportConfigSchema.default({ periodDays: null, limit: null }),
    items: z.array(reportItemInput).max(MAX_REPORT_ITEMS, CUSTOM_REPORT_MESSAGES.tooManyItems).default([]),
  })
  .strict();
export type CustomReportInput = z.input<typeof customReportInput>;
export type CustomReportDraft = z.output<typeof customReportInput>;

export const customReportParams = z.object({
  reportId: uuidSchema(CUSTOM_REPORT_MESSAGES.notFound),
});
export const publicReportParams = z.object({ token: z.string() });
/**
 * `GET /api/public-reports/:token`: `followUp=true` is the page already
 * showing the report reading it again (newer figures were being computed):
 * not another visit.
 */
export const publicReportQuery = z.object({ followUp: queryBoolean.optional() });

/**
 * `GET /api/custom-reports/:id/data`: `fresh=true` waits for current
 * figures instead of those computed a short while ago (the Refresh button).
 */
export const customReportDataQuery = z.object({ fresh: queryBoolean.optional() });

export const CUSTOM_REPORT_SORT_KEYS = ['createdAt', 'name', 'updatedAt'] as const;
/** `GET /api/custom-reports`: newest first; `?q=` matches the name anywhere, ignoring case. */
export const listCustomReportsQuery = listQuerySchema(CUSTOM_REPORT_SORT_KEYS, {
  sort: 'createdAt',
  order: 'desc',
});
export type ListCustomReportsQuery = z.input<typeof listCustomReportsQuery>;

export const setReportPublicInput = z
  .object({ isPublic: z.boolean({ error: 'isPublic must be true or false' }) })
  .strict();

export const generateReportInput = z
  .object({
    prompt: z
      .string({ error: CUSTOM_REPORT_MESSAGES.promptRequired })
      .trim()
      .min(1, CUSTOM_REPORT_MESSAGES.promptRequired)
      .max(MAX_GENERATOR_PROMPT_LENGTH, CUSTOM_REPORT_MESSAGES.promptTooLong),
    /**
     * Answers to the generator's questions back: for a phrase that matched
     * several courses, variables or questions, the id the user picked.
     */
    choices: z
      .array(
        z
          .object({
            phrase: z.string().trim().min(1).max(200),
            id: uuidSchema('Each choice names an id from the options offered'),
          })
          .strict(),
      )
      .max(10, 'At most 10 choices')
      .default([]),
  })
  .strict();

/**
 * `POST /api/custom-reports/preview`: the data of a report being built,
 * without saving it (the builder's live preview, at most `MAX_PREVIEW_ITEMS`).
 */
export const MAX_PREVIEW_ITEMS = 10;
export const reportPreviewInput = z
  .object({
    config: customReportConfigSchema.default({ periodDays: null, limit: null }),
    items: z
      .array(reportItemInput)
      .max(MAX_PREVIEW_ITEMS, `A preview shows at most ${MAX_PREVIEW_ITEMS} items`)
      .default([]),
  })
  .strict();
export type ReportPreviewInput = z.input<typeof reportPreviewInput>;

// ---- output ------------------------------------------------------------------

/** An item as stored, with what it reads resolved for display. */
export const reportItemSchema = z.object({
  id: z.string(),
  displayOrder: z.number().int(),
  displayName: z.string().nullable(),
  chart: z.enum(REPORT_CHARTS),
  query: z.custom<ReportQuery>(),
  /** What the item is called when it has no display name (variable title or name, question text, courses). */
  label: z.string(),
  /** The course (or courses) it reads, for display; the agent (or agents) of an agent variable. */
  courseTitle: z.string().nullable(),
  /** Variables only: number, text, boolean or date. */
  dataType: z.string().nullable(),
});
export type ReportItemView = z.infer<typeof reportItemSchema>;

export const customReportListItemSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  reportType: customReportTypeSchema,
  isPublic: z.boolean(),
  viewCount: z.number().int().nonnegative(),
  itemCount: z.number().int().nonnegative(),
  createdByName: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type CustomReportListItem = z.infer<typeof customReportListItemSchema>;
export const listCustomReportsResponse = paginatedSchema(customReportListItemSchema);
export type ListCustomReportsResponse = z.infer<typeof listCustomReportsResponse>;

export const customReportSchema = customReportListItemSchema.extend({
  config: customReportConfigSchema,
  /** Present only while the report is public. */
  publicShareToken: z.string().nullable(),
  items: z.array(reportItemSchema),
});
export type CustomReport = z.infer<typeof customReportSchema>;

export const reportSharingSchema = z.object({
  isPublic: z.boolean(),
  publicShareToken: z.string().nullable(),
  viewCount: z.number().int().nonnegative(),
});
export type ReportSharing = z.infer<typeof reportSharingSchema>;

export const reportItemDataSchema = z.object({
  itemId: z.string(),
  /** The display name, else the item's label. */
  title: z.string(),
  courseTitle: z.string().nullable(),
  dataType: z.string().nullable(),
  /** The query as run (the default measure resolved, the report's period and limit applied). */
  query: z.custom<ReportQuery>(),
  /** The chart it is drawn with (`resolveChart`). */
  chart: z.enum(['number', 'table', 'bar', 'line', 'pie', 'leaderboard']),
  /** False when what the item reads is gone (its course deleted): it has no data. */
  available: z.boolean(),
  result: reportResultSchema.nullable(),
});
export type ReportItemData = z.infer<typeof reportItemDataSchema>;

export const reportDataSchema = z.object({
  /** When the figures were computed: they hold every learning record stored before. */
  generatedAt: z.string(),
  /**
   * True when learning data arrived since `generatedAt` and newer figures
   * are being computed: a report slow to compute is shown as it was a short
   * while ago rather than waited for.
   */
  refreshing: z.boolean(),
  /** Start of the period when the report is limited to the last N days. */
  since: z.string().nullable(),
  items: z.array(reportItemDataSchema),
});
export type ReportData = z.infer<typeof reportDataSchema>;

export const customReportDataResponse = z.object({ data: reportDataSchema });

/**
 * `GET /api/public-reports/:token`: what a visitor sees: the organization
 * that shares it (its name, as every shared view), nothing about who made
 * it, no e-mail.
 */
export const publicReportResponse = sharedViewContextSchema.extend({
  report: z.object({
    name: z.string(),
    description: z.string().nullable(),
    reportType: customReportTypeSchema,
    config: customReportConfigSchema,
    items: z.array(z.object({ id: z.string(), title: z.string(), chart: z.enum(REPORT_CHARTS) })),
    updatedAt: z.string(),
  }),
  data: reportDataSchema,
});
export type PublicReportResponse = z.infer<typeof publicReportResponse>;

/** A generated report as plain JSON: items in the report model (`kind: 'query'` input). */
export const customReportDraftSchema = z.object({
  name: z.string(),
  description: z.string().nullable(),
  reportType: customReportTypeSchema,
  config: z.object({ periodDays: z.number().int().nullable(), limit: z.number().int().nullable() }),
  items: z.array(
    z.object({
      displayName: z.string().nullable(),
      chart: z.enum(REPORT_CHARTS),
      query: z.custom<ReportQuery>(),
    }),
  ),
});

export const generateReportResponse = z.object({
  engine: z.enum(['builtin', 'llm']),
  model: z.string().optional(),
  draft: customReportDraftSchema,
  understood: z.array(z.string()),
  notFound: z.array(z.string()),
  /**
   * Questions back: a phrase that names more than one thing (two courses
   * both match "safety"); the draft leaves it out until one is chosen.
   */
  ambiguities: z.array(
    z.object({
      phrase: z.string(),
      message: z.string(),
      options: z.array(
        z.object({ kind: z.enum(['course', 'variable', 'question']), id: z.string(), label: z.string() }),
      ),
    }),
  ),
});
export type GenerateReportResponse = z.infer<typeof generateReportResponse>;

/** The organization's names the builder and the generator pick from (never e-mails). */
export const reportCatalogSchema = z.object({
  courses: z.array(z.object({ id: z.string(), courseTitle: z.string() })),
  variables: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      title: z.string().nullable(),
      dataType: z.string(),
      courseId: z.string(),
      courseTitle: z.string(),
    }),
  ),
  /**
   * The variables the organization's custom AI agents capture, by agent name
   * (a choice reads as text, as it is stored).
   */
  chatbotVariables: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      title: z.string().nullable(),
      dataType: z.string(),
      chatbotId: z.string(),
      chatbotName: z.string(),
    }),
  ),
  questions: z.array(
    z.object({
      id: z.string(),
      courseId: z.string(),
      courseTitle: z.string(),
      slideNumber: z.number().int().nullable(),
      questionNumber: z.number().int().nullable(),
      questionText: z.string().nullable(),
    }),
  ),
  /**
   * The values of text variables that are categories (department, region),
   * by variable name, most frequent first; free text never appears here.
   */
  values: z.array(z.object({ variableName: z.string(), values: z.array(z.string()) })),
});
export type ReportCatalog = z.infer<typeof reportCatalogSchema>;
