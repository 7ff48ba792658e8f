import { EVERY_WORDS } from './lexicon';
import { stem, type Token } from './text';

// Schedules in words: "every Monday at 8am", "every weekday at 9:00", "every
// day at 6pm", "on the first of every month at 7am", "hourly". The result is
// a five-field cron expression (minute hour day-of-month month day-of-week),
// read in the organization's time zone when the pipeline runs.

export type ReadSchedule = {
  cron: string;
  /** Token positions the schedule was read from. */
  used: number[];
  /** What was assumed because the sentence did not say it ("at 09:00"). */
  assumed: string | null;
};

const DAY_NUMBERS: Readonly<Record<string, number>> = {
  sunday: 0,
  sun: 0,
  monday: 1,
  mon: 1,
  tuesday: 2,
  tue: 2,
  tues: 2,
  wednesday: 3,
  wed: 3,
  thursday: 4,
  thu: 4,
  thur: 4,
  thurs: 4,
  friday: 5,
  fri: 5,
  saturday: 6,
  sat: 6,
};

const ORDINALS: Readonly<Record<string, number>> = {
  first: 1,
  second: 2,
  third: 3,
  fourth: 4,
  fifth: 5,
  tenth: 10,
  fifteenth: 15,
  twentieth: 20,
};

function dayNumber(token: Token | undefined): number | null {
  if (!token) return null;
  const word = token.surface.replace(/s$/, '');
  return DAY_NUMBERS[word] ?? null;
}

function ordinal(token: Token | undefined): number | null {
  if (!token) return null;
  const numbered = /^(\d{1,2})(st|nd|rd|th)$/.exec(token.surface);
  if (numbered) return Number(numbered[1]);
  return ORDINALS[token.surface] ?? null;
}

/** A time of day from the words at `position`: "8am", "9:00", "6 pm", "noon"; with how many words it took. */
export function readTime(
  tokens: readonly Token[],
  position: number,
): { hour: number; minute: number; length: number } | null {
  const token = tokens[position];
  if (!token) return null;
  if (token.surface === 'noon' || token.surface === 'midday') return { hour: 12, minute: 0, length: 1 };
  if (token.surface === 'midnight') return { hour: 0, minute: 0, length: 1 };
  const match = /^(\d{1,2})(?::(\d{2}))?(am|pm)?$/.exec(token.surface);
  if (!match) return null;
  let hour = Number(match[1]);
  const minute = match[2] === undefined ? 0 : Number(match[2]);
  let meridiem = match[3] ?? null;
  let length = 1;
  const next = tokens[position + 1]?.surface;
  if (!meridiem && (next === 'am' || next === 'pm')) {
    meridiem = next;
    length = 2;
  } else if (!meridiem && next === 'o' && tokens[position + 2]?.surface === 'clock') {
    length = 3;
  }
  if (meridiem) {
    if (hour < 1 || hour > 12) return null;
    hour = (hour % 12) + (meridiem === 'pm' ? 12 : 0);
  }
  if (hour > 23 || minute > 59) return null;
  return { hour, minute, length };
}

