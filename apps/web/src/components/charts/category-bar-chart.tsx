import { Bar, BarChart, CartesianGrid, Cell, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';

import { truncatedTick, useChartWidth, type TickProps } from './axis-tick';
import { capCategories, MAX_BAR_CATEGORIES, type CappedCategories, type CategoryDatum } from './categories';
import { ChartFrame } from './chart-frame';
import {
  axisTick,
  capitalize,
  charsThatFit,
  chartColors,
  formatChartNumber,
  NARROW_CHART_WIDTH,
  niceTicks,
  tooltipStyles,
  truncateLabel,
  withUnit,
} from './chart-theme';

export type { CategoryDatum } from './categories';

/**
 * Props of `CategoryBarChart`. Everything past `data` and `valueLabel` is
 * optional; the axis titles default to `categoryLabel` and `valueLabel`
 * (with `unit`), so every bar chart has both.
 */
export type CategoryBarChartProps = {
  title: string;
  description?: string;
  /** The bars, in the order to draw them. A row flagged `isOthers` sums up groups past the caller's limit. */
  data: readonly CategoryDatum[];
  /** What a value counts, for the table header and tooltip ("learners"); capitalized, the value axis title. */
  valueLabel: string;
  /** Header of the table's first column and title of the category axis ("Answer"). */
  categoryLabel?: string;
  /** The unit of the values, added to the value axis title and table header ("%", "points"). */
  unit?: string;
  /** Overrides the title under the horizontal axis (categories for columns, values for horizontal bars). */
  xLabel?: string;
  /** Overrides the title above the vertical axis (values for columns, categories for horizontal bars). */
  yLabel?: string;
  /** The label of a bar drawn apart (e.g. the correct answer). */
  highlight?: string | null;
  /** What the highlighted bar is, said in the summary and the table ("correct answer"). */
  highlightLabel?: string;
  /**
   * `vertical`: columns rising from the x axis; `horizontal`: bars from the left, for long labels.
   * Columns too narrow for long labels are drawn as horizontal bars anyway.
   */
  orientation?: 'vertical' | 'horizontal';
  formatValue?: (value: number) => string;
  /** Height of the drawing in px; by default 300 for columns, a fixed row height per bar for horizontal bars. */
  height?: number;
  emptyText?: string;
  className?: string;
  /** Bars drawn at most, "Others" included (30 by default). */
  maxCategories?: number;
  /** A row summing up the groups past the caller's own limit (as reports send it), drawn last in grey. */
  others?: CategoryDatum | null;
  /** The name of the row that sums up the rest ("Others"). */
  othersLabel?: string;
  /**
   * The values add up (counts): the bars past the cap are summed into
   * "Others". Leave it off for means and rates: the top bars are drawn and
   * the footnote says how many were left out.
   */
  isAdditive?: boolean;
};

/** Height of one horizontal bar's row in px: 30 bars and the axes stay under 900 px. */
export const BAR_ROW_HEIGHT = 26;
/** On a phone each horizontal bar has its label on a line of its own above it: 30 bars stay under 1,100 px. */
export const STACKED_BAR_ROW_HEIGHT = 32;
/** The plot's left edge when labels sit above the bars: room for half of the value axis' first tick ("0%"). */
const LABELS_ABOVE_LEFT = 14;

/** Describes the bars in one sentence for assistive technology. */
export function summarizeCategories(
  data: readonly CategoryDatum[],
  valueLabel: string,
  formatValue: (value: number) => string,
  highlight?: { label: string; name: string } | null,
): string {
  if (data.length === 0) return 'no data';
  const ranked = data.filter((datum) => !datum.isOthers);
  const top = (ranked.length > 0 ? ranked : data).reduce((best, datum) =>
    datum.value > best.value ? datum : best,
  );
  const parts = [
    `${data.length} ${data.length === 1 ? 'bar' : 'bars'}`,
    `highest ${top.label} with ${formatValue(top.value)} ${valueLabel}`,
  ];
  const marked = highlight ? data.find((datum) => datum.label === highlight.label) : undefined;
  if (marked && highlight) parts.push(`${highlight.name} ${marked.label} with ${formatValue(marked.value)}`);
  const others = data.find((datum) => datum.isOthers);
  if (others) parts.push(`${others.label} with ${formatValue(others.value)}`);
  return parts.join(', ');
}

/** Says what the cap did: how many bars are drawn of how many, and what "Others" holds. */
export function capNote(capped: CappedCategories): string | null {
  const shown = formatChartNumber(capped.rows.length - (capped.others ? 1 : 0));
  const ofTotal = capped.total === null ? '' : ` of ${formatChartNumber(capped.total)}`;
  if (capped.omitted > 0) {
    return `Showing the ${shown} highest${ofTotal}; the other ${formatChartNumber(capped.omitted)} are left out.`;
  }
  if (!capped.others) return null;
  if (capped.hidden === null) {
    // The caller's own "Others" without a count: only worth a note when this cap folded rows into it.
    return capped.folded > 0
      ? `Showing the ${shown} largest; the rest are summed up in “${capped.others.label}”.`
      : null;
  }
  if (capped.hidden === 0) return null;
  return `Showing the ${shown} largest${ofTotal}; the other ${formatChartNumber(capped.hidden)} are summed up in “${capped.others.label}”.`;
}

/** Bars for categories (answers, text values, true/false), one optionally highlighted, at most 30. */
export function CategoryBarChart({
  title,
  description,
  data,
  valueLabel,
  categoryLabel = 'Category',
  unit,
  xLabel,
  yLabel,
  highlight = null,
  highlightLabel = 'highlighted',
  orientation = 'vertical',
  formatValue = formatChartNumber,
  height,
  emptyText,
  className,
  maxCategories = MAX_BAR_CATEGORIES,
  others = null,
  othersLabel = 'Others',
  isAdditive = false,
}: CategoryBarChartProps) {
  const { width, onResize } = useChartWidth();
  const capped = capCategories(data, { max: maxCategories, others, othersLabel, isAdditive });
  const rows = capped.rows;
  const isNarrow = width < NARROW_CHART_WIDTH;
  const longest = Math.max(0, ...rows.map((datum) => datum.label.length));
  const slot = (width - 60) / Math.max(1, rows.length);
  // A column's label shows when it fits whole or keeps 10 characters (one cut to "2026…" tells nothing).
  const fitsInColumn = charsThatFit(slot - 6);
  const labelsEveryColumn = fitsInColumn >= Math.min(longest, 10);
  // Columns too narrow for their long labels (answers, names) turn into horizontal bars, whose
  // labels have room; short ones (months, numbers) stay columns and show every other label or fewer.
  const horizontal = orientation === 'horizontal' || (!labelsEveryColumn && longest > 8);
  // On a phone a label column would leave the bars no room: each label goes above its bar, full width.
  const labelsAbove = horizontal && isNarrow;
  const rowHeight = labelsAbove ? STACKED_BAR_ROW_HEIGHT : BAR_ROW_HEIGHT;
  // Axis titles sit above and under the drawing: about 36 px of its height.
  const chartHeight = height ?? (horizontal ? Math.max(180, rows.length * rowHeight + 76) : 300);
  const valueTitle = withUnit(capitalize(valueLabel), unit);
  const tableRows = rows.map((datum) => [
    datum.label === highlight ? `${datum.label} (${highlightLabel})` : datum.label,
    formatValue(datum.value),
  ]);
  // Horizontal bars: the labels get up to 45% of the width (260 px at most); the bars keep the rest.
  const categoryWidth = Math.min(260, Math.max(56, Math.round(width * 0.45)));
  const labelAxisWidth = Math.min(categoryWidth, Math.max(48, longest * 6.5 + 12));
  const maxChars = labelsAbove
    ? charsThatFit(width - 24)
    : horizontal
      ? charsThatFit(labelAxisWidth - 10)
      : labelsEveryColumn
        ? Math.min(24, fitsInColumn)
        : Math.min(16, Math.max(6, charsThatFit(slot * 2)));
  const shorten = (label: string) => truncateLabel(label, maxChars);
  const values = rows.map((datum) => datum.value);
  const valueTicks = niceTicks(
    Math.min(0, ...values),
    Math.max(0, ...values),
    isNarrow ? 4 : 5,
    values.every(Number.isInteger),
  );
  const valueDomain: [number, number] | undefined = valueTicks ? [0, valueTicks.at(-1) ?? 1] : undefined;
  const fillOf = (datum: CategoryDatum) =>
    datum.isOthers
      ? chartColors.others
      : datum.label === highlight
        ? chartColors.highlight
        : chartColors.primary;
  // On a phone each category's label sits above its bar, from the plot's left edge. It is the
  // category axis' tick, not a label of the bar: a bar of 0 draws nothing, yet its row keeps a name.
  const plotLeft = labelsAbove ? LABELS_ABOVE_LEFT : 4;
  const renderLabelAbove = ({ y, payload }: TickProps) => {
    const full = String(payload.value);
    return (
      <g data-tick={full}>
        <title>{full}</title>
        <text x={plotLeft} y={Number(y) - 11} fill={axisTick.fill} fontSize={axisTick.fontSize}>
          {shorten(full)}
        </text>
      </g>
    );
  };

  return (
    <ChartFrame
      title={title}
      description={description}
      summary={summarizeCategories(
        rows,
        valueLabel,
        formatValue,
        highlight ? { label: highlight, name: highlightLabel } : null,
      )}
      table={{ columns: [categoryLabel, withUnit(valueLabel, unit)], rows: tableRows }}
      height={chartHeight}
      emptyText={emptyText}
      className={className}
      axisTitles={{
        x: xLabel ?? (horizontal ? valueTitle : categoryLabel),
        y: yLabel ?? (horizontal ? categoryLabel : valueTitle),
      }}
      footnote={capNote(capped)}
    >
      <ResponsiveContainer
        width="100%"
        height="100%"
        initialDimension={{ width: 320, height: chartHeight }}
        onResize={onResize}
      >
        <BarChart
          data={rows}
          layout={horizontal ? 'vertical' : 'horizontal'}
          margin={{ top: 4, right: 16, bottom: 0, left: plotLeft }}
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
                ticks={valueTicks}
                domain={valueDomain}
                interval={0}
                tickFormatter={formatValue}
              />
              <YAxis
                type="category"
                dataKey="label"
                stroke={chartColors.grid}
                width={labelsAbove ? 1 : labelAxisWidth}
                axisLine={!labelsAbove}
                tickLine={!labelsAbove}
                interval={0}
                tickFormatter={shorten}
                tick={labelsAbove ? renderLabelAbove : truncatedTick(shorten)}
              />
            </>
          ) : (
            <>
              <XAxis
                dataKey="label"
                stroke={chartColors.grid}
                interval={labelsEveryColumn ? 0 : 'preserveStartEnd'}
                minTickGap={isNarrow ? 4 : 8}
                tickFormatter={shorten}
                tick={truncatedTick(shorten)}
              />
              <YAxis
                tick={axisTick}
                stroke={chartColors.grid}
                width={48}
                ticks={valueTicks}
                domain={valueDomain}
                interval={0}
                tickFormatter={formatValue}
              />
            </>
          )}
          <Tooltip {...tooltipStyles} formatter={(value) => [formatValue(Number(value)), valueLabel]} />
          <Bar
            dataKey="value"
            name={valueLabel}
            radius={horizontal ? [0, 4, 4, 0] : [4, 4, 0, 0]}
            maxBarSize={horizontal ? (labelsAbove ? 12 : 20) : 56}
            barSize={labelsAbove ? 12 : undefined}
            isAnimationActive={false}
          >
            {rows.map((datum) => (
              <Cell
                key={datum.label}
                fill={fillOf(datum)}
                data-highlighted={datum.label === highlight ? 'true' : undefined}
                data-others={datum.isOthers ? 'true' : undefined}
              />
            ))}
          </Bar>
        </BarChart>
      </ResponsiveContainer>
    </ChartFrame>
  );
}
