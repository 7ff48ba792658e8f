import { binLabel, niceBins, type HistogramBin, type NiceBin, type SortOrder } from '@courselens/contracts';
import type { Database } from '../../db/client';
import { isPartialBucket, type TimeInterval } from '../../lib/time-axis';
import { withoutEmails } from './privacy';
import { cachedResult } from './result-cache';
import {
  selectByCourse,
  selectCategories,
  selectDateMonths,
  selectHistogram,
  selectHistorySpanDays,
  selectLeaders,
  selectNumberRange,
  selectOutliers,
  selectSummary,
  selectTrend,
  selectUsage,
  type LeaderRecord,
  type TrendAxis,
  type ValueFilters,
} from './statistics.queries';
import { valueRelations, valuesPerLearner, type ValueSource } from './value-source';

// The metrics layer's statistics of a value source, in the words every
// screen uses: the variable report, its chart and leaders, and the AI
// summary all call these, so "learners", "values", the mean and the bins
// are the same numbers wherever they appear.

/** Bins a histogram aims at (`niceBins` may pick a few more or fewer to keep round edges). */
export const HISTOGRAM_TARGET_BINS = 10;

const NO_FILTERS: ValueFilters = {};

/**
 * A statement's rows, kept until the source's organization's data changes
 * (result-cache.ts). `args` is everything the statement reads besides that
 * data and the source; what is returned is shared, so callers copy before
 * changing it.
 */
function kept<T>(
  db: Database,
  source: ValueSource,
  statement: string,
  args: unknown,
  compute: () => Promise<T>,
): Promise<T> {
  return cachedResult(
    db,
    source.organizationId,
    `statistics:${statement}:${JSON.stringify([source, args])}`,
    compute,
  );
}

function toIso(value: Date | string): string;
function toIso(value: Date | string | null): string | null;
function toIso(value: Date | string | null): string | null {
  if (value === null) return null;
  return (value instanceof Date ? value : new Date(value)).toISOString();
}

const num = (value: number | string | null): number | null => (value === null ? null : Number(value));

export type NumericSummary = {
  mean: number;
  median: number;
  q1: number;
  q3: number;
  /** Sample standard deviation; null below two numbers. */
  standardDeviation: number | null;
  min: number;
  max: number;
  /** Every number is whole: histogram edges stay whole. */
  isInteger: boolean;
};

export type ValueSummary = {
  /** Different learners with a value. */
  learners: number;
  /** Latest values, one per learner and course. */
  values: number;
  /** Distinct latest values (compared as the source's type). */
  distinctValues: number;
  /** Latest values that are numbers; null figures without any. */
  numbers: number;
  numeric: NumericSummary | null;
  trueCount: number;
  falseCount: number;
  dates: { earliest: string | null; median: string | null; latest: string | null };
};

/** The summary of the source's latest values under the filters (one statement). */
export async function getValueSummary(
  db: Database,
  source: ValueSource,
  filters: ValueFilters = NO_FILTERS,
): Promise<ValueSummary> {
  const row = await kept(db, source, 'summary', filters, () =>
    selectSummary(db, {
      relations: valueRelations(source),
      dataType: source.dataType,
      filters,
      valuesPerLearner: valuesPerLearner(source),
    }),
  );
  const numbers = Number(row.numbers);
  const mean = num(row.mean);
  const median = num(row.median);
  const min = num(row.min);
  const max = num(row.max);
  const q1 = num(row.q1);
  const q3 = num(row.q3);
  const numeric =
    numbers > 0 &&
    mean !== null &&
    median !== null &&
    min !== null &&
    max !== null &&
    q1 !== null &&
    q3 !== null
      ? { mean, median, q1, q3, standardDeviation: num(row.stddev), min, max, isInteger: row.is_integer }
      : null;
  return {
    learners: Number(row.learners),
    values: Number(row.values),
    distinctValues: Number(row.distinct_values),
    numbers,
    numeric,
    trueCount: Number(row.true_count),
    falseCount: Number(row.false_count),
    dates: { earliest: toIso(row.earliest), median: toIso(row.median_date), latest: toIso(row.latest) },
  };
}

/** What a histogram's bins are cut from: the summary's smallest and largest number, and whether all are whole. */
export type NumberRange = { numeric: Pick<NumericSummary, 'min' | 'max' | 'isInteger'> | null };

/**
 * The range of the source's latest numbers under the filters, as
 * `getValueSummary` has it, in a statement that reads only that: a chart
 * needs no median to cut its bins.
 */
