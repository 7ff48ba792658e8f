import {
  FUNNEL_SIGNIFICANCE_LEVEL,
  FUNNEL_TIME_BIN_EDGES,
  type FunnelComparison,
  type FunnelTimeBin,
} from '@courselens/contracts';
import { addDays, localToday } from '@courselens/contracts';
import { twoProportionZTest } from './significance';

/**
 * The arithmetic of funnels that is not SQL: the significance test of a
 * change against the previous period, and the names of the time bins.
 */

/** The least expected count (successes and failures of each sample) for the normal approximation to hold. */
export const MIN_EXPECTED_COUNT = 5;

/**
 * The previous period's rate against this one, with the two-proportion
 * z-test of `significance.ts`. The change is marked significant when
 * p < 0.05 and every expected count (pooled rate times each base, and its
 * complement) is at least 5, where the normal approximation holds.
 */
export function compareProportions(
  current: { count: number; base: number },
  previous: { count: number; base: number },
): FunnelComparison {
  const currentRate = current.base > 0 ? current.count / current.base : null;
  const previousRate = previous.base > 0 ? previous.count / previous.base : null;
  const result: FunnelComparison = {
    previousRate,
    previousCount: previous.count,
    previousBase: previous.base,
    change: currentRate !== null && previousRate !== null ? currentRate - previousRate : null,
    zScore: null,
    pValue: null,
    isSignificant: false,
  };
  if (currentRate === null || previousRate === null) return result;
  const test = twoProportionZTest(
    current.count,
    current.base,
    previous.count,
    previous.base,
    FUNNEL_SIGNIFICANCE_LEVEL,
  );
  const pooled = (current.count + previous.count) / (current.base + previous.base);
  const smallestExpected = Math.min(
    pooled * current.base,
    (1 - pooled) * current.base,
    pooled * previous.base,
    (1 - pooled) * previous.base,
  );
  return {
    ...result,
    zScore: test.z,
    pValue: test.pValue,
    isSignificant: test.significant && smallestExpected >= MIN_EXPECTED_COUNT,
  };
}

/** A duration in words: "45 s", "12 min", "3 h", "2 d". */
export function durationWords(seconds: number): string {
  if (seconds < 60) return `${Math.round(seconds)} s`;
  if (seconds < 3600) return `${Math.round(seconds / 60)} min`;
  if (seconds < 86_400) return `${Math.round(seconds / 3600)} h`;
  return `${Math.round(seconds / 86_400)} d`;
}

/**
 * The time-to-convert bins with their counts, from `counts[i]` = learners
 * in bin i (SQL's `width_bucket` over `FUNNEL_TIME_BIN_EDGES`, 0-based). Bins
 * that begin at or after the window's end cannot hold anyone and are left out.
 */
export function timeBins(counts: ReadonlyMap<number, number>, windowSeconds: number): FunnelTimeBin[] {
  const bins: FunnelTimeBin[] = [];
  const edges = [0, ...FUNNEL_TIME_BIN_EDGES];
  for (let index = 0; index < edges.length; index++) {
    const from = edges[index] ?? 0;
    const to = FUNNEL_TIME_BIN_EDGES[index] ?? null;
    if (index > 0 && from >= windowSeconds) break;
    const label =
      to === null
        ? `${durationWords(from)} or more`
        : from === 0
          ? `Under ${durationWords(to)}`
          : `${durationWords(from)}–${durationWords(to)}`;
    bins.push({ from, to, label, count: counts.get(index) ?? 0 });
  }
  return bins;
}

/** The period asked for, with the defaults filled in: the last `defaultDays` local days up to today. */
export function resolvePeriod(
  period: { from?: string | undefined; to?: string | undefined },
  timeZone: string,
  defaultDays: number,
  now: Date = new Date(),
): { from: string; to: string } {
  const to =
    period.to ?? (period.from ? maxDay(period.from, localToday(timeZone, now)) : localToday(timeZone, now));
  const from = period.from ?? addDays(to, -(defaultDays - 1));
  return { from, to };
}

function maxDay(a: string, b: string): string {
  return a > b ? a : b;
}
