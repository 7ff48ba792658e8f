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
  '[--chart-6:oklch(55.4%_0.046_257.4)] dark:[--chart-6:oklch(70.4%_0.04_256.8)]',
  '[--chart-highlight:oklch(59.6%_0.145_163.2)] dark:[--chart-highlight:oklch(76.5%_0.177_163.2)]',
].join(' ');

const PALETTE_SIZE = 6;

/** The colour of the `index`-th series or slice. */
export function seriesColor(index: number): string {
  return `var(--chart-${(index % PALETTE_SIZE) + 1})`;
}

export const chartColors = {
  primary: 'var(--chart-1)',
  /** A bar set apart, e.g. a question's correct answer. */
  highlight: 'var(--chart-highlight)',
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
