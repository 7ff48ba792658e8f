import { z } from 'zod';
import { daysBetween } from './days';
import {
  ANALYTICS_MESSAGES,
  analyticsBasisSchema,
  analyticsPeriodQuery,
  INSIGHT_KINDS,
  INSIGHT_SEVERITIES,
  type InsightKind,
} from './analytics';
import { uuidSchema } from './ids';

/**
 * Insights (findings the scheduled job computes, each with its evidence, a
 * link to the screen that shows it and a dismiss) and the overview of
 * `/analytics` (the key figures of a period against the period before,
 * with the top insights).
 */

export const INSIGHT_KIND_LABELS: Record<InsightKind, string> = {
  answer_key: 'Answer key may be wrong',
  hard_question: 'Much harder question',
  drop_off_slide: 'Drop-off slide',
  rate_change: 'Rate changed',
  inactive_rising: 'Inactive learners rising',
};

export const INSIGHT_STATUSES = ['open', 'dismissed'] as const;
export type InsightStatus = (typeof INSIGHT_STATUSES)[number];

/** Findings the overview shows above its figures. */
export const OVERVIEW_TOP_INSIGHTS = 3;
/** The longest period the overview compares (a year, a leap day included). */
export const MAX_OVERVIEW_DAYS = 366;
/** The overview's period when none is asked: the last 30 days, today included. */
export const DEFAULT_OVERVIEW_DAYS = 30;
/** How often an organization may ask for its insights to be computed at once. */
export const INSIGHT_REFRESHES_PER_HOUR = 6;

export const INSIGHT_MESSAGES = {
  badStatus: `Status is one of ${INSIGHT_STATUSES.join(', ')}`,
  periodTooLong: `Choose a period of at most ${MAX_OVERVIEW_DAYS} days`,
  alreadyDismissed: 'This insight is already dismissed',
  notDismissed: 'This insight is not dismissed',
} as const;

/** `GET /api/analytics/insights?status=open|dismissed` (open when absent). */
export const analyticsInsightsQuery = z.object({
  status: z.enum(INSIGHT_STATUSES, { error: INSIGHT_MESSAGES.badStatus }).default('open'),
});
export type AnalyticsInsightsQuery = z.input<typeof analyticsInsightsQuery>;

export const insightIdParams = z.object({
  insightId: uuidSchema(ANALYTICS_MESSAGES.insightNotFound),
});

/** One figure of a finding's evidence, ready to show ("Correct answers", "18 %"). */
export const insightFigureSchema = z.object({ label: z.string(), value: z.string() });
export type InsightFigure = z.infer<typeof insightFigureSchema>;

export const analyticsInsightSchema = z.object({
  id: z.string(),
  kind: z.enum(INSIGHT_KINDS),
  severity: z.enum(INSIGHT_SEVERITIES),
  title: z.string(),
  body: z.string(),
  /** The figures behind the finding. */
  evidence: z.array(insightFigureSchema),
  /** The app path of the screen that shows it (`/analytics/questions?courseId=...`). */
  link: z.string(),
  linkLabel: z.string(),
  /** Orders the findings: larger is more important. */
  score: z.number(),
  courseId: z.string().nullable(),
  courseTitle: z.string().nullable(),
  computedAt: z.string(),
  dismissedAt: z.string().nullable(),
});
export type AnalyticsInsight = z.infer<typeof analyticsInsightSchema>;

export const analyticsInsightsResponse = z.object({
  status: z.enum(INSIGHT_STATUSES),
  /** Most important first. */
  insights: z.array(analyticsInsightSchema),
  counts: z.object({ open: z.number().int(), dismissed: z.number().int() }),
  /** When the findings were last computed for the organization (null: never yet). */
  lastComputedAt: z.string().nullable(),
  /** The weekly digest to owners: sent only when the server has SMTP set up. */
  digest: z.object({ isEmailConfigured: z.boolean(), schedule: z.string() }),
  basis: analyticsBasisSchema,
});
export type AnalyticsInsightsResponse = z.infer<typeof analyticsInsightsResponse>;

