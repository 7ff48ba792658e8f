import {
  CartesianGrid,
  Line,
  LineChart,
  ReferenceArea,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
  type DotItemDotProps,
  type TooltipContentProps,
} from 'recharts';

import { useChartWidth } from './axis-tick';
import { ChartFrame, type ChartTableCell } from './chart-frame';
import {
  axisTick,
  chartColors,
  formatChartNumber,
  NARROW_CHART_WIDTH,
  niceTicks,
  seriesColor,
  tooltipStyles,
  withUnit,
} from './chart-theme';

export type TrendSeries = {
  key: string;
  label: string;
  /** `right` puts the series on a second axis (e.g. a mean next to a count); both axes are then titled in its colour. */
  axis?: 'left' | 'right';
  format?: (value: number) => string;
  /** The unit of the values ("%", "points"), added to the axis title and the table header. */
  unit?: string;
  /** A fixed scale for the series' axis when it is alone on it, e.g. `[0, 100]` for a rate in percent. */
  domain?: readonly [number, number];
};

/**
 * One point in time: `date` (YYYY-MM-DD) and a value (or null) per series
 * key. `isPartial` marks a period that is not over yet (this week so far):
 * it is drawn dashed with a hollow dot, never as a drop.
 */
export type TrendPoint = { date: string; isPartial?: boolean } & Record<
  string,
  number | string | boolean | null | undefined
>;

/**
 * Props of `TrendLineChart`. Lines are straight between points (no curve
 * invents values between them) and break where a value is missing.
 */
export type TrendLineChartProps = {
  title: string;
  description?: string;
  data: readonly TrendPoint[];
  series: readonly TrendSeries[];
  /** Header of the date column and, by default, the horizontal axis title ("Day", "Week of"). */
  dateLabel?: string;
  formatDate?: (date: string) => string;
  /** Overrides the horizontal axis title ("Week (from Monday, UTC)"). */
  xLabel?: string;
  /** Overrides the left axis title (by default its series' labels with units). */
  yLabel?: string;
  /** Overrides the right axis title. */
  yRightLabel?: string;
  /** What the partial point is, in the legend and the table ("This week so far"). */
  partialLabel?: string;
  height?: number;
  emptyText?: string;
  className?: string;
};

const shortDate = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });
export function formatDay(date: string): string {
  const parsed = new Date(`${date.slice(0, 10)}T00:00:00Z`);
  return Number.isNaN(parsed.getTime()) ? date : shortDate.format(parsed);
}

function valueOf(point: TrendPoint | undefined, key: string): number | null {
  const value = point?.[key];
  return typeof value === 'number' ? value : null;
}

/** The data key of the dashed part of a series (into and through the partial points). */
const partialKey = (key: string) => `${key}__partial`;

type ChartRow = Record<string, string | number | null>;

/**
 * Splits each series in two: the solid line holds the whole periods, the
 * dashed one the partial points and the whole point before each, so the
 * segment into an unfinished period is dashed.
 */
function chartRows(data: readonly TrendPoint[], series: readonly TrendSeries[]): ChartRow[] {
  return data.map((point, index) => {
    const row: ChartRow = { date: point.date };
    const touchesPartial =
      point.isPartial === true || data[index - 1]?.isPartial === true || data[index + 1]?.isPartial === true;
    for (const entry of series) {
      const value = valueOf(point, entry.key);
      row[entry.key] = point.isPartial ? null : value;
      row[partialKey(entry.key)] = touchesPartial ? value : null;
    }
    return row;
  });
}

/** A small key for the legend: a line (dashed for the partial period) and a dot. */
function LegendSwatch({ color, isPartial = false }: { color: string; isPartial?: boolean }) {
  return (
    <svg width="22" height="10" viewBox="0 0 22 10" aria-hidden="true" className="shrink-0">
      {isPartial ? <rect x="0" y="0" width="22" height="10" rx="2" fill={chartColors.cursor} /> : null}
      <line
        x1="1"
        y1="5"
        x2="21"
        y2="5"
        stroke={color}
        strokeWidth="2"
        strokeDasharray={isPartial ? '4 3' : undefined}
      />
      <circle
        cx="11"
        cy="5"
        r="3"
        fill={isPartial ? chartColors.surface : color}
        stroke={color}
        strokeWidth="1.5"
      />
    </svg>
  );
}

