import {
  DEFAULT_OVERVIEW_DAYS,
  INSIGHT_MESSAGES,
  MAX_OVERVIEW_DAYS,
  OVERVIEW_TOP_INSIGHTS,
  addDays,
  daysBetween,
  localToday,
  figureChange,
  previousPeriodOf,
  type AnalyticsOverviewResponse,
  type OverviewDay,
  type OverviewFigure,
} from '@courselens/contracts';
import type { Database } from '../../db/client';
import { AppError } from '../../errors';
import { analyticsBasis, loadAnalyticsScope, type AnalyticsScope } from './analytics-settings.service';
import { listTopInsights } from './insights.service';
import { NO_OVERVIEW_FIGURES, selectOverviewDays, type OverviewDayRow } from './overview.queries';
import { recentAnalytics } from './recent-analytics';

/**
 * The period asked for, in local days: both ends as given, one end with
 * the default length beside it, none: the last 30 days, today included.
 */
export function resolveOverviewPeriod(
  query: { from?: string | undefined; to?: string | undefined },
  today: string,
): { from: string; to: string } {
  const to = query.to ?? (query.from && query.from > today ? query.from : today);
  const from = query.from ?? addDays(to, -(DEFAULT_OVERVIEW_DAYS - 1));
  if (daysBetween(from, to) + 1 > MAX_OVERVIEW_DAYS) {
    throw new AppError('VALIDATION_ERROR', INSIGHT_MESSAGES.periodTooLong, [
      { path: 'querystring.from', message: INSIGHT_MESSAGES.periodTooLong },
    ]);
  }
  return { from, to };
}

type Totals = Omit<OverviewDayRow, 'day'>;

function sum(rows: readonly OverviewDayRow[]): Totals {
  const totals: Totals = { ...NO_OVERVIEW_FIGURES };
  for (const row of rows) {
    for (const key of Object.keys(NO_OVERVIEW_FIGURES) as (keyof Totals)[]) totals[key] += Number(row[key]);
  }
  return totals;
}

const ratio = (part: number, whole: number) => (whole === 0 ? null : part / whole);

function figure(
  value: number | null,
  previous: number | null,
  samples?: { sample: number; previousSample: number },
): OverviewFigure {
  return { value, previous, change: figureChange(value, previous), ...samples };
}

/**
 * `/analytics`: the period's key figures beside the period before it (same
 * length), a trend per local day, and the top open insights.
 */
export async function getAnalyticsOverview(
  db: Database,
  input: { organizationId: string; from?: string | undefined; to?: string | undefined; now?: Date },
): Promise<AnalyticsOverviewResponse> {
  const scope = await loadAnalyticsScope(db, input.organizationId);
  const today = localToday(scope.settings.timeZone, input.now ?? new Date());
  const period = resolveOverviewPeriod(input, today);
  // The figures are kept as a whole; the insights are read every time, since
  // a dismissal changes them without moving the data version.
  const [figures, top] = await Promise.all([
    recentAnalytics(db, input.organizationId, 'overview', { period, today }, (current) =>
      overviewFigures(db, current, period, today),
    ),
    listTopInsights(db, input.organizationId, OVERVIEW_TOP_INSIGHTS),
  ]);
  return { ...figures, topInsights: top.insights, openInsights: top.open };
}

type OverviewFigures = Omit<AnalyticsOverviewResponse, 'topInsights' | 'openInsights'>;

async function overviewFigures(
  db: Database,
  scope: AnalyticsScope,
  period: { from: string; to: string },
  today: string,
): Promise<OverviewFigures> {
  const previous = previousPeriodOf(period);
  const [rows, basis] = await Promise.all([
    selectOverviewDays(db, scope, { previousFrom: previous.from, from: period.from, to: period.to }),
    analyticsBasis(db, scope),
  ]);
  const byDay = new Map(rows.days.map((row) => [row.day, row]));
  const current = sum(rows.days.filter((row) => row.day >= period.from));
  const before = sum(rows.days.filter((row) => row.day < period.from));
  const days = daysBetween(period.from, period.to) + 1;
  const trend: OverviewDay[] = Array.from({ length: days }, (_, index) => {
    const day = addDays(period.from, index);
    const row = byDay.get(day);
    return {
      day,
      activeLearners: row?.active ?? 0,
      runsStarted: row?.runs ?? 0,
      completedRuns: row?.completed ?? 0,
      gradedRuns: row?.graded ?? 0,
      passedRuns: row?.passed ?? 0,
      averageScore: row && row.scored > 0 ? row.scoreSum / row.scored : null,
      answers: row?.answers ?? 0,
      gradedAnswers: row?.gradedAnswers ?? 0,
      correctAnswers: row?.correct ?? 0,
    };
  });
  return {
    period: { ...period, days },
    previousPeriod: { ...previous, days },
    today,
    figures: {
      activeLearners: figure(rows.activeCurrent, rows.activePrevious),
      runsStarted: figure(current.runs, before.runs),
      completionRate: figure(ratio(current.completed, current.runs), ratio(before.completed, before.runs), {
        sample: current.runs,
        previousSample: before.runs,
      }),
      passRate: figure(ratio(current.passed, current.graded), ratio(before.passed, before.graded), {
        sample: current.graded,
        previousSample: before.graded,
      }),
      averageScore: figure(ratio(current.scoreSum, current.scored), ratio(before.scoreSum, before.scored), {
        sample: current.scored,
        previousSample: before.scored,
      }),
      answers: figure(current.answers, before.answers),
      correctRate: figure(
        ratio(current.correct, current.gradedAnswers),
        ratio(before.correct, before.gradedAnswers),
        { sample: current.gradedAnswers, previousSample: before.gradedAnswers },
      ),
    },
    trend,
    basis,
  };
}
