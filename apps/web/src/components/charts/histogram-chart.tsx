import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';

import { ChartFrame } from './chart-frame';
import { axisTick, chartColors, formatChartNumber, tooltipStyles } from './chart-theme';

/** One bin: values from `from` (inclusive) to `to` (exclusive, inclusive for the last bin). */
export type HistogramBin = { from: number; to: number; count: number };

export type HistogramChartProps = {
  title: string;
  description?: string;
  bins: readonly HistogramBin[];
  /** What is counted ("learners"). */
  countLabel?: string;
  /** Header of the range column ("Value"). */
  valueLabel?: string;
  formatBound?: (value: number) => string;
  height?: number;
  emptyText?: string;
  className?: string;
};

export function binLabel(bin: HistogramBin, format: (value: number) => string): string {
  return bin.from === bin.to ? format(bin.from) : `${format(bin.from)}–${format(bin.to)}`;
}

/** The distribution of a number: adjacent bars, one per bin. */
export function HistogramChart({
  title,
  description,
  bins,
  countLabel = 'learners',
  valueLabel = 'Value',
  formatBound = formatChartNumber,
  height = 280,
  emptyText,
  className,
}: HistogramChartProps) {
  const data = bins.map((bin) => ({ label: binLabel(bin, formatBound), count: bin.count }));
  const total = bins.reduce((sum, bin) => sum + bin.count, 0);
  const peak = data.reduce<(typeof data)[number] | null>(
    (best, datum) => (best === null || datum.count > best.count ? datum : best),
    null,
  );
  const summary =
    peak === null
      ? 'no data'
      : `${formatChartNumber(total)} ${countLabel} in ${bins.length} ${bins.length === 1 ? 'bin' : 'bins'} from ${formatBound(bins[0]?.from ?? 0)} to ${formatBound(bins.at(-1)?.to ?? 0)}, most in ${peak.label} (${formatChartNumber(peak.count)})`;

  return (
    <ChartFrame
      title={title}
      description={description}
      summary={summary}
      table={{ columns: [valueLabel, countLabel], rows: data.map((datum) => [datum.label, datum.count]) }}
      height={height}
      emptyText={emptyText}
      className={className}
    >
      <ResponsiveContainer width="100%" height="100%" initialDimension={{ width: 320, height }}>
        <BarChart
          data={data}
          barCategoryGap={1}
          margin={{ top: 8, right: 12, bottom: 4, left: 4 }}
          accessibilityLayer
        >
          <CartesianGrid stroke={chartColors.grid} strokeDasharray="3 4" vertical={false} />
          <XAxis dataKey="label" tick={axisTick} stroke={chartColors.grid} interval="preserveStartEnd" />
          <YAxis tick={axisTick} stroke={chartColors.grid} allowDecimals={false} width={44} />
          <Tooltip {...tooltipStyles} formatter={(value) => [formatChartNumber(Number(value)), countLabel]} />
          <Bar
            dataKey="count"
            name={countLabel}
            fill={chartColors.primary}
            radius={[3, 3, 0, 0]}
            isAnimationActive={false}
          />
        </BarChart>
      </ResponsiveContainer>
    </ChartFrame>
  );
}
