/** The length of one point of a trend: a day, a week (from Monday) or a calendar month, in UTC. */
export type TrendInterval = 'day' | 'week' | 'month';

function periodEnd(start: Date, interval: TrendInterval): Date {
  const end = new Date(start);
  if (interval === 'day') end.setUTCDate(end.getUTCDate() + 1);
  else if (interval === 'week') end.setUTCDate(end.getUTCDate() + 7);
  else end.setUTCMonth(end.getUTCMonth() + 1);
  return end;
}

/**
 * True when the period that starts on `date` (YYYY-MM-DD, UTC) is not over
 * at `now`: its figures are a part of a period, not comparable with the
 * whole ones before it, so a chart marks it instead of showing a drop.
 */
export function isCurrentPeriod(date: string, interval: TrendInterval, now: Date = new Date()): boolean {
  const start = new Date(`${date.slice(0, 10)}T00:00:00Z`);
  if (Number.isNaN(start.getTime())) return false;
  return start.getTime() <= now.getTime() && now.getTime() < periodEnd(start, interval).getTime();
}

const PARTIAL_LABELS: Record<TrendInterval, string> = {
  day: 'Today so far',
  week: 'This week so far',
  month: 'This month so far',
};

/** What a chart's note calls the unfinished period ("This week so far"). */
export function partialPeriodLabel(interval: TrendInterval): string {
  return PARTIAL_LABELS[interval];
}
