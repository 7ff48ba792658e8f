import { z } from 'zod';
import { uuidSchema } from './ids';

import { listQuerySchema, paginatedSchema } from './list';

/**
 * Custom reports (issue 6, items 5 to 7): a named selection of variables and
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
  duplicateVariable: 'A variable can be in a report only once',
  duplicateQuestion: 'A question can be in a report only once',
  identifierIncomplete: 'A question chosen by identifier needs a slide number, a question number or its text',
  numberInvalid: 'Slide and question numbers must be whole numbers from 0 to 100000',
  questionTextTooLong: 'Question text must be at most 2000 characters long',
  periodInvalid: `Period must be a whole number of days from 1 to ${MAX_REPORT_PERIOD_DAYS}`,
  limitInvalid: `Top N must be a whole number from 1 to ${MAX_REPORT_ROWS}`,
  unknownVariables: 'Some variables of the report do not exist in this organization',
  unknownQuestions: 'Some questions of the report do not exist in this organization',
  unknownCourses: 'Some courses of the report do not exist in this organization',
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

export const COMPARISON_TYPE_LABELS: Record<ComparisonType, string> = {
  by_learner: 'By learner',
  by_course: 'By course',
  over_time: 'Over time (weekly)',
};

// ---- input -------------------------------------------------------------------

const displayNameField = z
  .string()
  .trim()
  .max(MAX_REPORT_DISPLAY_NAME_LENGTH, CUSTOM_REPORT_MESSAGES.displayNameTooLong)
  .nullable()
  .optional()
  .transform((value) => (value ? value : null));

const itemCommon = {
  displayName: displayNameField,
  comparisonType: comparisonTypeSchema.default('by_learner'),
};

const itemNumber = z
  .number({ error: CUSTOM_REPORT_MESSAGES.numberInvalid })
  .int(CUSTOM_REPORT_MESSAGES.numberInvalid)
  .min(0, CUSTOM_REPORT_MESSAGES.numberInvalid)
  .max(100_000, CUSTOM_REPORT_MESSAGES.numberInvalid)
  .nullable()
  .optional()
  .transform((value) => value ?? null);

export const reportVariableItemInput = z
  .object({
    kind: z.literal('variable'),
    variableId: uuidSchema(CUSTOM_REPORT_MESSAGES.variableIdInvalid),
    ...itemCommon,
  })
  .strict();

export const reportQuestionItemInput = z
  .object({
    kind: z.literal('question'),
    questionId: uuidSchema(CUSTOM_REPORT_MESSAGES.questionIdInvalid),
    ...itemCommon,
  })
  .strict();

/** A question named by what people see (course, slide, number, text): it survives a republish. */
export const reportIdentifierItemInput = z
  .object({
    kind: z.literal('identifier'),
    courseId: uuidSchema(CUSTOM_REPORT_MESSAGES.courseIdInvalid),
    slideNumber: itemNumber,
    questionNumber: itemNumber,
    questionText: z
      .string()
      .trim()
      .max(2000, CUSTOM_REPORT_MESSAGES.questionTextTooLong)
      .nullable()
      .optional()
      .transform((value) => (value ? value : null)),
    ...itemCommon,
  })
  .strict()
  .refine((item) => item.slideNumber !== null || item.questionNumber !== null || item.questionText !== null, {
    error: CUSTOM_REPORT_MESSAGES.identifierIncomplete,
    path: ['questionNumber'],
  });

export const reportItemInput = z.discriminatedUnion('kind', [
  reportVariableItemInput,
  reportQuestionItemInput,
  reportIdentifierItemInput,
]);
export type ReportItemInput = z.input<typeof reportItemInput>;
export type ReportItem = z.output<typeof reportItemInput>;

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
  .strict()
  .superRefine((input, context) => {
    const variables = new Set<string>();
    const questions = new Set<string>();
    input.items.forEach((item, index) => {
      if (item.kind === 'variable') {
        if (variables.has(item.variableId)) {
          context.addIssue({
            code: 'custom',
            message: CUSTOM_REPORT_MESSAGES.duplicateVariable,
            path: ['items', index],
          });
        }
        variables.add(item.variableId);
      } else if (item.kind === 'question') {
        if (questions.has(item.questionId)) {
          context.addIssue({
            code: 'custom',
            message: CUSTOM_REPORT_MESSAGES.duplicateQuestion,
            path: ['items', index],
          });
        }
        questions.add(item.questionId);
      }
    });
  });
export type CustomReportInput = z.input<typeof customReportInput>;
export type CustomReportDraft = z.output<typeof customReportInput>;

