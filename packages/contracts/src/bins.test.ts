import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_BINS, binIndexOf, binLabel, niceBinScale, niceBins, type NiceBin } from './bins';

const edgesOf = (bins: readonly NiceBin[]) => [bins[0]?.from, ...bins.map((bin) => bin.to)];

/** True when `step` is 1, 2, 2.5 or 5 times a power of ten (to a relative 1e-6: widths are differences of doubles). */
function isNiceStep(step: number): boolean {
  const exponent = Math.floor(Math.log10(step));
  const mantissa = step / 10 ** exponent;
  return [1, 2, 2.5, 5, 10].some((nice) => Math.abs(mantissa - nice) < 1e-6 * nice);
}

/** Finite bounds, min ≤ max, of every size a variable can hold. */
const bounds = fc
  .tuple(
    fc.double({ min: -1e12, max: 1e12, noNaN: true, noDefaultInfinity: true }),
    fc.double({ min: -1e12, max: 1e12, noNaN: true, noDefaultInfinity: true }),
  )
  .map(([a, b]): [number, number] => (a <= b ? [a, b] : [b, a]));

describe('niceBins', () => {
  it.each([
    [0, 100, 10, ['0–10', '10–20', '20–30', '30–40', '40–50', '50–60', '60–70', '70–80', '80–90', '90–100']],
    [
      3.7,
      96.2,
      10,
      ['0–10', '10–20', '20–30', '30–40', '40–50', '50–60', '60–70', '70–80', '80–90', '90–100'],
    ],
    [12, 87, 10, ['10–20', '20–30', '30–40', '40–50', '50–60', '60–70', '70–80', '80–90']],
    [0, 1, 4, ['0–0.25', '0.25–0.5', '0.5–0.75', '0.75–1']],
    [0.1, 0.7, 6, ['0.1–0.2', '0.2–0.3', '0.3–0.4', '0.4–0.5', '0.5–0.6', '0.6–0.7']],
    [-15, 15, 6, ['-15–-10', '-10–-5', '-5–0', '0–5', '5–10', '10–15']],
    [1200, 4800, 4, ['1,000–2,000', '2,000–3,000', '3,000–4,000', '4,000–5,000']],
  ])('cuts %d to %d into about %d nice bins', (min, max, target, labels) => {
    expect(niceBins(min, max, target).map((bin) => binLabel(bin))).toEqual(labels);
  });

  it('gives one bin when every value is the same', () => {
    expect(niceBins(42, 42)).toEqual([{ from: 42, to: 42 }]);
    expect(binLabel({ from: 42, to: 42 })).toBe('42');
  });

  it('keeps whole numbers whole when asked, one bin per value on a step of 1', () => {
    expect(niceBins(0, 1, 10)).toHaveLength(10);
    expect(niceBins(1, 5, 10, { integer: true })).toEqual([
      { from: 1, to: 2 },
      { from: 2, to: 3 },
      { from: 3, to: 4 },
      { from: 4, to: 5 },
      { from: 5, to: 6 },
    ]);
    expect(niceBins(0, 12, 5, { integer: true }).map((bin) => binLabel(bin))).toEqual([
      '0–5',
      '5–10',
      '10–15',
    ]);
  });

  it('never cuts more than MAX_BINS bins, whatever the target', () => {
    expect(niceBins(0, 1000, 500)).toHaveLength(20);
    expect(niceBins(0, 1000, 0)).toHaveLength(1);
    expect(niceBins(0, 1000, Number.NaN)).toHaveLength(10);
  });

  it('refuses bounds that are not finite or are reversed', () => {
    expect(() => niceBins(Number.NaN, 1)).toThrow(RangeError);
    expect(() => niceBins(0, Number.POSITIVE_INFINITY)).toThrow(RangeError);
    expect(() => niceBins(2, 1)).toThrow('The smallest value must not be greater than the largest');
  });

  it('falls back to one bin where a double cannot hold nice edges', () => {
    expect(niceBins(-Number.MAX_VALUE, Number.MAX_VALUE)).toEqual([
      { from: -Number.MAX_VALUE, to: Number.MAX_VALUE },
    ]);
  });

  it('has strictly increasing, adjacent edges that cover [min, max]', () => {
    fc.assert(
      fc.property(bounds, fc.integer({ min: 1, max: 40 }), ([min, max], target) => {
        const bins = niceBins(min, max, target);
        const edges = edgesOf(bins);
        expect(bins.length).toBeGreaterThanOrEqual(1);
        expect(bins.length).toBeLessThanOrEqual(MAX_BINS);
        expect(bins[0]!.from).toBeLessThanOrEqual(min);
        expect(bins.at(-1)!.to).toBeGreaterThanOrEqual(max);
        if (min === max) expect(bins).toEqual([{ from: min, to: max }]);
        else for (let i = 1; i < edges.length; i += 1) expect(edges[i]!).toBeGreaterThan(edges[i - 1]!);
        for (let i = 1; i < bins.length; i += 1) expect(bins[i]!.from).toBe(bins[i - 1]!.to);
      }),
      { numRuns: 500 },
    );
  });

  it('puts every value of the range in exactly one bin', () => {
    fc.assert(
      fc.property(bounds, fc.double({ min: 0, max: 1, noNaN: true }), ([min, max], t) => {
        const value = Math.min(max, min + (max - min) * t);
        const bins = niceBins(min, max);
        const holders = bins.filter((_, index) => binIndexOf(bins, value) === index);
        expect(holders).toHaveLength(1);
        expect(binIndexOf(bins, min)).toBe(0);
        expect(binIndexOf(bins, max)).toBe(bins.length - 1);
      }),
      { numRuns: 300 },
    );
  });

  it('steps by 1, 2, 2.5 or 5 times a power of ten, close to the target count', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -1_000_000, max: 1_000_000 }),
        fc.integer({ min: 1, max: 1_000_000 }),
        fc.integer({ min: -6, max: 3 }),
        fc.integer({ min: 2, max: 20 }),
        (start, width, exponent, target) => {
          const min = start * 10 ** exponent;
          const max = (start + width) * 10 ** exponent;
          const scale = niceBinScale(min, max, target);
          expect(isNiceStep(scale.step)).toBe(true);
          // The smallest nice step at least span / target: never more than target + 1 bins.
          expect(scale.count).toBeLessThanOrEqual(target + 1);
          const bins = niceBins(min, max, target);
          expect(bins).toHaveLength(scale.count);
          for (const bin of bins) expect(isNiceStep(bin.to - bin.from)).toBe(true);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('keeps whole-number edges for whole-number data', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -100_000, max: 100_000 }),
        fc.integer({ min: 0, max: 100_000 }),
        fc.integer({ min: 1, max: 20 }),
        (min, width, target) => {
          const bins = niceBins(min, min + width, target, { integer: true });
          expect(bins.length).toBeLessThanOrEqual(MAX_BINS);
          for (const bin of bins) {
            expect(Number.isInteger(bin.from)).toBe(true);
            expect(Number.isInteger(bin.to)).toBe(true);
          }
          // A step of 1 gives each whole value its own bin, the largest too.
          if (bins.length > 1 && bins[0]!.to - bins[0]!.from === 1) {
            expect(binIndexOf(bins, min + width)).not.toBe(binIndexOf(bins, min + width - 1));
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('binLabel', () => {
  it('writes a range with an en dash and as many decimals as the width needs', () => {
    expect(binLabel({ from: 10, to: 20 })).toBe('10–20');
    expect(binLabel({ from: 0.25, to: 0.5 })).toBe('0.25–0.5');
    expect(binLabel({ from: 0.0025, to: 0.005 })).toBe('0.0025–0.005');
    expect(binLabel({ from: 0.30000000000000004, to: 0.4 })).toBe('0.3–0.4');
  });

  it('writes the bounds with a caller’s format', () => {
    expect(binLabel({ from: 10, to: 20 }, (value) => `${value}%`)).toBe('10%–20%');
  });
});
