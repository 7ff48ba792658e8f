import { HEATMAP_MAX_INTERVAL_WIDTH, HEATMAP_MIN_RESPONSES, HEATMAP_Z } from '@courselens/contracts';

export type WilsonInterval = { low: number; high: number };

/**
 * The Wilson score interval of a proportion: `successes` of `trials`, at
 * the two-sided confidence whose normal quantile is `z` (1.96 for 95 %).
 * Unlike the normal ("Wald") interval it stays inside 0..1 and is not
 * zero-wide at 0 % or 100 %, which is what small cells of a heatmap need:
 * 3 of 3 correct is not a certain 100 %.
 *
 *   centre = (p + z²/2n) / (1 + z²/n)
 *   half   = z / (1 + z²/n) · √(p(1 − p)/n + z²/4n²)
 */
export function wilsonInterval(
  successes: number,
  trials: number,
  z: number = HEATMAP_Z,
): WilsonInterval | null {
  if (!Number.isFinite(trials) || trials <= 0) return null;
  if (successes < 0 || successes > trials) throw new RangeError('successes must be between 0 and trials');
  const p = successes / trials;
  const z2 = z * z;
  const denominator = 1 + z2 / trials;
  const centre = (p + z2 / (2 * trials)) / denominator;
  const half = (z / denominator) * Math.sqrt((p * (1 - p)) / trials + z2 / (4 * trials * trials));
  // Clamped against rounding at the ends (0 of n, n of n).
  return { low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}

/**
 * Whether a correct rate rests on too few answers for its colour to be
 * trusted: fewer than HEATMAP_MIN_RESPONSES, or a 95 % interval wider than
 * HEATMAP_MAX_INTERVAL_WIDTH (the reasons are with the constants).
 */
export function isTooFewResponses(interval: WilsonInterval | null, trials: number): boolean {
  if (!interval || trials < HEATMAP_MIN_RESPONSES) return true;
  return interval.high - interval.low > HEATMAP_MAX_INTERVAL_WIDTH;
}
