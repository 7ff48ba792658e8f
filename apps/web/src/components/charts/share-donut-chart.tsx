import { Cell, Legend, Pie, PieChart, ResponsiveContainer, Tooltip } from 'recharts';

import { ChartFrame } from './chart-frame';
import { chartColors, formatChartNumber, seriesColor, tooltipStyles } from './chart-theme';
import type { CategoryDatum } from './category-bar-chart';

export type ShareDonutChartProps = {
  title: string;
  description?: string;
  data: readonly CategoryDatum[];
  valueLabel: string;
  categoryLabel?: string;
  height?: number;
  emptyText?: string;
  className?: string;
};

function percent(part: number, total: number): string {
  return total === 0 ? '0%' : `${formatChartNumber(Math.round((part / total) * 1000) / 10)}%`;
}

/** Shares of a whole as a donut, with each share's percentage in the table. */
export function ShareDonutChart({
  title,
  description,
  data,
  valueLabel,
  categoryLabel = 'Category',
  height = 260,
  emptyText,
  className,
}: ShareDonutChartProps) {
  const total = data.reduce((sum, datum) => sum + datum.value, 0);
  const summary =
    data.length === 0
      ? 'no data'
      : data.map((datum) => `${datum.label} ${percent(datum.value, total)}`).join(', ');

  return (
    <ChartFrame
      title={title}
      description={description}
      summary={summary}
      table={{
        columns: [categoryLabel, valueLabel, 'Share'],
        rows: data.map((datum) => [datum.label, datum.value, percent(datum.value, total)]),
      }}
      height={height}
      emptyText={emptyText}
      className={className}
    >
      <ResponsiveContainer width="100%" height="100%" initialDimension={{ width: 320, height }}>
        <PieChart accessibilityLayer>
          <Pie
            data={[...data]}
            dataKey="value"
            nameKey="label"
            innerRadius="55%"
            outerRadius="85%"
            paddingAngle={data.length > 1 ? 1 : 0}
            stroke={chartColors.surface}
            isAnimationActive={false}
          >
            {data.map((datum, index) => (
              <Cell key={datum.label} fill={seriesColor(index)} />
            ))}
          </Pie>
          <Tooltip
            {...tooltipStyles}
            formatter={(value, name) => [
              `${formatChartNumber(Number(value))} (${percent(Number(value), total)})`,
              name,
            ]}
          />
          <Legend wrapperStyle={{ fontSize: 12, color: 'var(--cl-fg-muted)' }} />
        </PieChart>
      </ResponsiveContainer>
    </ChartFrame>
  );
}
