import { binLabel as sharedBinLabel } from '@courselens/contracts';
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';

import { truncatedTick, useChartWidth } from './axis-tick';
import { ChartFrame } from './chart-frame';
import {
  axisTick,
  capitalize,
  chartColors,
  formatChartNumber,
  NARROW_CHART_WIDTH,
  niceTicks,
  tooltipStyles,
  truncateLabel,
  withUnit,
} from './chart-theme';

/**
 * One bin: values from `from` (inclusive) to `to` (exclusive, inclusive for
 * the last bin). `label`, when the server names the bin, is used as is.
 */
export type HistogramBin = { from: number; to: number; count: number; label?: string };

/**
 * Props of `HistogramChart`. The bins come from the server, cut by
 * `niceBins` (contracts), so the chart, its table and the AI summary name
 * the same ranges ("10–20").
 */
export type HistogramChartProps = {
  title: string;
  description?: string;
  bins: readonly HistogramBin[];
  /** What is counted ("learners"); capitalized, the vertical axis title. */
  countLabel?: string;
  /** Header of the range column and, by default, the horizontal axis title ("Value", "Final score"). */
  valueLabel?: string;
  /** The unit of the values, added to the horizontal axis title ("points"). */
  unit?: string;
  /** Overrides the horizontal axis title. */
  xLabel?: string;
  /** Overrides the vertical axis title. */
  yLabel?: string;
  /** Writes a bound; by default as many decimals as the bin width needs. */
  formatBound?: (value: number) => string;
  height?: number;
  emptyText?: string;
  className?: string;
};

/** The words for a bin, the same as the server's and the AI summary's (`binLabel` of contracts). */
export function binLabel(bin: Pick<HistogramBin, 'from' | 'to'>, format?: (value: number) => string): string {
  return sharedBinLabel(bin, format);
}

/** The distribution of a number: adjacent bars, one per bin. */
export function HistogramChart({
  title,
  description,
  bins,
  countLabel = 'learners',
  valueLabel = 'Value',
  unit,
  xLabel,
  yLabel,
  formatBound,
  height = 300,
  emptyText,
  className,
}: HistogramChartProps) {
  const { width, onResize } = useChartWidth();
  const isNarrow = width < NARROW_CHART_WIDTH;
  const data = bins.map((bin) => ({
    label: bin.label && !formatBound ? bin.label : binLabel(bin, formatBound),
    count: bin.count,
  }));
  const total = bins.reduce((sum, bin) => sum + bin.count, 0);
  const peak = data.reduce<(typeof data)[number] | null>(
    (best, datum) => (best === null || datum.count > best.count ? datum : best),
    null,
  );
  // The bounds written as the bins' own labels write them (same decimals).
  const lowest = data[0]?.label.split('–')[0];
  const highest = data.at(-1)?.label.split('–').at(-1);
  const summary =
    peak === null
      ? 'no data'
      : `${formatChartNumber(total)} ${countLabel} in ${bins.length} ${bins.length === 1 ? 'bin' : 'bins'} from ${lowest} to ${highest}, most in ${peak.label} (${formatChartNumber(peak.count)})`;
  const shorten = (label: string) => truncateLabel(label, isNarrow ? 9 : 16);
  const countTicks = niceTicks(0, Math.max(0, ...bins.map((bin) => bin.count)), isNarrow ? 4 : 5, true);

  return (
    <ChartFrame
      title={title}
      description={description}
      summary={summary}
      table={{
        columns: [withUnit(valueLabel, unit), countLabel],
        rows: data.map((datum) => [datum.label, datum.count]),
      }}
      height={height}
      emptyText={emptyText}
      className={className}
      axisTitles={{
        x: xLabel ?? withUnit(valueLabel, unit),
        y: yLabel ?? capitalize(countLabel),
      }}
    >
      <ResponsiveContainer
        width="100%"
        height="100%"
        initialDimension={{ width: 320, height }}
        onResize={onResize}
      >
        <BarChart
          data={data}
          barCategoryGap={1}
          margin={{ top: 4, right: 12, bottom: 0, left: 4 }}
          accessibilityLayer
        >
          <CartesianGrid stroke={chartColors.grid} strokeDasharray="3 4" vertical={false} />
          <XAxis
            dataKey="label"
            stroke={chartColors.grid}
            interval="preserveStartEnd"
            minTickGap={isNarrow ? 6 : 10}
            tickFormatter={shorten}
            tick={truncatedTick(shorten)}
          />
          <YAxis
            tick={axisTick}
            stroke={chartColors.grid}
            width={44}
            ticks={countTicks}
            domain={countTicks ? [0, countTicks.at(-1) ?? 1] : undefined}
            interval={0}
          />
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
