import { Cell, Pie, PieChart, ResponsiveContainer, Tooltip } from 'recharts';

import { capNote } from './category-bar-chart';
import { capCategories, MAX_PIE_SLICES, type CategoryDatum } from './categories';
import { ChartFrame } from './chart-frame';
import { chartColors, formatChartNumber, seriesColor, tooltipStyles } from './chart-theme';

/**
 * Props of `ShareDonutChart`. A pie only shows shares of a whole: pass
 * counts or sums, never means or rates. At most `maxSlices` slices are
 * drawn, the smallest summed up in a grey "Others".
 */
export type ShareDonutChartProps = {
  title: string;
  description?: string;
  data: readonly CategoryDatum[];
  valueLabel: string;
  categoryLabel?: string;
  height?: number;
  emptyText?: string;
  className?: string;
  /** Slices drawn at most, "Others" included (8 by default). */
  maxSlices?: number;
  /** A row summing up the groups past the caller's own limit, drawn last in grey. */
  others?: CategoryDatum | null;
  /** The name of the slice that sums up the rest ("Others"). */
  othersLabel?: string;
};

function percent(part: number, total: number): string {
  return total === 0 ? '0%' : `${formatChartNumber(Math.round((part / total) * 1000) / 10)}%`;
}

/** Shares of a whole as a donut, a legend that wraps under it, each share's percentage in the table. */
export function ShareDonutChart({
  title,
  description,
  data,
  valueLabel,
  categoryLabel = 'Category',
  height = 240,
  emptyText,
  className,
  maxSlices = MAX_PIE_SLICES,
  others = null,
  othersLabel = 'Others',
}: ShareDonutChartProps) {
  const capped = capCategories(data, { max: maxSlices, others, othersLabel, isAdditive: true });
  const slices = capped.rows;
  const total = slices.reduce((sum, datum) => sum + datum.value, 0);
  const colorOf = (datum: CategoryDatum, index: number) =>
    datum.isOthers ? chartColors.others : seriesColor(index);
  const summary =
    slices.length === 0
      ? 'no data'
      : slices.map((datum) => `${datum.label} ${percent(datum.value, total)}`).join(', ');

  return (
    <ChartFrame
      title={title}
      description={description}
      summary={summary}
      table={{
        columns: [categoryLabel, valueLabel, 'Share'],
        rows: slices.map((datum) => [datum.label, datum.value, percent(datum.value, total)]),
      }}
      height={height}
      emptyText={emptyText}
      className={className}
      footnote={capNote(capped)}
      legend={
        <ul className="mt-3 flex flex-wrap gap-x-4 gap-y-1.5 text-xs text-fg-muted" aria-hidden="true">
          {slices.map((datum, index) => (
            <li key={datum.label} className="flex max-w-full min-w-0 items-center gap-1.5">
              <span className="size-2.5 shrink-0 rounded-sm" style={{ background: colorOf(datum, index) }} />
              <span className="max-w-[14rem] truncate text-fg" title={datum.label}>
                {datum.label}
              </span>
              <span className="tabular-nums">{percent(datum.value, total)}</span>
            </li>
          ))}
        </ul>
      }
    >
      <ResponsiveContainer width="100%" height="100%" initialDimension={{ width: 320, height }}>
        <PieChart accessibilityLayer>
          <Pie
            data={slices}
            dataKey="value"
            nameKey="label"
            innerRadius="55%"
            outerRadius="90%"
            paddingAngle={slices.length > 1 ? 1 : 0}
            stroke={chartColors.surface}
            isAnimationActive={false}
          >
            {slices.map((datum, index) => (
              <Cell
                key={datum.label}
                fill={colorOf(datum, index)}
                data-others={datum.isOthers ? 'true' : undefined}
              />
            ))}
          </Pie>
          <Tooltip
            {...tooltipStyles}
            formatter={(value, name) => [
              `${formatChartNumber(Number(value))} (${percent(Number(value), total)})`,
              name,
            ]}
          />
        </PieChart>
      </ResponsiveContainer>
    </ChartFrame>
  );
}
