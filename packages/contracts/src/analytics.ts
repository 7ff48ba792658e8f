import { z } from 'zod';
import { isTimeZone } from './actions';
import { uuidSchema } from './ids';
import { LEARNING_MESSAGES } from './courses';
import { VARIABLE_REPORT_MESSAGES } from './variable-reports';

/**
 * Analytics settings: one document per organization that every analytics
 * screen (and the dashboard) reads, so "what counts" is decided once: the
 * time zone days and hours are counted in, the pass mark of each course,
 * what completes a course, the test accounts left out, which attempts item
 * analysis reads and the default funnel window.
 */

/** What completes a course for analytics: a completion event, a pass, or viewing the course's last slide. */
export const COMPLETION_RULES = ['completed', 'passed', 'last_slide'] as const;
export type CompletionRule = (typeof COMPLETION_RULES)[number];

export const COMPLETION_RULE_LABELS: Record<CompletionRule, string> = {
  completed: 'The course reports it completed',
  passed: 'The learner passes (score at or above the pass mark)',
  last_slide: 'The learner views the course’s last slide',
};

/** Which of a learner's runs of a course item analysis reads. */
export const ITEM_ANALYSIS_ATTEMPTS = ['first', 'highest', 'last', 'all'] as const;
export type ItemAnalysisAttempts = (typeof ITEM_ANALYSIS_ATTEMPTS)[number];

export const ITEM_ANALYSIS_ATTEMPT_LABELS: Record<ItemAnalysisAttempts, string> = {
  first: 'Each learner’s first finished run',
  highest: 'Each learner’s highest-scoring finished run',
  last: 'Each learner’s last finished run',
  all: 'Every finished run',
};

export const MAX_EXCLUDED_DOMAINS = 50;
export const MAX_EXCLUDED_EMAILS = 1_000;
export const MAX_COURSE_PASS_MARKS = 500;
export const MAX_FUNNEL_WINDOW_DAYS = 365;
export const MAX_INACTIVE_DAYS = 365;

export const ANALYTICS_MESSAGES = {
  invalidTimeZone: 'Choose a time zone from the list (for example Europe/Berlin)',
  invalidPassMark: 'A pass mark is a percentage from 0 to 100',
  invalidDomain: 'Enter e-mail domains such as example.com, without the @',
  invalidEmail: 'Enter e-mail addresses such as test.user@example.com',
  tooManyDomains: `Exclude at most ${MAX_EXCLUDED_DOMAINS} domains`,
  tooManyEmails: `Exclude at most ${MAX_EXCLUDED_EMAILS} e-mail addresses`,
  invalidWindow: `The conversion window is a whole number of days from 1 to ${MAX_FUNNEL_WINDOW_DAYS}`,
  invalidInactiveDays: `Inactive means a whole number of days from 1 to ${MAX_INACTIVE_DAYS}`,
  duplicateCourse: 'Each course can have one pass mark',
  courseRequired: 'Choose a course',
  funnelNotFound: 'Funnel not found',
  insightNotFound: 'Insight not found',
} as const;

