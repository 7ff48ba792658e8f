import type { VariableChartResponse } from '@courselens/contracts';

import {
  CategoryBarChart,
  HistogramChart,
  isCurrentPeriod,
  partialPeriodLabel,
  ShareDonutChart,
  TrendLineChart,
} from '@/components/charts';
import { Spinner } from '@/components/ui/spinner';
import { isApiError } from '@/lib/api-client';

export type VariableChartViewProps = {
  data: VariableChartResponse | undefined;
  isPending: boolean;
  error: unknown;
  interval: 'day' | 'week' | undefined;
  onIntervalChange: (interval: 'day' | 'week' | undefined) => void;
};

/** The distribution of the latest values and the trend of every value over time. */
export function VariableChartView({
  data,
  isPending,
  error,
  interval,
  onIntervalChange,
}: VariableChartViewProps) {
  if (isPending) {
    return (
      <div className="flex justify-center py-16">
        <Spinner label="Loading the chart" />
      </div>
    );
  }
  if (error || !data) {
    return (
      <p role="alert" className="rounded-2xl border border-line bg-surface p-6 text-sm text-fg-muted">
        {isApiError(error) ? error.message : 'The chart could not be loaded. Please try again.'}
      </p>
    );
  }
  const { distribution, trend, variable } = data;
  const isNumber = variable.dataType === 'number';
  const categories =
    distribution.kind === 'categories'
      ? distribution.items.map((item, index, items) => ({
          label: item.label,
          value: item.count,
          // Text comes as the top 10 values and, last, "Other" for the rest: drawn apart, in grey.
          isOthers:
            variable.dataType === 'text' &&
            items.length > 10 &&
            index === items.length - 1 &&
            item.label === 'Other',
        }))
      : [];
  const empty = 'No values match these filters yet.';

  return (
    <div className="grid gap-4 lg:grid-cols-2">
      {distribution.kind === 'histogram' ? (
        <HistogramChart
          title="Distribution of the latest values"
          description="Learners per range of their latest value."
          bins={distribution.bins}
          countLabel="Learners"
          valueLabel={variable.title || variable.name}
          emptyText={empty}
        />
      ) : variable.dataType === 'boolean' ? (
        <ShareDonutChart
          title="True, false and unset"
          description="Each learner's latest value."
          data={categories}
          valueLabel="Learners"
          categoryLabel="Value"
          emptyText={empty}
        />
      ) : (
        <CategoryBarChart
          title={variable.dataType === 'date' ? 'Latest values by month' : 'Most frequent latest values'}
          description={
            variable.dataType === 'date'
              ? 'Learners per month of their date.'
              : 'The 10 most frequent values; the rest as Other.'
          }
          data={categories}
          valueLabel="Learners"
          categoryLabel={variable.dataType === 'date' ? 'Month' : 'Value'}
          orientation={variable.dataType === 'date' ? 'vertical' : 'horizontal'}
          isAdditive
          emptyText={empty}
        />
      )}
      <TrendLineChart
        title={trend.interval === 'week' ? 'Values per week' : 'Values per day'}
        description={
          isNumber ? 'How many values were recorded, and their mean.' : 'How many values were recorded.'
        }
        data={trend.points.map((point) => ({
          date: point.date,
          count: point.count,
          mean: point.mean,
          isPartial: point.isPartial ?? isCurrentPeriod(point.date, trend.interval),
        }))}
        series={[
          { key: 'count', label: 'Values recorded' },
          ...(isNumber ? [{ key: 'mean', label: 'Mean value', axis: 'right' as const }] : []),
        ]}
        dateLabel={trend.interval === 'week' ? 'Week of' : 'Day'}
        xLabel={trend.interval === 'week' ? 'Week (from Monday, UTC)' : 'Day (UTC)'}
        partialLabel={partialPeriodLabel(trend.interval)}
        emptyText={empty}
        className="lg:col-span-1"
      />
      <div className="flex items-center gap-2 text-sm text-fg-muted lg:col-span-2">
        <label htmlFor="trend-interval">Trend by</label>
        <select
          id="trend-interval"
          value={interval ?? ''}
          onChange={(event) =>
            onIntervalChange((event.target.value || undefined) as 'day' | 'week' | undefined)
          }
          className="rounded-lg border border-line bg-surface px-2 py-1 text-sm text-fg"
        >
          <option value="">Automatic</option>
          <option value="day">Day</option>
          <option value="week">Week</option>
        </select>
      </div>
    </div>
  );
}