export async function getNumberRange(
  db: Database,
  source: ValueSource,
  filters: ValueFilters = NO_FILTERS,
): Promise<NumberRange> {
  const row = await kept(db, source, 'number-range', filters, () =>
    selectNumberRange(db, { relations: valueRelations(source), filters }),
  );
  const min = num(row.min);
  const max = num(row.max);
  return {
    numeric:
      Number(row.numbers) > 0 && min !== null && max !== null
        ? { min, max, isInteger: row.is_integer }
        : null,
  };
}

/**
 * The histogram's bins for a range (a summary is one): nice edges from its
 * smallest to its largest number (whole edges for whole numbers); none
 * without numbers. The chart, its table and the AI summary all take their
 * bins from here.
 */
export function histogramBins(range: NumberRange): NiceBin[] {
  if (!range.numeric) return [];
  return niceBins(range.numeric.min, range.numeric.max, HISTOGRAM_TARGET_BINS, {
    integer: range.numeric.isInteger,
  });
}

/** Latest numbers per bin of `histogramBins(range)`, every bin listed and named. */
export async function getHistogram(
  db: Database,
  source: ValueSource,
  range: NumberRange,
  filters: ValueFilters = NO_FILTERS,
): Promise<HistogramBin[]> {
  const bins = histogramBins(range);
  if (bins.length === 0) return [];
  const counts = await kept(db, source, 'histogram', [filters, bins], () =>
    selectHistogram(db, { relations: valueRelations(source), filters, bins }),
  );
  return bins.map((bin, index) => ({
    from: bin.from,
    to: bin.to,
    label: binLabel(bin),
    count: counts[index] ?? 0,
  }));
}

export type Category = {
  /** The value, e-mail addresses hidden; null for the row of every other value. */
  value: string | null;
  count: number;
};

/** The `top` most frequent latest values (text), most frequent first, then the rest as one row. */
export async function getCategories(
  db: Database,
  source: ValueSource,
  top: number,
  filters: ValueFilters = NO_FILTERS,
): Promise<Category[]> {
  const rows = await kept(db, source, 'categories', [filters, top], () =>
    selectCategories(db, { relations: valueRelations(source), filters, top }),
  );
  return rows.map((row) => ({
    value: row.is_other ? null : withoutEmails(row.label ?? ''),
    count: Number(row.count),
  }));
}

/** Latest dates per calendar month (UTC, `YYYY-MM`), oldest first. */
export async function getDateMonths(
  db: Database,
  source: ValueSource,
  filters: ValueFilters = NO_FILTERS,
): Promise<{ month: string; count: number }[]> {
  const months = await kept(db, source, 'date-months', filters, () =>
    selectDateMonths(db, { relations: valueRelations(source), filters }),
  );
  return months.map((month) => ({ ...month }));
}

/** Per course of the source: learners, values and the mean number (or share of true). */
export async function getByCourse(
  db: Database,
  source: ValueSource,
  filters: ValueFilters = NO_FILTERS,
): Promise<
  { courseId: string; courseTitle: string; learners: number; values: number; mean: number | null }[]
> {
  const rows = await kept(db, source, 'by-course', filters, () =>
    selectByCourse(db, { relations: valueRelations(source), dataType: source.dataType, filters }),
  );
  return rows.map((row) => ({
    courseId: row.course_id,
    courseTitle: row.course_title,
    learners: Number(row.learners),
    values: Number(row.values),
    mean: num(row.mean),
  }));
}

/** How many values were ever recorded, and when first and last. */
export async function getUsage(
  db: Database,
  source: ValueSource,
): Promise<{ recorded: number; firstRecordedAt: string | null; lastRecordedAt: string | null }> {
  const row = await kept(db, source, 'usage', null, () => selectUsage(db, valueRelations(source)));
  return {
    recorded: Number(row.recorded),
    firstRecordedAt: toIso(row.first_recorded_at),
    lastRecordedAt: toIso(row.last_recorded_at),
  };
}

// ---- trend ---------------------------------------------------------------------

/** Above this many days of values, a trend counts by week instead of by day. */
export const DAILY_TREND_MAX_DAYS = 45;

/** Day buckets for a short history, weeks for a longer one. */
export async function chooseTrendInterval(
  db: Database,
  source: ValueSource,
  filters: ValueFilters = NO_FILTERS,
): Promise<'day' | 'week'> {
  const days = await kept(db, source, 'history-span', filters, () =>
    selectHistorySpanDays(db, { relations: valueRelations(source), dataType: source.dataType, filters }),
  );
  return days > DAILY_TREND_MAX_DAYS ? 'week' : 'day';
}

export type TrendPoint = {
  /** First day of the bucket, `YYYY-MM-DD` (UTC). */
  date: string;
  count: number;
  /** Mean number, or share of true for true/false; null otherwise or without values. */
  mean: number | null;
  /** The bucket has not ended at `now`. */
  isPartial: boolean;
};