/** The first schedule in the sentence, or null when it names none. */
export function readSchedule(
  tokens: readonly Token[],
  isFree: (index: number) => boolean,
): ReadSchedule | null {
  const used = new Set<number>();
  const days = new Set<number>();
  let dayOfMonth: number | null = null;
  let everyMinutes: number | null = null;
  let everyHours: number | null = null;
  let isDaily = false;
  let isWeekly = false;
  let isMonthly = false;
  let isHourly = false;
  let defaultHour = 9;

  const stemAt = (position: number) => tokens[position]?.stem ?? '';
  const hasEvery = (position: number) =>
    EVERY_WORDS.has(stemAt(position - 1)) || stemAt(position - 1) === 'on';

  for (let i = 0; i < tokens.length; i += 1) {
    if (!isFree(i)) continue;
    const token = tokens[i]!;
    const word = token.surface;
    const day = dayNumber(token);
    if (day !== null && (hasEvery(i) || word.endsWith('s'))) {
      days.add(day);
      used.add(i);
      if (hasEvery(i)) used.add(i - 1);
      // "every Monday morning"
      const part = tokens[i + 1]?.surface;
      if (part === 'morning' || part === 'evening' || part === 'afternoon') {
        defaultHour = part === 'morning' ? 9 : part === 'afternoon' ? 14 : 18;
        used.add(i + 1);
      }
      // "every Monday and Thursday"
      continue;
    }
    if (day !== null && days.size > 0 && (stemAt(i - 1) === 'and' || stemAt(i - 1) === 'or')) {
      days.add(day);
      used.add(i).add(i - 1);
      continue;
    }
    if ((word === 'weekday' || word === 'weekdays') && (hasEvery(i) || word.endsWith('s'))) {
      [1, 2, 3, 4, 5].forEach((d) => days.add(d));
      used.add(i);
      if (hasEvery(i)) used.add(i - 1);
      continue;
    }
    if (
      (word === 'working' || word === 'business') &&
      stem(tokens[i + 1]?.surface ?? '') === 'day' &&
      hasEvery(i)
    ) {
      [1, 2, 3, 4, 5].forEach((d) => days.add(d));
      used
        .add(i - 1)
        .add(i)
        .add(i + 1);
      continue;
    }
    if ((word === 'weekend' || word === 'weekends') && (hasEvery(i) || word.endsWith('s'))) {
      [0, 6].forEach((d) => days.add(d));
      used.add(i);
      if (hasEvery(i)) used.add(i - 1);
      continue;
    }
    if (word === 'daily' || word === 'nightly') {
      isDaily = true;
      if (word === 'nightly') defaultHour = 22;
      used.add(i);
      continue;
    }
    if (word === 'weekly') {
      isWeekly = true;
      used.add(i);
      continue;
    }
    if (word === 'monthly') {
      isMonthly = true;
      used.add(i);
      continue;
    }
    if (word === 'hourly') {
      isHourly = true;
      used.add(i);
      continue;
    }
    if (EVERY_WORDS.has(token.stem)) {
      const next = tokens[i + 1];
      const nextStem = next?.stem ?? '';
      // "every 15 minutes", "every 2 hours"
      if (next?.number !== null && next?.number !== undefined && /^\d+$/.test(next.surface)) {
        const unit = stemAt(i + 2);
        if (unit === 'minut' || unit === 'min') {
          everyMinutes = next.number;
          used
            .add(i)
            .add(i + 1)
            .add(i + 2);
        } else if (unit === 'hour') {
          everyHours = next.number;
          used
            .add(i)
            .add(i + 1)
            .add(i + 2);
        }
        continue;
      }
      const nextWord = next?.surface ?? '';
      if (nextStem === 'day' || ['morning', 'evening', 'afternoon', 'night'].includes(nextWord)) {
        isDaily = true;
        if (nextWord === 'evening') defaultHour = 18;
        if (nextWord === 'afternoon') defaultHour = 14;
        if (nextWord === 'night') defaultHour = 22;
        used.add(i).add(i + 1);
      } else if (nextStem === 'week') {
        isWeekly = true;
        used.add(i).add(i + 1);
      } else if (nextStem === 'month') {
        isMonthly = true;
        used.add(i).add(i + 1);
      } else if (nextStem === 'hour') {
        isHourly = true;
        used.add(i).add(i + 1);
      }
      continue;
    }
    // "the first of every month", "every month on the 15th", "first day of each month"
    const nth = ordinal(token);
    if (nth !== null && nth >= 1 && nth <= 31) {
      let j = i + 1;
      if (stemAt(j) === 'day') j += 1;
      const monthAhead = stemAt(j) === 'of' && EVERY_WORDS.has(stemAt(j + 1)) && stemAt(j + 2) === 'month';
      const monthBefore = stemAt(i - 1) === 'the' && stemAt(i - 2) === 'on' && stemAt(i - 3) === 'month';
      if (monthAhead) {
        dayOfMonth = nth;
        isMonthly = true;
        for (let k = i; k <= j + 2; k += 1) used.add(k);
        if (stemAt(i - 1) === 'the') used.add(i - 1);
        if (stemAt(i - 2) === 'on') used.add(i - 2);
      } else if (monthBefore) {
        dayOfMonth = nth;
        used
          .add(i)
          .add(i - 1)
          .add(i - 2);
      }
    }
  }

  if (
    !isHourly &&
    everyMinutes === null &&
    everyHours === null &&
    !isDaily &&
    !isWeekly &&
    !isMonthly &&
    days.size === 0
  ) {
    return null;
  }

  // The time of day: "at 8am", "at 9:00", "at 8", or a bare "6pm".
  let time: { hour: number; minute: number } | null = null;
  for (let i = 0; i < tokens.length && !time; i += 1) {
    if (!isFree(i) || used.has(i)) continue;
    const isAt = tokens[i]?.surface === 'at';
    const read = readTime(tokens, isAt ? i + 1 : i);
    if (!read) continue;
    const surface = tokens[isAt ? i + 1 : i]?.surface ?? '';
    // A bare number is a time only after "at" ("at 8"); "8am" and "9:00" are times anywhere.
    if (!isAt && /^\d+$/.test(surface)) continue;
    time = read;
    const first = isAt ? i : i;
    for (let k = first; k < (isAt ? i + 1 : i) + read.length; k += 1) used.add(k);
  }

  let cron: string;
  let assumed: string | null = null;
  if (everyMinutes !== null) cron = `*/${Math.min(Math.max(everyMinutes, 1), 59)} * * * *`;
  else if (everyHours !== null)
    cron = `${time?.minute ?? 0} */${Math.min(Math.max(everyHours, 1), 23)} * * *`;
  else if (isHourly) cron = `${time?.minute ?? 0} * * * *`;
  else {
    if (!time) assumed = `at ${String(defaultHour).padStart(2, '0')}:00, as no time was given`;
    const hour = time?.hour ?? defaultHour;
    const minute = time?.minute ?? 0;
    const dom = dayOfMonth !== null ? String(dayOfMonth) : isMonthly ? '1' : '*';
    let dow = '*';
    if (days.size > 0) dow = daysField([...days]);
    else if (isWeekly && dayOfMonth === null && !isMonthly) dow = '1';
    if (isMonthly && dayOfMonth === null && !assumed) assumed = 'on the 1st of the month';
    cron = `${minute} ${hour} ${dom} * ${dow}`;
  }
  return { cron, used: [...used].sort((a, b) => a - b), assumed };
}

/** Days of the week as a cron field: "1-5" for Monday to Friday, else a list. */
function daysField(days: number[]): string {
  const sorted = [...new Set(days)].sort((a, b) => a - b);
  const isRun = sorted.length > 2 && sorted.every((day, i) => i === 0 || day === (sorted[i - 1] ?? 0) + 1);
  if (isRun) return `${sorted[0]}-${sorted.at(-1)}`;
  return sorted.join(',');
}
