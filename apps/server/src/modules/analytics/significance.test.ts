import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { erf, erfc, hasEnoughSample, standardNormalCdf, twoProportionZTest } from './significance';

describe('erf and the normal distribution', () => {
  // Reference values: Python's math.erf / math.erfc (C library, correctly rounded to ~1 ulp).
  it.each([
    [0, 0],
    [0.1, 0.1124629160182849],
    [0.5, 0.5204998778130465],
    [1, 0.8427007929497149],
    [2, 0.9953222650189527],
    [-1.5, -0.9661051464753108],
  ])('erf(%s) = %s', (x, expected) => {
    expect(erf(x)).toBeCloseTo(expected, 14);
  });

  it.each([
    [3, 2.209049699858544e-5],
    [5, 1.5374597944280349e-12],
    [10, 2.088487583762545e-45],
  ])('erfc(%s) keeps its relative precision far in the tail', (x, expected) => {
    expect(Math.abs(erfc(x) - expected) / expected).toBeLessThan(1e-12);
  });

  it('gives the familiar quantiles of the standard normal', () => {
    expect(standardNormalCdf(1.959963984540054)).toBeCloseTo(0.975, 12);
    expect(standardNormalCdf(0)).toBe(0.5);
    expect(standardNormalCdf(-1.6448536269514722)).toBeCloseTo(0.05, 12);
  });

  it('is odd and bounded by 1', () => {
    fc.assert(
      fc.property(fc.double({ min: -30, max: 30, noNaN: true }), (x) => {
        expect(erf(-x)).toBeCloseTo(-erf(x), 15);
        expect(Math.abs(erf(x))).toBeLessThanOrEqual(1);
        expect(erf(x) + erfc(x)).toBeCloseTo(1, 14);
      }),
    );
  });
});

describe('twoProportionZTest', () => {
  // z and p computed by hand: pooled p, SE = sqrt(p(1-p)(1/n1 + 1/n2)), p = erfc(|z|/√2).
  it.each([
    [45, 100, 30, 100, 2.1908902300206647, 0.02845973691631057, true],
    [120, 200, 100, 200, 2.0100756305184238, 0.04442318485000612, true],
    [900, 1000, 850, 1000, 3.3806170189140694, 0.0007232327164301857, true],
    [10, 40, 20, 40, -2.3094010767585034, 0.020921335337794028, true],
    [50, 100, 50, 100, 0, 1, false],
  ])('%i/%i against %i/%i', (a, n, b, m, z, pValue, significant) => {
    const result = twoProportionZTest(a, n, b, m);
    expect(result.z).toBeCloseTo(z, 12);
    expect(result.pValue).toBeCloseTo(pValue, 12);
    expect(result.significant).toBe(significant);
  });

  it('says nothing about an empty group or two groups without variance', () => {
    expect(twoProportionZTest(0, 0, 5, 10)).toEqual({ z: 0, pValue: 1, significant: false });
    expect(twoProportionZTest(10, 10, 20, 20)).toEqual({ z: 0, pValue: 1, significant: false });
    expect(twoProportionZTest(0, 10, 0, 20)).toEqual({ z: 0, pValue: 1, significant: false });
  });

  it('is symmetric: swapping the groups flips z and keeps p', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 5000 }),
        fc.integer({ min: 1, max: 5000 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (n, m, ra, rb) => {
          const a = Math.round(ra * n);
          const b = Math.round(rb * m);
          const forward = twoProportionZTest(a, n, b, m);
          const backward = twoProportionZTest(b, m, a, n);
          expect(backward.z).toBeCloseTo(-forward.z, 9);
          expect(backward.pValue).toBeCloseTo(forward.pValue, 12);
          expect(forward.pValue).toBeGreaterThanOrEqual(0);
          expect(forward.pValue).toBeLessThanOrEqual(1);
        },
      ),
    );
  });
});

describe('hasEnoughSample', () => {
  it('wants the minimum in both groups and 5 successes and failures overall', () => {
    expect(hasEnoughSample(15, 30, 15, 30)).toBe(true);
    expect(hasEnoughSample(15, 29, 15, 30)).toBe(false);
    expect(hasEnoughSample(2, 30, 2, 30)).toBe(false);
    expect(hasEnoughSample(28, 30, 29, 30)).toBe(false);
    expect(hasEnoughSample(5, 10, 5, 10, 10)).toBe(true);
  });
});
