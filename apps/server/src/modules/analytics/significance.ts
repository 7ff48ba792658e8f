/**
 * Two-proportion z-test (pooled), the test behind "this rate changed
 * significantly": did `successA / totalA` and `successB / totalB` come from
 * the same underlying rate? Two-sided, normal approximation, so callers
 * require a minimum sample (`hasEnoughSample`) before trusting it.
 */

export type ProportionTest = {
  /** (pA - pB) / standard error; 0 when it cannot be computed. */
  z: number;
  /** Two-sided p-value; 1 when the test cannot say anything (an empty group, no variance). */
  pValue: number;
  /** pValue below `alpha` (0.05 unless given). */
  significant: boolean;
};

export const SIGNIFICANCE_ALPHA = 0.05;

export function twoProportionZTest(
  successA: number,
  totalA: number,
  successB: number,
  totalB: number,
  alpha: number = SIGNIFICANCE_ALPHA,
): ProportionTest {
  if (totalA <= 0 || totalB <= 0) return { z: 0, pValue: 1, significant: false };
  const pA = successA / totalA;
  const pB = successB / totalB;
  const pooled = (successA + successB) / (totalA + totalB);
  const standardError = Math.sqrt(pooled * (1 - pooled) * (1 / totalA + 1 / totalB));
  // Both groups all successes or all failures: identical, nothing to test.
  if (standardError === 0) return { z: 0, pValue: 1, significant: false };
  const z = (pA - pB) / standardError;
  // 2·(1 − Φ(|z|)) = erfc(|z| / √2), computed directly so tiny p-values do not round to 0.
  const pValue = Math.min(1, erfc(Math.abs(z) / Math.SQRT2));
  return { z, pValue, significant: pValue < alpha };
}

/**
 * Whether both groups are large enough for the normal approximation: at
 * least `minimum` trials each and at least 5 successes and 5 failures
 * overall (the usual np ≥ 5 rule on the pooled counts).
 */
export function hasEnoughSample(
  successA: number,
  totalA: number,
  successB: number,
  totalB: number,
  minimum = 30,
): boolean {
  const successes = successA + successB;
  const failures = totalA + totalB - successes;
  return totalA >= minimum && totalB >= minimum && successes >= 5 && failures >= 5;
}

/** Φ(x), the standard normal distribution function, through erf. */
export function standardNormalCdf(x: number): number {
  return 0.5 * (1 + erf(x / Math.SQRT2));
}

/**
 * The error function, W. J. Cody's rational Chebyshev approximations
 * (relative error below 1e-15), so p-values far in the tail stay exact
 * enough to rank findings by.
 */
export function erf(x: number): number {
  if (Number.isNaN(x)) return Number.NaN;
  const sign = x < 0 ? -1 : 1;
  const ax = Math.abs(x);
  if (ax < 0.5) {
    const t = ax * ax;
    const top =
      (((0.18577770618460315 * t + 3.1611237438705655) * t + 113.86415415105016) * t + 377.485237685302) * t +
      3209.3775891384694;
    const bottom =
      (((t + 23.601290952344122) * t + 244.02463793444417) * t + 1282.6165260773723) * t + 2844.236833439171;
    return (x * top) / bottom;
  }
  return sign * (1 - erfcPositive(ax));
}

/** 1 − erf(x), without the cancellation of computing it from erf for large x. */
export function erfc(x: number): number {
  if (Number.isNaN(x)) return Number.NaN;
  if (x < 0.5) return 1 - erf(x);
  return erfcPositive(x);
}

function erfcPositive(x: number): number {
  if (x < 4) {
    const top =
      (((((((2.1531153547440383e-8 * x + 0.5641884969886701) * x + 8.883149794388377) * x +
        66.11919063714163) *
        x +
        298.6351381974001) *
        x +
        881.952221241769) *
        x +
        1712.0476126340707) *
        x +
        2051.0783778260716) *
        x +
      1230.3393547979972;
    const bottom =
      (((((((x + 15.744926110709835) * x + 117.6939508913125) * x + 537.1811018620099) * x +
        1621.3895745666903) *
        x +
        3290.7992357334597) *
        x +
        4362.619090143247) *
        x +
        3439.3676741437216) *
        x +
      1230.3393548037495;
    return Math.exp(-x * x) * (top / bottom);
  }
  if (x > 26.6) return 0;
  const z = 1 / (x * x);
  const top =
    ((((0.016315387137302097 * z + 0.30532663496123236) * z + 0.36034489994980445) * z +
      0.12578172611122926) *
      z +
      0.016083785148742275) *
      z +
    0.0006587491615298378;
  const bottom =
    ((((z + 2.568520192289822) * z + 1.8729528499234673) * z + 0.5279051029514285) * z +
      0.06051834131244132) *
      z +
    0.0023352049762686918;
  const rational = (z * top) / bottom;
  return (Math.exp(-x * x) / x) * (1 / Math.sqrt(Math.PI) - rational);
}
