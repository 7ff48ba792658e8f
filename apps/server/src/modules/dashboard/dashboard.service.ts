import {
  DASHBOARD_RECENT_ACTIVITY,
  DASHBOARD_TOP_LIMIT,
  HARDEST_QUESTIONS_MIN_RESPONSES,
  type DashboardPeriod,
  localToday,
  type DashboardResponse,
} from '@courselens/contracts';
import type { Database } from '../../db/client';
import { listRecentActivity } from '../activity/activity.service';
import { hasExclusions } from '../analytics/analytics-filters.queries';
import {
  analyticsBasis,
  loadAnalyticsScope,
  type AnalyticsScope,
} from '../analytics/analytics-settings.service';
import {
  countCourseRunsLocal,
  countLearnersLocal,
  listRunsPerDayLocal,
  listTopCoursesLocal,
  summarizeResponsesLocal,
  type LocalPeriod,
} from './dashboard-settings.queries';
import {
  countCourseRuns,
  countPendingFacts,
  countCoursesAndEvents,
  countLearners,
  listRunsPerDay,
  listTopCourses,
  summarizeResponses,
  type PeriodBounds,
} from './dashboard.queries';

const DAY_MS = 86_400_000;

const isoDay = (date: Date) => date.toISOString().slice(0, 10);

/**
 * The period of `days` whole UTC days that ends today: from the start of the
 * day `days - 1` days ago up to the start of tomorrow (exclusive).
 */
export function periodBounds(days: number, now: Date): PeriodBounds {
  const startOfToday = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return {
    days,
    from: new Date(startOfToday - (days - 1) * DAY_MS),
    end: new Date(startOfToday + DAY_MS),
  };
}

/** The `days` local days that end today in `timeZone`. */
export function localPeriod(days: number, now: Date, timeZone: string): LocalPeriod {
  const toDay = localToday(timeZone, now);
  const fromDay = isoDay(new Date(Date.parse(`${toDay}T00:00:00Z`) - (days - 1) * DAY_MS));
  return { fromDay, toDay, days };
}

/** Whether the rollups (whole UTC days, every learner) already count as the settings ask. */
function rollupsFit(scope: AnalyticsScope): boolean {
  return scope.settings.timeZone === 'UTC' && !hasExclusions(scope.settings);
}

/** The figures of the period, from the rollups or, when the settings need it, from the facts themselves. */
async function periodFigures(db: Database, scope: AnalyticsScope, days: DashboardPeriod, now: Date) {
  const { organizationId } = scope;
  if (rollupsFit(scope)) {
    const bounds = periodBounds(days, now);
    const [learners, runs, responses, runsPerDay, topCourses] = await Promise.all([
      countLearners(db, organizationId, bounds, now),
      countCourseRuns(db, organizationId, bounds),
      summarizeResponses(db, organizationId, bounds, {
        minResponses: HARDEST_QUESTIONS_MIN_RESPONSES,
        limit: DASHBOARD_TOP_LIMIT,
      }),
      listRunsPerDay(db, organizationId, bounds),
      listTopCourses(db, organizationId, bounds, DASHBOARD_TOP_LIMIT),
    ]);
    const period = {
      fromDay: isoDay(bounds.from),
      toDay: isoDay(new Date(bounds.end.getTime() - DAY_MS)),
      days,
    };
    return { period, learners, runs, responses, runsPerDay, topCourses };
  }
  const period = localPeriod(days, now, scope.settings.timeZone);
  const [learners, runs, responses, runsPerDay, topCourses] = await Promise.all([
    countLearnersLocal(db, scope, period, now),
    countCourseRunsLocal(db, scope, period),
    summarizeResponsesLocal(db, scope, period, {
      minResponses: HARDEST_QUESTIONS_MIN_RESPONSES,
      limit: DASHBOARD_TOP_LIMIT,
    }),
    listRunsPerDayLocal(db, scope, period),
    listTopCoursesLocal(db, scope, period, DASHBOARD_TOP_LIMIT),
  ]);
  return { period, learners, runs, responses, runsPerDay, topCourses };
}

/**
 * The organization's overview: totals, activity in the period, runs per day,
 * top courses, hardest questions and the latest activity. Every figure is
 * aggregated in the database; the statements run side by side (on
 * PostgreSQL each takes its own pooled connection). The analytics settings
 * decide the clock the days are counted on and which learners count.
 */
export async function getDashboard(
  db: Database,
  input: { organizationId: string; days: DashboardPeriod },
  now: Date = new Date(),
): Promise<DashboardResponse> {
  const { organizationId } = input;
  const scope = await loadAnalyticsScope(db, organizationId);
  const [figures, coursesAndEvents, recent, pendingFacts, basis] = await Promise.all([
    periodFigures(db, scope, input.days, now),
    countCoursesAndEvents(db, organizationId),
    listRecentActivity(db, organizationId, DASHBOARD_RECENT_ACTIVITY),
    countPendingFacts(db, organizationId),
    analyticsBasis(db, scope),
  ]);
  const { period, learners, runs, responses, runsPerDay, topCourses } = figures;
  const firstDay = Date.parse(`${period.fromDay}T00:00:00Z`);
  return {
    period: { days: input.days, from: period.fromDay, to: period.toDay },
    totals: {
      learners: learners.total,
      courses: coursesAndEvents.courses,
      courseRuns: runs.total,
      responses: responses.total,
      activeLearners7d: learners.active7,
      activeLearners30d: learners.active30,
    },
    inPeriod: {
      newLearners: learners.newInPeriod,
      courseRuns: runs.inPeriod,
      responses: responses.inPeriod,
    },
    runsOverTime: runsPerDay.map(({ day, runs: count }) => ({
      date: isoDay(new Date(firstDay + day * DAY_MS)),
      runs: count,
    })),
    topCourses,
    hardestQuestions: responses.hardestQuestions,
    minResponses: HARDEST_QUESTIONS_MIN_RESPONSES,
    recentActivity: recent,
    isEmpty: coursesAndEvents.courses === 0 && !coursesAndEvents.hasEvents,
    pendingFacts,
    basis,
  };
}