const DOMAIN = /^(?=.{3,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

const passMark = z
  .number({ error: ANALYTICS_MESSAGES.invalidPassMark })
  .min(0, { error: ANALYTICS_MESSAGES.invalidPassMark })
  .max(100, { error: ANALYTICS_MESSAGES.invalidPassMark });

const domain = z
  .string({ error: ANALYTICS_MESSAGES.invalidDomain })
  .trim()
  .toLowerCase()
  .transform((value) => value.replace(/^@/, ''))
  .pipe(z.string().regex(DOMAIN, { error: ANALYTICS_MESSAGES.invalidDomain }));

const email = z
  .string({ error: ANALYTICS_MESSAGES.invalidEmail })
  .trim()
  .toLowerCase()
  .pipe(
    z.email({ error: ANALYTICS_MESSAGES.invalidEmail }).max(254, { error: ANALYTICS_MESSAGES.invalidEmail }),
  );

const dedupe = (values: string[]) => [...new Set(values)];

export const coursePassMarkSchema = z.object({
  courseId: uuidSchema(LEARNING_MESSAGES.courseNotFound),
  passMark,
});
export type CoursePassMark = z.infer<typeof coursePassMarkSchema>;

/** Each setting's rule, without its default (a PATCH sends only what changes). */
const settingsFields = {
  timeZone: z
    .string({ error: ANALYTICS_MESSAGES.invalidTimeZone })
    .trim()
    .refine(isTimeZone, { error: ANALYTICS_MESSAGES.invalidTimeZone }),
  defaultPassMark: passMark,
  coursePassMarks: z
    .array(coursePassMarkSchema)
    .max(MAX_COURSE_PASS_MARKS)
    .refine((marks) => new Set(marks.map((mark) => mark.courseId)).size === marks.length, {
      error: ANALYTICS_MESSAGES.duplicateCourse,
    }),
  completion: z.enum(COMPLETION_RULES, { error: `Completion is one of ${COMPLETION_RULES.join(', ')}` }),
  excludedDomains: z
    .array(domain)
    .max(MAX_EXCLUDED_DOMAINS, { error: ANALYTICS_MESSAGES.tooManyDomains })
    .transform(dedupe),
  excludedEmails: z
    .array(email)
    .max(MAX_EXCLUDED_EMAILS, { error: ANALYTICS_MESSAGES.tooManyEmails })
    .transform(dedupe),
  itemAnalysisAttempts: z.enum(ITEM_ANALYSIS_ATTEMPTS, {
    error: `Attempts is one of ${ITEM_ANALYSIS_ATTEMPTS.join(', ')}`,
  }),
  funnelWindowDays: z
    .number({ error: ANALYTICS_MESSAGES.invalidWindow })
    .int({ error: ANALYTICS_MESSAGES.invalidWindow })
    .min(1, { error: ANALYTICS_MESSAGES.invalidWindow })
    .max(MAX_FUNNEL_WINDOW_DAYS, { error: ANALYTICS_MESSAGES.invalidWindow }),
  inactiveDays: z
    .number({ error: ANALYTICS_MESSAGES.invalidInactiveDays })
    .int({ error: ANALYTICS_MESSAGES.invalidInactiveDays })
    .min(1, { error: ANALYTICS_MESSAGES.invalidInactiveDays })
    .max(MAX_INACTIVE_DAYS, { error: ANALYTICS_MESSAGES.invalidInactiveDays }),
};

const nothingToChange = `Nothing to change: send at least one of ${Object.keys(settingsFields).join(', ')}`;

/** The whole settings document: every field has a default, so `{}` is the defaults. */
export const analyticsSettingsInput = z.object({
  timeZone: settingsFields.timeZone.default('UTC'),
  defaultPassMark: settingsFields.defaultPassMark.default(70),
  coursePassMarks: settingsFields.coursePassMarks.default([]),
  completion: settingsFields.completion.default('completed'),
  excludedDomains: settingsFields.excludedDomains.default([]),
  excludedEmails: settingsFields.excludedEmails.default([]),
  itemAnalysisAttempts: settingsFields.itemAnalysisAttempts.default('first'),
  funnelWindowDays: settingsFields.funnelWindowDays.default(14),
  inactiveDays: settingsFields.inactiveDays.default(30),
});

/** What an owner sends: the settings to change (the others keep their value). */
export const analyticsSettingsPatch = z
  .object({
    timeZone: settingsFields.timeZone.optional(),
    defaultPassMark: settingsFields.defaultPassMark.optional(),
    coursePassMarks: settingsFields.coursePassMarks.optional(),
    completion: settingsFields.completion.optional(),
    excludedDomains: settingsFields.excludedDomains.optional(),
    excludedEmails: settingsFields.excludedEmails.optional(),
    itemAnalysisAttempts: settingsFields.itemAnalysisAttempts.optional(),
    funnelWindowDays: settingsFields.funnelWindowDays.optional(),
    inactiveDays: settingsFields.inactiveDays.optional(),
  })
  .refine((patch) => Object.values(patch).some((value) => value !== undefined), { error: nothingToChange });
export type AnalyticsSettingsPatch = z.input<typeof analyticsSettingsPatch>;
export type AnalyticsSettingsChanges = z.output<typeof analyticsSettingsPatch>;
export type AnalyticsSettingsInput = z.input<typeof analyticsSettingsInput>;
export type AnalyticsSettings = z.output<typeof analyticsSettingsInput>;

export const DEFAULT_ANALYTICS_SETTINGS: AnalyticsSettings = analyticsSettingsInput.parse({});

/** The settings as the server answers them (every field present, nothing to transform). */
export const analyticsSettingsSchema = z.object({
  timeZone: z.string(),
  defaultPassMark: z.number(),
  coursePassMarks: z.array(z.object({ courseId: z.string(), passMark: z.number() })),
  completion: z.enum(COMPLETION_RULES),
  excludedDomains: z.array(z.string()),
  excludedEmails: z.array(z.string()),
  itemAnalysisAttempts: z.enum(ITEM_ANALYSIS_ATTEMPTS),
  funnelWindowDays: z.number().int(),
  inactiveDays: z.number().int(),
}) satisfies z.ZodType<AnalyticsSettings>;

export const analyticsSettingsResponse = z.object({
  settings: analyticsSettingsSchema,
  /** Courses named in `coursePassMarks`, for the form's labels. */
  courses: z.array(z.object({ id: z.string(), title: z.string() })),
  /** Learners the exclusions leave out now, of all the organization's learners. */
  excludedLearners: z.number().int(),
  totalLearners: z.number().int(),
  updatedAt: z.string().nullable(),
  canEdit: z.boolean(),
});
export type AnalyticsSettingsResponse = z.infer<typeof analyticsSettingsResponse>;

/**
 * What every analytics answer says about how it was computed, so a screen
 * can say it where it matters ("Times in Europe/Berlin · 3 test accounts
 * left out").
 */
export const analyticsBasisSchema = z.object({
  timeZone: z.string(),
  completion: z.enum(COMPLETION_RULES),
  excludedLearners: z.number().int(),
  /** When the figures were computed: the moment the data they count was read. */
  computedAt: z.string(),
  /**
   * True when learning data arrived since `computedAt` and newer figures are
   * being computed: a slow answer over many learners is served as it was a
   * moment ago meanwhile (decision 022).
   */
  refreshing: z.boolean(),
});
export type AnalyticsBasis = z.infer<typeof analyticsBasisSchema>;

/** A period most analytics screens take: ISO days, inclusive, in the organization's time zone. */
const isoDay = z.iso.date({ error: 'Dates are YYYY-MM-DD' });
export const analyticsPeriodQuery = z
  .object({
    from: isoDay.optional(),
    to: isoDay.optional(),
  })
  .refine((query) => !query.from || !query.to || query.from <= query.to, {
    error: VARIABLE_REPORT_MESSAGES.dateRangeReversed,
    path: ['to'],
  });
export type AnalyticsPeriodQuery = z.infer<typeof analyticsPeriodQuery>;

export const analyticsCourseQuery = z.object({
  courseId: uuidSchema(LEARNING_MESSAGES.courseNotFound),
});

/** The findings the scheduled insight job looks for. */
export const INSIGHT_KINDS = [
  'answer_key',
  'hard_question',
  'drop_off_slide',
  'rate_change',
  'inactive_rising',
] as const;
export type InsightKind = (typeof INSIGHT_KINDS)[number];

export const INSIGHT_SEVERITIES = ['info', 'warning', 'critical'] as const;
export type InsightSeverity = (typeof INSIGHT_SEVERITIES)[number];
