import { z } from 'zod';

import { activityItemSchema } from './activity';
import { analyticsBasisSchema } from './analytics';

/** The periods the dashboard offers, in days; the default is 30. */
export const DASHBOARD_PERIODS = [7, 30, 90] as const;
export type DashboardPeriod = (typeof DASHBOARD_PERIODS)[number];
export const DEFAULT_DASHBOARD_PERIOD: DashboardPeriod = 30;

/** A question is ranked among the hardest only once it has this many answers in the period. */
export const HARDEST_QUESTIONS_MIN_RESPONSES = 5;
/** Rows of each ranked list (top courses, hardest questions). */
export const DASHBOARD_TOP_LIMIT = 5;
/** Rows of the dashboard's recent-activity card. */
export const DASHBOARD_RECENT_ACTIVITY = 8;

export const DASHBOARD_MESSAGES = {
  badPeriod: `Days must be one of: ${DASHBOARD_PERIODS.join(', ')}`,
} as const;

/** `GET /api/dashboard?days=7|30|90`. */
export const dashboardQuerySchema = z.object({
  days: z
    .enum(DASHBOARD_PERIODS.map(String) as [`${DashboardPeriod}`, ...`${DashboardPeriod}`[]], {
      error: DASHBOARD_MESSAGES.badPeriod,
    })
    .default(`${DEFAULT_DASHBOARD_PERIOD}`)
    .transform((value) => Number(value) as DashboardPeriod),
});
export type DashboardQuery = z.input<typeof dashboardQuerySchema>;

const count = z.number().int().nonnegative();

export const dashboardResponse = z.object({
  period: z.object({
    days: z.number().int(),
    /** First day of the period (YYYY-MM-DD in the analytics time zone); the period runs from its start to now. */
    from: z.string(),
    /** Today (YYYY-MM-DD in the analytics time zone), the last day of the period. */
    to: z.string(),
  }),
  totals: z.object({
    learners: count,
    /** Live courses (a deleted course no longer counts). */
    courses: count,
    /** Course runs ("views") of live courses, all time. */
    courseRuns: count,
    /** Answers to questions of live courses, all time. */
    responses: count,
    /** Learners with any activity in the last 7 × 24 hours. */
    activeLearners7d: count,
    /** Learners with any activity in the last 30 × 24 hours. */
    activeLearners30d: count,
  }),
  /** The same figures within the period. */
  inPeriod: z.object({ newLearners: count, courseRuns: count, responses: count }),
  /** One entry per day of the period, oldest first, days without runs included as 0. */
  runsOverTime: z.array(z.object({ date: z.string(), runs: count })),
  /** Courses with the most runs in the period. */
  topCourses: z.array(
    z.object({
      id: z.string(),
      title: z.string(),
      externalCourseId: z.string().nullable(),
      runs: count,
      learners: count,
    }),
  ),
  /** Active questions with the lowest share of correct answers in the period (ties: more answers first). */
  hardestQuestions: z.array(
    z.object({
      id: z.string(),
      courseId: z.string(),
      courseTitle: z.string(),
      questionText: z.string().nullable(),
      interactionId: z.string(),
      slideNumber: z.number().int().nullable(),
      questionNumber: z.number().int().nullable(),
      responses: count,
      correctResponses: count,
      /** correctResponses / responses, from 0 to 1. */
      correctRate: z.number(),
    }),
  ),
  minResponses: z.number().int(),
  recentActivity: z.array(activityItemSchema),
  /** No live course and no ingested event yet: the web app shows how to get started. */
  isEmpty: z.boolean(),
  /**
   * Runs, values and answers stored but not yet counted in these figures
   * (the workers count them within seconds); 0 when the figures are current.
   */
  pendingFacts: count,
  /** How the figures were counted (the analytics settings' time zone and the test accounts left out). */
  basis: analyticsBasisSchema,
});
export type DashboardResponse = z.infer<typeof dashboardResponse>;