/** Every recorded value per bucket on a bounded axis, the unfinished bucket flagged. */
export async function getTrend(
  db: Database,
  source: ValueSource,
  input: { interval: TimeInterval; axis: TrendAxis; now: Date; filters?: ValueFilters },
): Promise<TrendPoint[]> {
  const filters = input.filters ?? NO_FILTERS;
  const rows = await kept(db, source, 'trend', [filters, input.interval, input.axis], () =>
    selectTrend(db, {
      relations: valueRelations(source),
      dataType: source.dataType,
      filters,
      interval: input.interval,
      axis: input.axis,
    }),
  );
  return rows.map((row) => ({
    date: row.bucket,
    count: Number(row.count),
    mean: num(row.mean),
    isPartial: isPartialBucket(row.bucket, input.interval, input.now),
  }));
}

// ---- leaders -------------------------------------------------------------------

export type Leader = {
  rank: number;
  learnerId: string;
  /** Never an e-mail address. */
  learnerName: string;
  courseId: string;
  courseTitle: string;
  value: string | null;
  valueNumber: number | null;
  valueDate: string | null;
  recordedAt: string;
};

function toLeader(row: LeaderRecord): Leader {
  return {
    rank: Number(row.rank),
    learnerId: row.learner_id,
    learnerName: row.learner_name,
    courseId: row.course_id,
    courseTitle: row.course_title,
    value: row.value,
    valueNumber: num(row.value_number),
    valueDate: toIso(row.value_date),
    recordedAt: toIso(row.recorded_at),
  };
}

/** The data types a leaderboard can rank (text and true/false have no order worth one). */
export function isRankable(dataType: ValueSource['dataType']): dataType is 'number' | 'date' {
  return dataType === 'number' || dataType === 'date';
}

/**
 * Learners ranked by their latest value, each once (numbers highest first
 * and dates latest first for `desc`); ties share a rank.
 */
export async function getLeaders(
  db: Database,
  source: ValueSource & { dataType: 'number' | 'date' },
  input: { order: SortOrder; limit: number; filters?: ValueFilters; excludeLearnerIds?: readonly string[] },
): Promise<Leader[]> {
  const filters = input.filters ?? NO_FILTERS;
  const excludeLearnerIds = input.excludeLearnerIds ?? [];
  const rows = await kept(db, source, 'leaders', [filters, input.order, input.limit, excludeLearnerIds], () =>
    selectLeaders(db, {
      organizationId: source.organizationId,
      relations: valueRelations(source),
      dataType: source.dataType,
      filters,
      order: input.order,
      limit: input.limit,
      valuesPerLearner: valuesPerLearner(source),
      excludeLearnerIds,
    }),
  );
  return rows.map(toLeader);
}

/**
 * The `size` highest and the `size` lowest learners, never the same learner
 * in both: with fewer than twice `size` learners to rank, they are split,
 * the larger half (by one) to the highest. Highest first in `highest`,
 * lowest first in `lowest`.
 */
export async function getHighestAndLowest(
  db: Database,
  source: ValueSource & { dataType: 'number' | 'date' },
  size: number,
  filters: ValueFilters = NO_FILTERS,
): Promise<{ highest: Leader[]; lowest: Leader[] }> {
  const highest = await getLeaders(db, source, { order: 'desc', limit: size, filters });
  const lowest = await getLeaders(db, source, {
    order: 'asc',
    limit: size,
    filters,
    excludeLearnerIds: highest.map((leader) => leader.learnerId),
  });
  if (highest.length + lowest.length >= 2 * size) return { highest, lowest };
  // Everyone rankable is in the two lists: share them out, highest to lowest.
  const everyone = [...highest, ...[...lowest].reverse()];
  const cut = Math.ceil(everyone.length / 2);
  return { highest: everyone.slice(0, cut), lowest: everyone.slice(cut).reverse() };
}

/** How many latest numbers lie outside the fences, and the furthest out (names only). */
export async function getOutliers(
  db: Database,
  source: ValueSource,
  input: { lowerFence: number; upperFence: number; limit: number; filters?: ValueFilters },
): Promise<{ count: number; learners: { name: string; value: number }[] }> {
  const filters = input.filters ?? NO_FILTERS;
  const outliers = await kept(
    db,
    source,
    'outliers',
    [filters, input.lowerFence, input.upperFence, input.limit],
    () =>
      selectOutliers(db, {
        organizationId: source.organizationId,
        relations: valueRelations(source),
        filters,
        lowerFence: input.lowerFence,
        upperFence: input.upperFence,
        limit: input.limit,
      }),
  );
  return { count: outliers.count, learners: outliers.learners.map((learner) => ({ ...learner })) };
}
