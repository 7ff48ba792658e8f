import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';

import { ChartFrame, type ChartTableCell } from './chart-frame';
import { axisTick, chartColors, formatChartNumber, seriesColor, tooltipStyles } from './chart-theme';

export type TrendSeries = {
  key: string;
  label: string;
  /** `right` puts the series on a second axis (e.g. a mean next to a count). */
  axis?: 'left' | 'right';
  format?: (value: number) => string;
};

/** One point in time: `date` (YYYY-MM-DD) and a value (or null) per series key. */
export type TrendPoint = { date: string } & Record<string, number | string | null>;

export type TrendLineChartProps = {
  title: string;
  description?: string;
  data: readonly TrendPoint[];
  series: readonly TrendSeries[];
  /** Header of the date column ("Day", "Week of"). */
  dateLabel?: string;
  formatDate?: (date: string) => string;
  height?: number;
  emptyText?: string;
  className?: string;
};

const shortDate = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });
export function formatDay(date: string): string {
  const parsed = new Date(`${date.slice(0, 10)}T00:00:00Z`);
  return Number.isNaN(parsed.getTime()) ? date : shortDate.format(parsed);
}

function valueOf(point: TrendPoint, key: string): number | null {
  const value = point[key];
  return typeof value === 'number' ? value : null;
}

/** Values over time, one line per series, dates on the x axis. */
export function TrendLineChart({
  title,
  description,
  data,
  series,
  dateLabel = 'Date',
  formatDate = formatDay,
  height = 280,
  emptyText,
  className,
}: TrendLineChartProps) {
  const format = (entry: TrendSeries) => entry.format ?? formatChartNumber;
  const first = data[0];
  const last = data.at(-1);
  const summary =
    !first || !last
      ? 'no data'
      : `${data.length} ${data.length === 1 ? 'point' : 'points'} from ${formatDate(first.date)} to ${formatDate(last.date)}; ` +
        series
          .map((entry) => {
            const values = data.map((point) => valueOf(point, entry.key)).filter((value) => value !== null);
            if (values.length === 0) return `${entry.label}: no values`;
            return `${entry.label} from ${format(entry)(values[0] ?? 0)} to ${format(entry)(values.at(-1) ?? 0)}, highest ${format(entry)(Math.max(...values))}`;
          })
          .join('; ');
  const rows: ChartTableCell[][] = data.map((point) => [
    formatDate(point.date),
    ...series.map((entry) => {
      const value = valueOf(point, entry.key);
      return value === null ? null : format(entry)(value);
    }),
  ]);
  const hasRight = series.some((entry) => entry.axis === 'right');

  return (
    <ChartFrame
      title={title}
      description={description}
      summary={summary}
      table={{ columns: [dateLabel, ...series.map((entry) => entry.label)], rows }}
      height={height}
      emptyText={emptyText}
      className={className}
    >
      <ResponsiveContainer width="100%" height="100%" initialDimension={{ width: 320, height }}>
        <LineChart
          data={[...data]}
          margin={{ top: 8, right: hasRight ? 4 : 16, bottom: 4, left: 4 }}
          accessibilityLayer
        >
          <CartesianGrid stroke={chartColors.grid} strokeDasharray="3 4" vertical={false} />
          <XAxis
            dataKey="date"
            tick={axisTick}
            stroke={chartColors.grid}
            tickFormatter={formatDate}
            minTickGap={24}
          />
          <YAxis yAxisId="left" tick={axisTick} stroke={chartColors.grid} width={44} />
          {hasRight ? (
            <YAxis yAxisId="right" orientation="right" tick={axisTick} stroke={chartColors.grid} width={44} />
          ) : null}
          <Tooltip
            {...tooltipStyles}
            cursor={{ stroke: chartColors.grid }}
            labelFormatter={(label) => formatDate(String(label))}
            formatter={(value, name) => {
              const entry = series.find((item) => item.label === name);
              return [entry ? format(entry)(Number(value)) : String(value), name];
            }}
          />
          {series.length > 1 ? <Legend wrapperStyle={{ fontSize: 12, color: 'var(--cl-fg-muted)' }} /> : null}
          {series.map((entry, index) => (
            <Line
              key={entry.key}
              type="monotone"
              dataKey={entry.key}
              name={entry.label}
              yAxisId={entry.axis ?? 'left'}
              stroke={seriesColor(index)}
              strokeWidth={2}
              dot={data.length <= 31 ? { r: 2.5, fill: seriesColor(index) } : false}
              connectNulls
              isAnimationActive={false}
            />
          ))}
        </LineChart>
      </ResponsiveContainer>
    </ChartFrame>
  );
}
