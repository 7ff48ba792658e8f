import { niceBinScale } from '@courselens/contracts';

/**
 * Chart colours as CSS variables, set on each chart's frame, so a chart
 * follows the theme without re-rendering: recharts paints `var(--chart-…)`
 * and the `.dark` class swaps the values. The light values are the 600-700
 * steps of each hue (readable on white), the dark ones the 300-400 steps.
 */
export const chartPaletteClass = [
  '[--chart-1:oklch(51.6%_0.262_283)] dark:[--chart-1:oklch(78.8%_0.118_281)]',
  '[--chart-2:oklch(60%_0.118_184.7)] dark:[--chart-2:oklch(77.7%_0.152_181.9)]',
  '[--chart-3:oklch(64.6%_0.222_41.1)] dark:[--chart-3:oklch(75%_0.183_55.9)]',
  '[--chart-4:oklch(59.2%_0.249_0.6)] dark:[--chart-4:oklch(71.8%_0.202_349.8)]',
  '[--chart-5:oklch(62.7%_0.194_149.2)] dark:[--chart-5:oklch(79.2%_0.209_151.7)]',
  '[--chart-6:oklch(58.8%_0.158_242)] dark:[--chart-6:oklch(82.8%_0.111_230.3)]',
  '[--chart-7:oklch(55.4%_0.135_66.4)] dark:[--chart-7:oklch(90.5%_0.182_98.1)]',
  '[--chart-others:oklch(55.4%_0.046_257.4)] dark:[--chart-others:oklch(70.4%_0.04_256.8)]',
  '[--chart-highlight:oklch(59.6%_0.145_163.2)] dark:[--chart-highlight:oklch(76.5%_0.177_163.2)]',
].join(' ');

/** Seven hues, so a pie of seven slices and "Others" (grey) never repeats a colour. */
const PALETTE_SIZE = 7;

/** The colour of the `index`-th series or slice. */
export function seriesColor(index: number): string {
  return `var(--chart-${(index % PALETTE_SIZE) + 1})`;
}

export const chartColors = {
  primary: 'var(--chart-1)',
  /** A bar set apart, e.g. a question's correct answer. */
  highlight: 'var(--chart-highlight)',
  /** The "Others" bar or slice: grey, so it never reads as one more category. */
  others: 'var(--chart-others)',
  axis: 'var(--cl-fg-subtle)',
  grid: 'var(--cl-line)',
  text: 'var(--cl-fg)',
  surface: 'var(--cl-surface)',
  cursor: 'var(--cl-surface-muted)',
} as const;

/** recharts tooltip styled like the app's popovers, in both themes. */
export const tooltipStyles = {
  contentStyle: {
    background: 'var(--cl-surface)',
    border: '1px solid var(--cl-line)',
    borderRadius: 8,
    color: 'var(--cl-fg)',
    fontSize: 12,
  },
  labelStyle: { color: 'var(--cl-fg-muted)' },
  itemStyle: { color: 'var(--cl-fg)' },
  cursor: { fill: 'var(--cl-surface-muted)' },
} as const;

export const axisTick = { fill: 'var(--cl-fg-subtle)', fontSize: 11 } as const;

const numberFormat = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });
export function formatChartNumber(value: number): string {
  return numberFormat.format(value);
}

/** The first letter upper-cased, for an axis title made from a lower-case label ("learners"). */
export function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** "Mean" and "points" → "Mean (points)": the title of an axis with its unit. */
export function withUnit(label: string, unit: string | undefined): string {
  return unit ? `${label} (${unit})` : label;
}

/**
 * Cuts a label to `max` characters with an ellipsis, so a long answer or
 * course title never runs over its neighbours; the full text stays in the
 * tooltip, the tick's own hover title and the table.
 */
export function truncateLabel(text: string, max: number): string {
  const chars = [...text];
  if (chars.length <= max) return text;
  return `${chars
    .slice(0, Math.max(1, max - 1))
    .join('')
    .trimEnd()}…`;
}

/** Below this width (px) a chart is on a phone: fewer ticks, shorter labels. */
export const NARROW_CHART_WIDTH = 480;

/** About how many characters of 11 px text fit in `px`. */
export function charsThatFit(px: number): number {
  return Math.max(3, Math.floor(px / 6.5));
}

/**
 * Ticks of a value axis from 0 to just past `max` on a step of 1, 2, 2.5 or
 * 5 × 10^k (recharts' own steps can be 55 or 0.35): `target` to `target + 2`
 * intervals, whichever wastes the least room above the data. Undefined for
 * data below 0: recharts' own scale then takes over.
 */
export function niceTicks(min: number, max: number, target = 4, isInteger = false): number[] | undefined {
  if (!Number.isFinite(min) || !Number.isFinite(max) || min < 0) return undefined;
  if (max <= 0) return [0, 1];
  let best: { step: number; count: number } | null = null;
  for (const wanted of [target, target + 1, target + 2]) {
    // Whole numbers (counts) get whole steps: 1, 2, 5, 10, 20, 25…
    const { step } = niceBinScale(0, max, wanted, { integer: isInteger });
    const count = Math.max(1, Math.ceil(max / step - 1e-9));
    if (!best || count * step < best.count * best.step) best = { step, count };
  }
  const { step, count } = best ?? { step: max, count: 1 };
  // Multiplying, not adding, so 0.1 steps stay 0.3 and not 0.30000000000000004.
  return Array.from({ length: count + 1 }, (_, index) => Number((index * step).toPrecision(12)));
}
