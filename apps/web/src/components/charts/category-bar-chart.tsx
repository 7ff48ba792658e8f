import { Bar, BarChart, CartesianGrid, Cell, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';

import { ChartFrame } from './chart-frame';
import { axisTick, chartColors, formatChartNumber, tooltipStyles } from './chart-theme';

export type CategoryDatum = { label: string; value: number };

export type CategoryBarChartProps = {
  title: string;
  description?: string;
  data: readonly CategoryDatum[];
  /** What a value counts, for the table header and tooltip ("learners"). */
  valueLabel: string;
  /** Header of the table's first column ("Answer"). */
  categoryLabel?: string;
  /** The label of a bar drawn apart (e.g. the correct answer). */
  highlight?: string | null;
  /** What the highlighted bar is, said in the summary and the table ("correct answer"). */
  highlightLabel?: string;
  /** `vertical`: columns rising from the x axis; `horizontal`: bars from the left, for long labels. */
  orientation?: 'vertical' | 'horizontal';
  formatValue?: (value: number) => string;
  height?: number;
  emptyText?: string;
  className?: string;
};

/** Describes the bars in one sentence for assistive technology. */
export function summarizeCategories(
  data: readonly CategoryDatum[],
  valueLabel: string,
  formatValue: (value: number) => string,
  highlight?: { label: string; name: string } | null,
): string {
  if (data.length === 0) return 'no data';
  const top = data.reduce((best, datum) => (datum.value > best.value ? datum : best));
  const parts = [
    `${data.length} ${data.length === 1 ? 'bar' : 'bars'}`,
    `highest ${top.label} with ${formatValue(top.value)} ${valueLabel}`,
  ];
  const marked = highlight ? data.find((datum) => datum.label === highlight.label) : undefined;
  if (marked && highlight) parts.push(`${highlight.name} ${marked.label} with ${formatValue(marked.value)}`);
  return parts.join(', ');
}

/** Bars for categories (answers, text values, true/false), one optionally highlighted. */
export function CategoryBarChart({
  title,
  description,
  data,
  valueLabel,
  categoryLabel = 'Category',
  highlight = null,
  highlightLabel = 'highlighted',
  orientation = 'vertical',
  formatValue = formatChartNumber,
  height,
  emptyText,
  className,
}: CategoryBarChartProps) {
  const horizontal = orientation === 'horizontal';
  const chartHeight = height ?? (horizontal ? Math.max(160, data.length * 36 + 40) : 280);
  const rows = data.map((datum) => [
    datum.label === highlight ? `${datum.label} (${highlightLabel})` : datum.label,
    formatValue(datum.value),
  ]);
  const longest = Math.max(0, ...data.map((datum) => datum.label.length));

  return (
    <ChartFrame
      title={title}
      description={description}
      summary={summarizeCategories(
        data,
        valueLabel,
        formatValue,
        highlight ? { label: highlight, name: highlightLabel } : null,
      )}
      table={{ columns: [categoryLabel, valueLabel], rows }}
      height={chartHeight}
      emptyText={emptyText}
      className={className}
    >
      <ResponsiveContainer width="100%" height="100%" initialDimension={{ width: 320, height: chartHeight }}>
        <BarChart
          data={[...data]}
          layout={horizontal ? 'vertical' : 'horizontal'}
          margin={{ top: 8, right: 16, bottom: 4, left: 4 }}
          accessibilityLayer
        >
          <CartesianGrid
            stroke={chartColors.grid}
            strokeDasharray="3 4"
            vertical={horizontal}
            horizontal={!horizontal}
          />
          {horizontal ? (
            <>
              <XAxis
                type="number"
                tick={axisTick}
                stroke={chartColors.grid}
                allowDecimals={false}
                tickFormatter={formatValue}
              />
              <YAxis
                type="category"
                dataKey="label"
                tick={axisTick}
                stroke={chartColors.grid}
                width={Math.min(160, Math.max(48, longest * 7))}
              />
            </>
          ) : (
            <>
              <XAxis dataKey="label" tick={axisTick} stroke={chartColors.grid} interval="preserveStartEnd" />
              <YAxis
                tick={axisTick}
                stroke={chartColors.grid}
                allowDecimals={false}
                width={44}
                tickFormatter={formatValue}
              />
            </>
          )}
          <Tooltip {...tooltipStyles} formatter={(value) => [formatValue(Number(value)), valueLabel]} />
          <Bar
            dataKey="value"
            name={valueLabel}
            radius={horizontal ? [0, 4, 4, 0] : [4, 4, 0, 0]}
            isAnimationActive={false}
          >
            {data.map((datum) => (
              <Cell
                key={datum.label}
                fill={datum.label === highlight ? chartColors.highlight : chartColors.primary}
                data-highlighted={datum.label === highlight ? 'true' : undefined}
              />
            ))}
          </Bar>
        </BarChart>
      </ResponsiveContainer>
    </ChartFrame>
  );
}