/** `GET /api/analytics/overview?from&to`: local days of the organization, at most a year. */
export const analyticsOverviewQuery = analyticsPeriodQuery.refine(
  (query) => !query.from || !query.to || daysBetween(query.from, query.to) + 1 <= MAX_OVERVIEW_DAYS,
  { error: INSIGHT_MESSAGES.periodTooLong, path: ['from'] },
);
export type AnalyticsOverviewQuery = z.input<typeof analyticsOverviewQuery>;

export const CHANGE_DIRECTIONS = ['up', 'down', 'flat'] as const;
export type ChangeDirection = (typeof CHANGE_DIRECTIONS)[number];

export const figureChangeSchema = z.object({
  /** Current minus previous, in the figure's unit (fractions for rates: 0.05 is 5 points). */
  absolute: z.number().nullable(),
  /** The change relative to the previous value, in percent; null when the previous value is 0 or unknown. */
  percent: z.number().nullable(),
  direction: z.enum(CHANGE_DIRECTIONS),
});
export type FigureChange = z.infer<typeof figureChangeSchema>;

/**
 * How a figure moved against the previous period. A rate of nothing (no
 * runs, no answers) is null, and so is its change; a relative change from 0
 * is not a number anyone can read ("n/a").
 */
export function figureChange(current: number | null, previous: number | null): FigureChange {
  if (current === null || previous === null) return { absolute: null, percent: null, direction: 'flat' };
  // Rounded so a rate that did not move does not read as +0.0000000001.
  const absolute = Math.round((current - previous) * 1e9) / 1e9;
  // `+ 0` turns a -0 (a tiny fall rounded away) into 0.
  const percent = previous === 0 ? null : Math.round((absolute / Math.abs(previous)) * 1000) / 10 + 0;
  return {
    absolute,
    percent,
    direction: absolute > 0 ? 'up' : absolute < 0 ? 'down' : 'flat',
  };
}

export const OVERVIEW_FIGURES = [
  'activeLearners',
  'runsStarted',
  'completionRate',
  'passRate',
  'averageScore',
  'answers',
  'correctRate',
] as const;
export type OverviewFigureId = (typeof OVERVIEW_FIGURES)[number];

/** `count`: a number of things; `rate`: a fraction 0..1; `score`: a score 0..100. */
export const OVERVIEW_FIGURE_UNITS: Record<OverviewFigureId, 'count' | 'rate' | 'score'> = {
  activeLearners: 'count',
  runsStarted: 'count',
  completionRate: 'rate',
  passRate: 'rate',
  averageScore: 'score',
  answers: 'count',
  correctRate: 'rate',
};

export const overviewFigureSchema = z.object({
  value: z.number().nullable(),
  previous: z.number().nullable(),
  change: figureChangeSchema,
  /** What a rate or mean is taken over (runs, graded runs, graded answers); absent for counts. */
  sample: z.number().int().optional(),
  previousSample: z.number().int().optional(),
});
export type OverviewFigure = z.infer<typeof overviewFigureSchema>;

const periodSchema = z.object({ from: z.string(), to: z.string(), days: z.number().int() });

export const overviewDaySchema = z.object({
  /** A local day of the organization (YYYY-MM-DD). */
  day: z.string(),
  activeLearners: z.number().int(),
  runsStarted: z.number().int(),
  completedRuns: z.number().int(),
  gradedRuns: z.number().int(),
  passedRuns: z.number().int(),
  averageScore: z.number().nullable(),
  answers: z.number().int(),
  gradedAnswers: z.number().int(),
  correctAnswers: z.number().int(),
});
export type OverviewDay = z.infer<typeof overviewDaySchema>;

export const analyticsOverviewResponse = z.object({
  period: periodSchema,
  previousPeriod: periodSchema,
  /** Today in the organization's time zone (the period may end on it: a day still going on). */
  today: z.string(),
  figures: z.object(
    Object.fromEntries(OVERVIEW_FIGURES.map((id) => [id, overviewFigureSchema])) as Record<
      OverviewFigureId,
      typeof overviewFigureSchema
    >,
  ),
  /** One entry per local day of the period, oldest first, days without activity as zeros. */
  trend: z.array(overviewDaySchema),
  topInsights: z.array(analyticsInsightSchema),
  openInsights: z.number().int(),
  basis: analyticsBasisSchema,
});
export type AnalyticsOverviewResponse = z.infer<typeof analyticsOverviewResponse>;
