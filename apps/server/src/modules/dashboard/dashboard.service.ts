import {
  DASHBOARD_RECENT_ACTIVITY,
  DASHBOARD_TOP_LIMIT,
  HARDEST_QUESTIONS_MIN_RESPONSES,
  type DashboardPeriod,
  type DashboardResponse,
} from '@courselens/contracts';
import type { Database } from '../../db/client';
import { listRecentActivity } from '../activity/activity.service';
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

/**
 * The organization's overview: totals, activity in the period, runs per day,
 * top courses, hardest questions and the latest activity. Every figure is
 * aggregated in the database; the statements run side by side (on
 * PostgreSQL each takes its own pooled connection).
 */
export async function getDashboard(
  db: Database,
  input: { organizationId: string; days: DashboardPeriod },
  now: Date = new Date(),
): Promise<DashboardResponse> {
  const { organizationId } = input;
  const bounds = periodBounds(input.days, now);
  const [learners, coursesAndEvents, runs, responses, runsPerDay, topCourses, recent, pendingFacts] =
    await Promise.all([
      countLearners(db, organizationId, bounds, now),
      countCoursesAndEvents(db, organizationId),
      countCourseRuns(db, organizationId, bounds),
      summarizeResponses(db, organizationId, bounds, {
        minResponses: HARDEST_QUESTIONS_MIN_RESPONSES,
        limit: DASHBOARD_TOP_LIMIT,
      }),
      listRunsPerDay(db, organizationId, bounds),
      listTopCourses(db, organizationId, bounds, DASHBOARD_TOP_LIMIT),
      listRecentActivity(db, organizationId, DASHBOARD_RECENT_ACTIVITY),
      countPendingFacts(db, organizationId),
    ]);
  return {
    period: {
      days: input.days,
      from: isoDay(bounds.from),
      to: isoDay(new Date(bounds.end.getTime() - DAY_MS)),
    },
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
      date: isoDay(new Date(bounds.from.getTime() + day * DAY_MS)),
      runs: count,
    })),
    topCourses,
    hardestQuestions: responses.hardestQuestions,
    minResponses: HARDEST_QUESTIONS_MIN_RESPONSES,
    recentActivity: recent,
    isEmpty: coursesAndEvents.courses === 0 && !coursesAndEvents.hasEvents,
    pendingFacts,
  };
}
