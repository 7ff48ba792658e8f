/**
 * Calendar arithmetic on ISO days (YYYY-MM-DD): whole days, no clock
 * involved, the same in the browser and on the server. Periods on every
 * analytics screen are local days of the organization's time zone; these
 * move between them.
 */

/** Whole days from the ISO day `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

/** The ISO day `days` after `day` (before it when negative). */
export function addDays(day: string, days: number): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

/** The period of the same length that ends the day before `period` starts. */
export function previousPeriodOf(period: { from: string; to: string }): { from: string; to: string } {
  const days = daysBetween(period.from, period.to) + 1;
  return { from: addDays(period.from, -days), to: addDays(period.from, -1) };
}

/** Today's date (YYYY-MM-DD) on the clock of `timeZone`. */
export function localToday(timeZone: string, now: Date = new Date()): string {
  // en-CA writes dates as YYYY-MM-DD.
  return new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(now);
}
