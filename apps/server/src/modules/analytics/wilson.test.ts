import { HEATMAP_MAX_INTERVAL_WIDTH } from '@courselens/contracts';
import { describe, expect, it } from 'vitest';
import { isTooFewResponses, wilsonInterval } from './wilson';

describe('wilsonInterval', () => {
  it('matches SciPy binomtest(k, n).proportion_ci(method="wilson")', () => {
    // 5 of 10: centre 0.5, half 1.96/1.38416 * sqrt(0.025 + 0.0096) = 0.2634 → 0.2366..0.7634.
    const half = wilsonInterval(5, 10);
    expect(half?.low).toBeCloseTo(0.236593, 5);
    expect(half?.high).toBeCloseTo(0.763407, 5);
    // 8 of 10 → 0.4902..0.9433.
    const eight = wilsonInterval(8, 10);
    expect(eight?.low).toBeCloseTo(0.490162, 5);
    expect(eight?.high).toBeCloseTo(0.943318, 5);
    // 81 of 263 → 0.2553..0.3662.
    const large = wilsonInterval(81, 263);
    expect(large?.low).toBeCloseTo(0.255289, 5);
    expect(large?.high).toBeCloseTo(0.36621, 5);
  });

  it('is not zero-wide at 0 % or 100 %', () => {
    // n of n: low = n / (n + z²).
    const all = wilsonInterval(3, 3);
    expect(all?.high).toBe(1);
    expect(all?.low).toBeCloseTo(3 / (3 + 1.959963984540054 ** 2), 10);
    const none = wilsonInterval(0, 3);
    expect(none?.low).toBe(0);
    expect(none?.high).toBeCloseTo(1 - 3 / (3 + 1.959963984540054 ** 2), 10);
  });

  it('is symmetric: k of n mirrors n − k of n', () => {
    const a = wilsonInterval(2, 9);
    const b = wilsonInterval(7, 9);
    expect(a?.low).toBeCloseTo(1 - (b?.high ?? 0), 12);
    expect(a?.high).toBeCloseTo(1 - (b?.low ?? 0), 12);
  });

  it('has no interval without trials and refuses impossible counts', () => {
    expect(wilsonInterval(0, 0)).toBeNull();
    expect(() => wilsonInterval(4, 3)).toThrow(RangeError);
  });

  it('narrows as answers grow', () => {
    const widths = [5, 20, 80, 320].map((n) => {
      const interval = wilsonInterval(n / 2, n);
      return (interval?.high ?? 0) - (interval?.low ?? 0);
    });
    expect(widths).toEqual([...widths].sort((x, y) => y - x));
  });
});

describe('isTooFewResponses', () => {
  it('marks fewer than 5 answers whatever the rate', () => {
    expect(isTooFewResponses(wilsonInterval(4, 4), 4)).toBe(true);
    expect(isTooFewResponses(null, 0)).toBe(true);
  });

  it('marks an interval wider than the threshold', () => {
    // 5 of 10: 0.53 wide.
    expect(isTooFewResponses(wilsonInterval(5, 10), 10)).toBe(true);
    // 10 of 10: 1 − 10/13.84 = 0.28 wide: trusted.
    expect(isTooFewResponses(wilsonInterval(10, 10), 10)).toBe(false);
    // 50 of 100: 0.19 wide.
    expect(isTooFewResponses(wilsonInterval(50, 100), 100)).toBe(false);
    // At 50 %: 17 of 34 is 0.319 wide (marked), 20 of 40 is 0.296 wide (trusted).
    const few = wilsonInterval(17, 34);
    expect((few?.high ?? 0) - (few?.low ?? 0)).toBeGreaterThan(HEATMAP_MAX_INTERVAL_WIDTH);
    expect(isTooFewResponses(few, 34)).toBe(true);
    expect(isTooFewResponses(wilsonInterval(20, 40), 40)).toBe(false);
  });
});
