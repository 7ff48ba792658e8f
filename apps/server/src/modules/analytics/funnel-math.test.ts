import { describe, expect, it } from 'vitest';
import { compareProportions, resolvePeriod, timeBins } from './funnel-math';

describe('compareProportions (two-proportion z-test, pooled, two-sided)', () => {
  it('computes z and p as by hand: 60/100 against 45/100', () => {
    // pooled = 105/200 = 0.525; SE = sqrt(0.525 * 0.475 * (1/100 + 1/100)) = 0.0706222;
    // z = 0.15 / 0.0706222 = 2.12398; p = erfc(2.12398 / sqrt 2) = 0.033672.
    const result = compareProportions({ count: 60, base: 100 }, { count: 45, base: 100 });
    expect(result.zScore).toBeCloseTo(2.1239769762143657, 6);
    expect(result.pValue).toBeCloseTo(0.033672068856345876, 6);
    expect(result.change).toBeCloseTo(0.15, 10);
    expect(result.previousRate).toBeCloseTo(0.45, 10);
    expect(result.isSignificant).toBe(true);
  });

  it('is not significant when p is 0.05 or more', () => {
    const result = compareProportions({ count: 50, base: 100 }, { count: 45, base: 100 });
    expect(result.pValue).toBeCloseTo(0.4789500234203586, 6);
    expect(result.isSignificant).toBe(false);
  });

  it('gives a negative z for a drop, with the same p', () => {
    const up = compareProportions({ count: 300, base: 1000 }, { count: 250, base: 1000 });
    const down = compareProportions({ count: 250, base: 1000 }, { count: 300, base: 1000 });
    expect(up.zScore).toBeCloseTo(2.503915429180671, 6);
    expect(down.zScore).toBeCloseTo(-2.503915429180671, 6);
    expect(down.pValue).toBeCloseTo(0.012282738972377413, 6);
    expect(down.isSignificant).toBe(true);
  });

  it('leaves the mark off when an expected count is below 5, however small p is', () => {
    // 9/10 against 0/10: z = 4.045, p = 0.00005, but the pooled rate 0.45 expects 4.5 successes per side.
    const result = compareProportions({ count: 9, base: 10 }, { count: 0, base: 10 });
    expect(result.pValue).toBeLessThan(0.001);
    expect(result.isSignificant).toBe(false);
  });

  it('has nothing to test when a period has no base, and no difference when both rates are 0 or 1', () => {
    expect(compareProportions({ count: 3, base: 10 }, { count: 0, base: 0 })).toEqual({
      previousRate: null,
      previousCount: 0,
      previousBase: 0,
      change: null,
      zScore: null,
      pValue: null,
      isSignificant: false,
    });
    const same = compareProportions({ count: 20, base: 20 }, { count: 30, base: 30 });
    expect(same).toMatchObject({ zScore: 0, pValue: 1, isSignificant: false, change: 0 });
  });
});

describe('timeBins', () => {
  it('names the fixed bins and leaves out those past the window', () => {
    const bins = timeBins(
      new Map([
        [0, 2],
        [3, 5],
        [9, 1],
      ]),
      14 * 86_400,
    );
    expect(bins.map((bin) => [bin.label, bin.count])).toEqual([
      ['Under 1 min', 2],
      ['1 min–5 min', 0],
      ['5 min–15 min', 0],
      ['15 min–1 h', 5],
      ['1 h–3 h', 0],
      ['3 h–12 h', 0],
      ['12 h–1 d', 0],
      ['1 d–3 d', 0],
      ['3 d–7 d', 0],
      ['7 d or more', 1],
    ]);
    const short = timeBins(new Map(), 86_400);
    expect(short.map((bin) => bin.label)).toEqual([
      'Under 1 min',
      '1 min–5 min',
      '5 min–15 min',
      '15 min–1 h',
      '1 h–3 h',
      '3 h–12 h',
      '12 h–1 d',
    ]);
    expect(short.at(-1)).toMatchObject({ from: 43_200, to: 86_400 });
  });
});

describe('periods', () => {
  it('defaults to the last N local days up to today in the time zone', () => {
    const now = new Date('2026-03-31T23:30:00Z');
    expect(resolvePeriod({}, 'Europe/Berlin', 30, now)).toEqual({ from: '2026-03-03', to: '2026-04-01' });
    expect(resolvePeriod({ to: '2026-01-10' }, 'UTC', 30, now)).toEqual({
      from: '2025-12-12',
      to: '2026-01-10',
    });
    expect(resolvePeriod({ from: '2026-03-20' }, 'UTC', 30, now)).toEqual({
      from: '2026-03-20',
      to: '2026-03-31',
    });
  });
});