export const customReportParams = z.object({
  reportId: uuidSchema(CUSTOM_REPORT_MESSAGES.notFound),
});
export const publicReportParams = z.object({ token: z.string() });

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
  })
  .strict();

// ---- output ------------------------------------------------------------------

/** An item as stored, with what it points at resolved for display. */
export const reportItemSchema = z.object({
  id: z.string(),
  kind: z.enum(['variable', 'question', 'identifier']),
  displayOrder: z.number().int(),
  displayName: z.string().nullable(),
  comparisonType: comparisonTypeSchema,
  variableId: z.string().nullable(),
  questionId: z.string().nullable(),
  courseId: z.string().nullable(),
  slideNumber: z.number().int().nullable(),
  questionNumber: z.number().int().nullable(),
  questionText: z.string().nullable(),
  /** What the item is called when it has no display name (variable title or name, question text). */
  label: z.string(),
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

/** One group of an item's breakdown: a learner, a course or a week. */
export const reportDataRowSchema = z.object({
  key: z.string(),
  label: z.string(),
  /** Values (variables) or answers (questions) in the group. */
  count: z.number().int().nonnegative(),
  learners: z.number().int().nonnegative(),
  mean: z.number().nullable(),
  min: z.number().nullable(),
  max: z.number().nullable(),
  /** Share of true values (boolean variables) or of correct answers (questions), 0 to 1. */
  rate: z.number().nullable(),
  /** Questions: points earned in the group. */
  points: z.number().nullable(),
  /** By learner: the latest value as recorded (variables) or the last answer (questions). */
  value: z.string().nullable(),
});
export type ReportDataRow = z.infer<typeof reportDataRowSchema>;

export const reportItemDataSchema = z.object({
  itemId: z.string(),
  kind: z.enum(['variable', 'question', 'identifier']),
  /** The display name, else the item's label. */
  title: z.string(),
  comparisonType: comparisonTypeSchema,
  courseTitle: z.string().nullable(),
  dataType: z.string().nullable(),
  /** False when what the item names is gone (its course deleted): it has no data. */
  available: z.boolean(),
  totals: reportDataRowSchema.omit({ key: true, label: true, value: true }),
  rows: z.array(reportDataRowSchema),
  /** True when there were more groups than the rows returned. */
  truncated: z.boolean(),
});
export type ReportItemData = z.infer<typeof reportItemDataSchema>;

export const reportDataSchema = z.object({
  generatedAt: z.string(),
  /** Start of the period when the report is limited to the last N days. */
  since: z.string().nullable(),
  items: z.array(reportItemDataSchema),
});
export type ReportData = z.infer<typeof reportDataSchema>;

export const customReportDataResponse = z.object({ data: reportDataSchema });

/** `GET /api/public-reports/:token`: what a visitor sees; nothing about who made it, no e-mail. */
export const publicReportResponse = z.object({
  report: z.object({
    name: z.string(),
    description: z.string().nullable(),
    reportType: customReportTypeSchema,
    config: customReportConfigSchema,
    items: z.array(
      z.object({
        id: z.string(),
        kind: z.enum(['variable', 'question', 'identifier']),
        title: z.string(),
        comparisonType: comparisonTypeSchema,
      }),
    ),
    updatedAt: z.string(),
  }),
  data: reportDataSchema,
});
export type PublicReportResponse = z.infer<typeof publicReportResponse>;

/** The output of `customReportInput` as plain JSON (responses carry no transforms). */
const draftItemCommon = { displayName: z.string().nullable(), comparisonType: comparisonTypeSchema };
export const customReportDraftSchema = z.object({
  name: z.string(),
  description: z.string().nullable(),
  reportType: customReportTypeSchema,
  config: z.object({ periodDays: z.number().int().nullable(), limit: z.number().int().nullable() }),
  items: z.array(
    z.discriminatedUnion('kind', [
      z.object({ kind: z.literal('variable'), variableId: z.string(), ...draftItemCommon }),
      z.object({ kind: z.literal('question'), questionId: z.string(), ...draftItemCommon }),
      z.object({
        kind: z.literal('identifier'),
        courseId: z.string(),
        slideNumber: z.number().int().nullable(),
        questionNumber: z.number().int().nullable(),
        questionText: z.string().nullable(),
        ...draftItemCommon,
      }),
    ]),
  ),
});

export const generateReportResponse = z.object({
  engine: z.enum(['builtin', 'llm']),
  model: z.string().optional(),
  draft: customReportDraftSchema,
  understood: z.array(z.string()),
  notFound: z.array(z.string()),
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
});
export type ReportCatalog = z.infer<typeof reportCatalogSchema>;