/** Values over time, one straight line per series, dates on the x axis, an unfinished period marked. */
export function TrendLineChart({
  title,
  description,
  data,
  series,
  dateLabel = 'Date',
  formatDate = formatDay,
  xLabel,
  yLabel,
  yRightLabel,
  partialLabel = 'Period so far',
  height = 300,
  emptyText,
  className,
}: TrendLineChartProps) {
  const { width, onResize } = useChartWidth();
  const isNarrow = width < NARROW_CHART_WIDTH;
  const format = (entry: TrendSeries) => entry.format ?? formatChartNumber;
  const first = data[0];
  const last = data.at(-1);
  const partialPoints = data.filter((point) => point.isPartial === true);
  const hasPartial = partialPoints.length > 0;
  const dateText = (point: TrendPoint) =>
    point.isPartial ? `${formatDate(point.date)} (${partialLabel.toLowerCase()})` : formatDate(point.date);
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
          .join('; ') +
        (hasPartial
          ? `; ${partialPoints.map((point) => formatDate(point.date)).join(', ')}: ${partialLabel.toLowerCase()}`
          : '');
  const rows: ChartTableCell[][] = data.map((point) => [
    dateText(point),
    ...series.map((entry) => {
      const value = valueOf(point, entry.key);
      return value === null ? null : format(entry)(value);
    }),
  ]);

  const indexed = series.map((entry, index) => ({ entry, color: seriesColor(index) }));
  const left = indexed.filter(({ entry }) => entry.axis !== 'right');
  const right = indexed.filter(({ entry }) => entry.axis === 'right');
  const hasRight = right.length > 0;
  const axisTitle = (items: typeof indexed) =>
    items.map(({ entry }) => withUnit(entry.label, entry.unit)).join(' · ');
  // Two axes: each axis line and title swatch in its series' colour, so a reader knows which scale a
  // line reads on (the tick text stays in the text colour, which small coloured text would not reach).
  const leftColor = hasRight && left.length === 1 ? left[0]?.color : undefined;
  const rightColor = right.length === 1 ? right[0]?.color : undefined;
  const tickFormat = (items: typeof indexed) =>
    items.length === 1 && items[0] ? format(items[0].entry) : formatChartNumber;
  /** The scale of one vertical axis: nice ticks from 0 over its values (and its series' fixed domain). */
  const scaleOf = (items: typeof indexed) => {
    const fixed = items.length === 1 ? items[0]?.entry.domain : undefined;
    const values = items.flatMap(({ entry }) =>
      data.map((point) => valueOf(point, entry.key)).filter((value) => value !== null),
    );
    const ticks = niceTicks(
      Math.min(0, fixed?.[0] ?? 0, ...values),
      Math.max(fixed?.[1] ?? 0, ...values),
      isNarrow ? 4 : 5,
      values.every(Number.isInteger),
    );
    const domain: [number, number] | undefined = ticks
      ? [0, ticks.at(-1) ?? 1]
      : fixed
        ? [fixed[0], fixed[1]]
        : undefined;
    return { ticks, domain };
  };
  const leftScale = scaleOf(left);
  const rightScale = scaleOf(right);

  const rowsForChart = chartRows(data, series);
  const showDots = data.length <= 31;
  /** A point with no neighbour on its line would be invisible without its dot. */
  const isIsolated = (key: string, index: number) =>
    rowsForChart[index - 1]?.[key] == null && rowsForChart[index + 1]?.[key] == null;
  const solidDot = (key: string, color: string) =>
    function renderDot({ cx, cy, index }: DotItemDotProps) {
      if (cx == null || cy == null || rowsForChart[index]?.[key] == null) return null;
      if (!showDots && !isIsolated(key, index)) return null;
      return <circle key={`${key}-${index}`} cx={cx} cy={cy} r={2.5} fill={color} />;
    };
  const partialDot = (key: string, color: string) =>
    function renderDot({ cx, cy, index }: DotItemDotProps) {
      if (cx == null || cy == null || !data[index]?.isPartial || rowsForChart[index]?.[key] == null) {
        return null;
      }
      return (
        <circle
          key={`${key}-${index}`}
          cx={cx}
          cy={cy}
          r={4}
          fill={chartColors.surface}
          stroke={color}
          strokeWidth={2}
          data-partial="true"
        />
      );
    };

  const renderTooltip = ({ active, label }: TooltipContentProps) => {
    const point = active ? data.find((item) => item.date === label) : undefined;
    if (!point) return null;
    return (
      <div style={tooltipStyles.contentStyle} className="px-2.5 py-1.5">
        <p style={tooltipStyles.labelStyle}>{dateText(point)}</p>
        <ul>
          {indexed.map(({ entry, color }) => {
            const value = valueOf(point, entry.key);
            return (
              <li key={entry.key} className="flex items-center gap-1.5">
                <span className="size-2 rounded-full" style={{ background: color }} aria-hidden="true" />
                <span>{entry.label}:</span>
                <span className="font-semibold tabular-nums">
                  {value === null ? '—' : format(entry)(value)}
                </span>
              </li>
            );
          })}
        </ul>
      </div>
    );
  };

  const legend =
    series.length > 1 || hasPartial ? (
      <ul className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-xs text-fg-muted" data-chart-legend="">
        {series.length > 1
          ? indexed.map(({ entry, color }) => (
              <li key={entry.key} className="flex items-center gap-1.5">
                <LegendSwatch color={color} />
                <span>
                  {entry.label}
                  {hasRight ? (entry.axis === 'right' ? ' (right axis)' : ' (left axis)') : ''}
                </span>
              </li>
            ))
          : null}
        {hasPartial ? (
          <li className="flex items-center gap-1.5" data-partial-note="">
            <LegendSwatch color={chartColors.axis} isPartial />
            <span>{partialLabel}</span>
          </li>
        ) : null}
      </ul>
    ) : null;

  return (
    <ChartFrame
      title={title}
      description={description}
      summary={summary}
      table={{
        columns: [dateLabel, ...series.map((entry) => withUnit(entry.label, entry.unit))],
        rows,
      }}
      height={height}
      emptyText={emptyText}
      className={className}
      axisTitles={{
        x: xLabel ?? dateLabel,
        y: yLabel ?? axisTitle(left),
        yRight: hasRight ? (yRightLabel ?? axisTitle(right)) : undefined,
        yColor: leftColor,
        yRightColor: rightColor,
      }}
      legend={legend}
    >
      <ResponsiveContainer
        width="100%"
        height="100%"
        initialDimension={{ width: 320, height }}
        onResize={onResize}
      >
        <LineChart
          data={rowsForChart}
          margin={{ top: 6, right: hasRight ? 4 : 16, bottom: 0, left: 4 }}
          accessibilityLayer
        >
          <CartesianGrid stroke={chartColors.grid} strokeDasharray="3 4" vertical={false} />
          <XAxis
            dataKey="date"
            tick={axisTick}
            stroke={chartColors.grid}
            tickFormatter={formatDate}
            interval="preserveStartEnd"
            minTickGap={isNarrow ? 16 : 28}
          />
          <YAxis
            yAxisId="left"
            tick={axisTick}
            stroke={leftColor ?? chartColors.grid}
            width={44}
            ticks={leftScale.ticks}
            domain={leftScale.domain}
            interval={0}
            tickFormatter={tickFormat(left)}
          />
          {hasRight ? (
            <YAxis
              yAxisId="right"
              orientation="right"
              tick={axisTick}
              stroke={rightColor ?? chartColors.grid}
              width={44}
              ticks={rightScale.ticks}
              domain={rightScale.domain}
              interval={0}
              tickFormatter={tickFormat(right)}
            />
          ) : null}
          {/* A light band over the stretch into each unfinished period, so it reads as "not over yet". */}
          {data.map((point, index) =>
            point.isPartial ? (
              <ReferenceArea
                key={`partial-${point.date}`}
                x1={data[index - 1]?.date ?? point.date}
                x2={point.date}
                yAxisId="left"
                fill={chartColors.cursor}
                fillOpacity={0.7}
                stroke="none"
                ifOverflow="hidden"
                data-partial-band=""
              />
            ) : null,
          )}
          <Tooltip
            cursor={{ stroke: chartColors.grid }}
            filterNull={false}
            content={renderTooltip}
            wrapperStyle={{ outline: 'none' }}
          />
          {indexed.map(({ entry, color }) => (
            <Line
              key={entry.key}
              // Straight segments: a curve would overshoot and invent values between the points.
              type="linear"
              dataKey={entry.key}
              name={entry.label}
              yAxisId={entry.axis ?? 'left'}
              stroke={color}
              strokeWidth={2}
              dot={solidDot(entry.key, color)}
              connectNulls={false}
              isAnimationActive={false}
            />
          ))}
          {hasPartial
            ? indexed.map(({ entry, color }) => (
                <Line
                  key={partialKey(entry.key)}
                  type="linear"
                  dataKey={partialKey(entry.key)}
                  name={`${entry.label} (${partialLabel.toLowerCase()})`}
                  yAxisId={entry.axis ?? 'left'}
                  stroke={color}
                  strokeWidth={2}
                  strokeDasharray="5 4"
                  dot={partialDot(partialKey(entry.key), color)}
                  legendType="none"
                  tooltipType="none"
                  connectNulls={false}
                  isAnimationActive={false}
                />
              ))
            : null}
        </LineChart>
      </ResponsiveContainer>
    </ChartFrame>
  );
}
