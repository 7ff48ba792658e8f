/**
 * Histogram bins with "nice" edges (0, 10, 20… rather than 3.7, 13.1…), so
 * the chart, its table, the server's SQL histogram and the AI summary all
 * name the same ranges with the same words.
 *
 * A bin holds values from `from` (inclusive) to `to` (exclusive); the last
 * bin also holds `to`, so the largest value always has a bin. When every
 * value is the same there is one bin with `from === to`.
 */
export type NiceBin = { from: number; to: number };

/** Bins a histogram draws at most: more are too thin to read or to name. */
export const MAX_BINS = 20;

/** Multiples of a power of ten that read as round numbers, smallest first. */
const NICE_MANTISSAS = [1, 2, 2.5, 5] as const;

export type NiceBinsOptions = {
  /**
   * The data are whole numbers: every edge is a whole number, and with a
   * step of 1 each whole value gets a bin of its own (the last bin is not
   * widened to hold two values).
   */
  integer?: boolean;
};

/** How the bins are laid out: `count` bins of width `step` from `start`. */
export type NiceBinScale = { start: number; step: number; count: number };

/** `n × mantissa × 10^exponent` computed so that decimal steps stay exact (3 × 0.1 is 0.3). */
function scaled(n: number, mantissa: number, exponent: number): number {
  return exponent >= 0 ? n * mantissa * 10 ** exponent : (n * mantissa) / 10 ** -exponent;
}

type Candidate = { mantissa: number; exponent: number };

/** The nice steps at least `raw`, in increasing order, for as long as the caller asks. */
function* niceSteps(raw: number, integer: boolean): Generator<Candidate> {
  let exponent = Math.floor(Math.log10(raw));
  for (;;) {
    for (const mantissa of NICE_MANTISSAS) {
      const step = scaled(1, mantissa, exponent);
      if (step < raw) continue;
      // Whole-number data: a step below 1 or of 2.5 would cut between values.
      if (integer && !Number.isInteger(step)) continue;
      yield { mantissa, exponent };
    }
    exponent += 1;
  }
}

function clampTarget(target: number): number {
  if (!Number.isFinite(target)) return 10;
  return Math.min(MAX_BINS, Math.max(1, Math.round(target)));
}

type Layout =
  | { kind: 'nice'; first: number; count: number; mantissa: number; exponent: number }
  | { kind: 'single'; bin: NiceBin };

function layout(min: number, max: number, target: number, options: NiceBinsOptions): Layout {
  if (!Number.isFinite(min) || !Number.isFinite(max)) {
    throw new RangeError('Bins need finite bounds');
  }
  if (min > max) throw new RangeError('The smallest value must not be greater than the largest');
  const single: Layout = { kind: 'single', bin: { from: min, to: max } };
  if (min === max) return single;

  const span = max - min;
  const integer = options.integer === true;
  // Too wide a range for a double, or too narrow next to its size, to carry nice edges: one honest bin.
  // Also spans so small that a tenth of them underflows.
  const magnitude = Math.max(Math.abs(min), Math.abs(max));
  if (!Number.isFinite(span) || span <= magnitude * 1e-12 || span < 1e-280) return single;

  for (const { mantissa, exponent } of niceSteps(span / clampTarget(target), integer)) {
    const at = (n: number) => scaled(n, mantissa, exponent);
    if (!Number.isFinite(at(1))) return single;
    let first = Math.floor(min / at(1));
    // Rounding may put an edge a hair past the value it should hold: step back or on.
    while (at(first) > min) first -= 1;
    while (at(first + 1) <= min) first += 1;
    let last = Math.ceil(max / at(1));
    while (at(last) < max) last += 1;
    while (last - 1 > first && at(last - 1) >= max) last -= 1;
    if (integer && at(1) === 1 && at(last) === max) last += 1;
    const count = Math.max(1, last - first);
    if (count > MAX_BINS) continue;
    // Precision lost at this magnitude: neighbouring edges would be equal.
    for (let n = first; n < last; n += 1) if (at(n + 1) <= at(n)) return single;
    return { kind: 'nice', first, count, mantissa, exponent };
  }
  return single;
}

/**
 * The layout behind `niceBins`: `count` bins of width `step` from `start`
 * (a step of 0 for the one bin of equal values). The server's SQL histogram
 * can read it (`least(floor((v - start) / step), count - 1)`), so its bins
 * are exactly the chart's.
 */
export function niceBinScale(
  min: number,
  max: number,
  target = 10,
  options: NiceBinsOptions = {},
): NiceBinScale {
  const chosen = layout(min, max, target, options);
  if (chosen.kind === 'single') {
    return { start: chosen.bin.from, step: chosen.bin.to - chosen.bin.from, count: 1 };
  }
  return {
    start: scaled(chosen.first, chosen.mantissa, chosen.exponent),
    step: scaled(1, chosen.mantissa, chosen.exponent),
    count: chosen.count,
  };
}

/**
 * About `target` bins (at most `MAX_BINS`) with edges on a step of 1, 2, 2.5
 * or 5 × 10^k that cover `[min, max]`; one bin `{ from: min, to: max }` when
 * `min === max`.
 */
export function niceBins(min: number, max: number, target = 10, options: NiceBinsOptions = {}): NiceBin[] {
  const chosen = layout(min, max, target, options);
  if (chosen.kind === 'single') return [chosen.bin];
  const { first, count, mantissa, exponent } = chosen;
  return Array.from({ length: count }, (_, index) => ({
    from: scaled(first + index, mantissa, exponent),
    to: scaled(first + index + 1, mantissa, exponent),
  }));
}

const boundFormats = new Map<number, Intl.NumberFormat>();
function boundFormat(decimals: number): Intl.NumberFormat {
  let format = boundFormats.get(decimals);
  if (!format) {
    format = new Intl.NumberFormat('en-US', { maximumFractionDigits: decimals });
    boundFormats.set(decimals, format);
  }
  return format;
}

/** Decimals enough to tell a bin's edges apart (a step of 0.25 needs 2, of 10 none). */
function decimalsFor(bin: NiceBin): number {
  const width = Math.abs(bin.to - bin.from);
  if (width === 0 || !Number.isFinite(width)) return 2;
  return Math.min(20, Math.max(0, 1 - Math.floor(Math.log10(width))));
}

/**
 * The words for a bin everywhere it is named: "10–20" (an en dash), or "7"
 * for a bin of one value. Pass `format` to write the bounds another way
 * (a unit, a date); by default they get as many decimals as the width needs.
 */
export function binLabel(bin: NiceBin, format?: (value: number) => string): string {
  const write = format ?? ((value: number) => boundFormat(decimalsFor(bin)).format(value));
  return bin.from === bin.to ? write(bin.from) : `${write(bin.from)}–${write(bin.to)}`;
}

/** The index of the bin that holds `value` (the last bin holds its upper edge), or -1 when none does. */
export function binIndexOf(bins: readonly NiceBin[], value: number): number {
  const last = bins.length - 1;
  return bins.findIndex(
    (bin, index) => value >= bin.from && (value < bin.to || (index === last && value <= bin.to)),
  );
}
