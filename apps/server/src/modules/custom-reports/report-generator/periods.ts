import type { PeriodUnit, ReportPeriod } from '@courselens/contracts';
import type { Token } from './text';

// Periods in words: "this month", "last quarter", "the last 30 days",
// "since March", "in Q3 2025", "January", "from 2026-01-01 to 2026-03-31",
// "year to date". A month or quarter without a year is the latest one that
// has begun (in May, "Q3" is last year's, "March" this year's).

export type ReadPeriod = { period: NonNullable<ReportPeriod>; label: string; used: number[] };

const MONTHS = [
  ['january', 'jan'],
  ['february', 'feb'],
  ['march', 'mar'],
  ['april', 'apr'],
  ['may'],
  ['june', 'jun'],
  ['july', 'jul'],
  ['august', 'aug'],
  ['september', 'sep', 'sept'],
  ['october', 'oct'],
  ['november', 'nov'],
  ['december', 'dec'],
] as const;
const MONTH_NAMES = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
const UNITS: Record<string, PeriodUnit | 'day'> = {
  day: 'day',
  week: 'week',
  month: 'month',
  quarter: 'quarter',
  year: 'year',
};
const UNIT_DAYS: Record<PeriodUnit | 'day', number> = { day: 1, week: 7, month: 30, quarter: 91, year: 365 };
const ORDINALS: Record<string, number> = {
  first: 1,
  '1st': 1,
  second: 2,
  '2nd': 2,
  third: 3,
  '3rd': 3,
  fourth: 4,
  '4th': 4,
};
/** Words before a period that belong to it ("in the last 30 days"). */
const LEAD_WORDS = new Set(['in', 'during', 'over', 'within', 'for', 'the', 'of']);

function monthOf(
  token: Token | undefined,
  previous: Token | undefined,
  next: Token | undefined,
): number | null {
  if (!token) return null;
  const index = MONTHS.findIndex((names) => (names as readonly string[]).includes(token.surface));
  if (index < 0) return null;
  // "may" is mostly a verb: a month only after a preposition or before a year.
  if (token.surface === 'may') {
    const isDated =
      ['in', 'since', 'during', 'from', 'of', 'until', 'to', 'and'].includes(previous?.surface ?? '') ||
      yearOf(next) !== null;
    if (!isDated) return null;
  }
  return index;
}

function yearOf(token: Token | undefined): number | null {
  if (!token || !/^\d{4}$/.test(token.surface)) return null;
  const year = Number(token.surface);
  return year >= 2000 && year <= 2099 ? year : null;
}

const pad = (value: number) => String(value).padStart(2, '0');
const day = (year: number, month: number, date: number) => {
  const value = new Date(Date.UTC(year, month, date));
  return `${value.getUTCFullYear()}-${pad(value.getUTCMonth() + 1)}-${pad(value.getUTCDate())}`;
};
const today = (now: Date) => day(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
const monthStart = (year: number, month: number) => day(year, month, 1);
const monthEnd = (year: number, month: number) => day(year, month + 1, 0);

function readable(date: string): string {
  const [year, month, dayOfMonth] = date.split('-').map(Number);
  return `${dayOfMonth} ${MONTH_NAMES[(month ?? 1) - 1]?.slice(0, 3)} ${year}`;
}

function between(from: string, to: string, used: number[]): ReadPeriod {
  const [first, last] = from <= to ? [from, to] : [to, from];
  return {
    period: { kind: 'between', from: first, to: last },
    label: `${readable(first)} to ${readable(last)}`,
    used,
  };
}

/** The latest year in which the month (0-11) has begun. */
function latestYear(month: number, now: Date): number {
  return month <= now.getUTCMonth() ? now.getUTCFullYear() : now.getUTCFullYear() - 1;
}

/** Reads the first period the tokens name; `isFree(i)` says whether token i is still unread. */
export function readPeriod(
  tokens: readonly Token[],
  isFree: (index: number) => boolean,
  now: Date,
): ReadPeriod | null {
  const at = (index: number) =>
    index >= 0 && index < tokens.length && isFree(index) ? tokens[index] : undefined;
  const word = (index: number) => at(index)?.surface ?? '';
  const unitAt = (index: number) => UNITS[at(index)?.stem ?? ''] ?? null;
  const withLead = (start: number, used: number[]): number[] => {
    const lead: number[] = [];
    for (let index = start - 1; index >= 0 && LEAD_WORDS.has(word(index)); index -= 1) lead.push(index);
    return [...lead, ...used];
  };

  for (let i = 0; i < tokens.length; i += 1) {
    if (!at(i)) continue;
    const surface = word(i);

    if (surface === 'ytd' || (surface === 'year' && word(i + 1) === 'to' && word(i + 2) === 'date')) {
      const used = surface === 'ytd' ? [i] : [i, i + 1, i + 2];
      return { period: { kind: 'this', unit: 'year' }, label: 'this year', used: withLead(i, used) };
    }

    if (surface === 'this' || surface === 'current') {
      const unit = unitAt(i + 1);
      if (unit && unit !== 'day') {
        return { period: { kind: 'this', unit }, label: `this ${unit}`, used: withLead(i, [i, i + 1]) };
      }
      if (unit === 'day') return between(today(now), today(now), withLead(i, [i, i + 1]));
    }

    if (['last', 'past', 'previous', 'prior', 'recent'].includes(surface)) {
      const amount = at(i + 1)?.number ?? null;
      const unit = amount !== null ? unitAt(i + 2) : unitAt(i + 1);
      if (amount !== null && unit) {
        // Months and years as days; twelve months are a year.
        const days =
          unit === 'month' && amount % 12 === 0 ? (amount / 12) * 365 : Math.round(amount * UNIT_DAYS[unit]);
        const clamped = Math.min(Math.max(days, 1), 3660);
        return {
          period: { kind: 'last_days', days: clamped },
          label: `the last ${amount} ${unit}${amount === 1 ? '' : 's'}`,
          used: withLead(i, [i, i + 1, i + 2]),
        };
      }
      if (unit) {
        const used = withLead(i, [i, i + 1]);
        if (unit === 'day') {
          const yesterday = day(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - 1);
          return between(yesterday, yesterday, used);
        }
        // "The past month" is the 30 days up to now; "last month" the calendar month before this one.
        if (surface === 'past' && unit !== 'quarter') {
          return { period: { kind: 'last_days', days: UNIT_DAYS[unit] }, label: `the past ${unit}`, used };
        }
        return { period: { kind: 'last', unit }, label: `last ${unit}`, used };
      }
    }

    if (surface === 'today') return between(today(now), today(now), withLead(i, [i]));
    if (surface === 'yesterday') {
      const yesterday = day(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - 1);
      return between(yesterday, yesterday, withLead(i, [i]));
    }

    // Quarters: "Q3", "Q3 2025", "the third quarter".
    const quarterMatch = /^q([1-4])$/.exec(surface);
    const ordinal = ORDINALS[surface];
    const quarter = quarterMatch
      ? Number(quarterMatch[1])
      : ordinal && unitAt(i + 1) === 'quarter'
        ? ordinal
        : null;
    if (quarter !== null) {
      const next = quarterMatch ? i + 1 : i + 2;
      const explicitYear = yearOf(at(next));
      const firstMonth = (quarter - 1) * 3;
      const year = explicitYear ?? latestYear(firstMonth, now);
      const used = [i, ...(quarterMatch ? [] : [i + 1]), ...(explicitYear ? [next] : [])];
      const result = between(monthStart(year, firstMonth), monthEnd(year, firstMonth + 2), withLead(i, used));
      return { ...result, label: `Q${quarter} ${year}` };
    }

    // "since March", "since 2026-02-01", "since 2025".
    if (surface === 'since' || surface === 'from') {
      const start = readDate(i + 1);
      if (start) {
        const [to, toUsed] =
          surface === 'from' && ['to', 'until', 'till'].includes(word(start.next))
            ? endDate(start.next + 1)
            : [null, []];
        const used = [i, ...start.used, ...(to ? [start.next, ...toUsed] : [])];
        return between(start.from, to ?? today(now), used);
      }
    }
    if (surface === 'between') {
      const start = readDate(i + 1);
      if (start && word(start.next) === 'and') {
        const [to, toUsed] = endDate(start.next + 1);
        if (to) return between(start.from, to, [i, ...start.used, start.next, ...toUsed]);
      }
    }

    // A month ("in January", "March 2025"), a year ("in 2025") or a day.
    const month = monthOf(at(i), at(i - 1), at(i + 1));
    if (month !== null) {
      const explicitYear = yearOf(at(i + 1));
      const year = explicitYear ?? latestYear(month, now);
      const used = withLead(i, explicitYear ? [i, i + 1] : [i]);
      const result = between(monthStart(year, month), monthEnd(year, month), used);
      return { ...result, label: `${MONTH_NAMES[month]} ${year}` };
    }
    const year = yearOf(at(i));
    if (year !== null && ['in', 'during', 'for', 'of'].includes(word(i - 1))) {
      const result = between(`${year}-01-01`, `${year}-12-31`, withLead(i, [i]));
      return { ...result, label: String(year) };
    }
    if (/^\d{4}-\d{2}-\d{2}$/.test(surface) && !Number.isNaN(Date.parse(`${surface}T00:00:00Z`))) {
      return between(surface, surface, withLead(i, [i]));
    }
  }
  return null;

  /** A start date at `index`: an ISO day, a month (with or without a year) or a year. */
  function readDate(index: number): { from: string; used: number[]; next: number } | null {
    const token = at(index);
    if (!token) return null;
    if (
      /^\d{4}-\d{2}-\d{2}$/.test(token.surface) &&
      !Number.isNaN(Date.parse(`${token.surface}T00:00:00Z`))
    ) {
      return { from: token.surface, used: [index], next: index + 1 };
    }
    const month = monthOf(token, { ...token, surface: 'since' }, at(index + 1));
    if (month !== null) {
      const explicitYear = yearOf(at(index + 1));
      const year = explicitYear ?? latestYear(month, now);
      return {
        from: monthStart(year, month),
        used: explicitYear ? [index, index + 1] : [index],
        next: explicitYear ? index + 2 : index + 1,
      };
    }
    const year = yearOf(token);
    if (year !== null) return { from: `${year}-01-01`, used: [index], next: index + 1 };
    return null;
  }

  /** An end date at `index`: the last day of the month or year named, or the ISO day. */
  function endDate(index: number): [string | null, number[]] {
    const token = at(index);
    if (!token) return [null, []];
    if (
      /^\d{4}-\d{2}-\d{2}$/.test(token.surface) &&
      !Number.isNaN(Date.parse(`${token.surface}T00:00:00Z`))
    ) {
      return [token.surface, [index]];
    }
    const month = monthOf(token, { ...token, surface: 'to' }, at(index + 1));
    if (month !== null) {
      const explicitYear = yearOf(at(index + 1));
      const year = explicitYear ?? latestYear(month, now);
      return [monthEnd(year, month), explicitYear ? [index, index + 1] : [index]];
    }
    const year = yearOf(token);
    if (year !== null) return [`${year}-12-31`, [index]];
    if (token.surface === 'today' || token.surface === 'now') return [today(now), [index]];
    return [null, []];
  }
}
