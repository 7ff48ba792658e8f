import {
  COMPARISON_TYPE_LABELS,
  type CustomReportType,
  type ReportData,
  type ReportDataRow,
  type ReportItemData,
} from '@courselens/contracts';

import { CategoryBarChart, ShareDonutChart, TrendLineChart } from '@/components/charts';
import { Card } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { formatDate, formatDecimal, formatNumber, formatPercent } from '@/lib/format';

/** The figure an item's chart draws: what a person expects to compare for that kind of data. */
export type ItemMetric = { key: 'mean' | 'rate' | 'count' | 'points'; label: string; percent: boolean };

export function itemMetric(item: Pick<ReportItemData, 'kind' | 'dataType' | 'comparisonType'>): ItemMetric {
  if (item.kind !== 'variable') {
    return item.comparisonType === 'by_learner'
      ? { key: 'points', label: 'Points', percent: false }
      : { key: 'rate', label: 'Correct rate', percent: true };
  }
  if (item.dataType === 'number') return { key: 'mean', label: 'Mean', percent: false };
  if (item.dataType === 'boolean') return { key: 'rate', label: 'True rate', percent: true };
  return { key: 'count', label: 'Values', percent: false };
}

export function metricValue(row: ReportDataRow, metric: ItemMetric): number | null {
  const value = row[metric.key];
  if (value === null) return null;
  return metric.percent ? Math.round(value * 1000) / 10 : value;
}

function formatMetric(value: number | null, metric: ItemMetric): string {
  if (value === null) return '—';
  return metric.percent ? `${formatDecimal(value)}%` : formatDecimal(value);
}

const GROUP_LABELS = { by_learner: 'Learner', by_course: 'Course', over_time: 'Week of' } as const;

function rowLabel(item: ReportItemData, row: ReportDataRow): string {
  return item.comparisonType === 'over_time' ? formatDate(`${row.key}T00:00:00Z`) : row.label;
}

/** The breakdown as a plain table: every figure the server assembled for the item. */
export function ItemTable({ item }: { item: ReportItemData }) {
  const isQuestion = item.kind !== 'variable';
  const showValue = item.comparisonType === 'by_learner';
  return (
    <div className="overflow-x-auto rounded-xl border border-line">
      <table className="w-full min-w-[28rem] text-left text-sm">
        <caption className="sr-only">
          {item.title}, {COMPARISON_TYPE_LABELS[item.comparisonType].toLowerCase()}
        </caption>
        <thead className="bg-surface-muted text-xs text-fg-muted uppercase">
          <tr>
            <th scope="col" className="px-3 py-2 font-medium">
              {GROUP_LABELS[item.comparisonType]}
            </th>
            {showValue ? (
              <th scope="col" className="px-3 py-2 font-medium">
                {isQuestion ? 'Last answer' : 'Latest value'}
              </th>
            ) : null}
            <th scope="col" className="px-3 py-2 text-right font-medium">
              {isQuestion ? 'Answers' : 'Values'}
            </th>
            {showValue ? null : (
              <th scope="col" className="px-3 py-2 text-right font-medium">
                Learners
              </th>
            )}
            {isQuestion || item.dataType === 'number' ? (
              <th scope="col" className="px-3 py-2 text-right font-medium">
                {isQuestion ? 'Mean points' : 'Mean'}
              </th>
            ) : null}
            {isQuestion || item.dataType === 'boolean' ? (
              <th scope="col" className="px-3 py-2 text-right font-medium">
                {isQuestion ? 'Correct' : 'True'}
              </th>
            ) : null}
            {isQuestion ? (
              <th scope="col" className="px-3 py-2 text-right font-medium">
                Points
              </th>
            ) : null}
          </tr>
        </thead>
        <tbody className="divide-y divide-line">
          {item.rows.map((row) => (
            <tr key={row.key}>
              <th scope="row" className="px-3 py-2 font-medium break-words text-fg">
                {rowLabel(item, row)}
              </th>
              {showValue ? <td className="px-3 py-2 break-words text-fg-muted">{row.value ?? '—'}</td> : null}
              <td className="px-3 py-2 text-right tabular-nums">{formatNumber(row.count)}</td>
              {showValue ? null : (
                <td className="px-3 py-2 text-right tabular-nums">{formatNumber(row.learners)}</td>
              )}
              {isQuestion || item.dataType === 'number' ? (
                <td className="px-3 py-2 text-right tabular-nums">{formatDecimal(row.mean)}</td>
              ) : null}
              {isQuestion || item.dataType === 'boolean' ? (
                <td className="px-3 py-2 text-right tabular-nums">{formatPercent(row.rate)}</td>
              ) : null}
              {isQuestion ? (
                <td className="px-3 py-2 text-right tabular-nums">{formatDecimal(row.points)}</td>
              ) : null}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function Leaderboard({ item, metric }: { item: ReportItemData; metric: ItemMetric }) {
  return (
    <ol
      className="divide-y divide-line rounded-xl border border-line"
      aria-label={`${item.title} leaderboard`}
    >
      {item.rows.map((row, index) => (
        <li key={row.key} className="flex items-center gap-3 px-3 py-2 text-sm">
          <span
            className="flex size-7 shrink-0 items-center justify-center rounded-full bg-surface-muted text-xs font-semibold tabular-nums"
            aria-label={`Rank ${index + 1}`}
          >
            {index + 1}
          </span>
          <span className="min-w-0 flex-1 break-words text-fg">{rowLabel(item, row)}</span>
          <span className="font-semibold tabular-nums">{formatMetric(metricValue(row, metric), metric)}</span>
        </li>
      ))}
    </ol>
  );
}

function ItemChart({ item, reportType }: { item: ReportItemData; reportType: CustomReportType }) {
  const metric = itemMetric(item);
  const description = `${COMPARISON_TYPE_LABELS[item.comparisonType]} · ${metric.label}${metric.percent ? ' (%)' : ''}`;
  if (item.comparisonType === 'over_time') {
    return (
      <TrendLineChart
        title={item.title}
        description={description}
        dateLabel="Week of"
        data={item.rows.map((row) => ({ date: row.key, value: metricValue(row, metric), count: row.count }))}
        series={[
          { key: 'value', label: metric.label },
          ...(metric.key === 'count' ? [] : [{ key: 'count', label: 'Count', axis: 'right' as const }]),
        ]}
      />
    );
  }
  const data = item.rows.flatMap((row) => {
    const value = metricValue(row, metric);
    return value === null ? [] : [{ label: rowLabel(item, row), value }];
  });
  const categoryLabel = GROUP_LABELS[item.comparisonType];
  if (reportType === 'pie') {
    return (
      <ShareDonutChart
        title={item.title}
        description={description}
        data={data}
        valueLabel={metric.label.toLowerCase()}
        categoryLabel={categoryLabel}
      />
    );
  }
  return (
    <CategoryBarChart
      title={item.title}
      description={description}
      data={data}
      valueLabel={metric.label.toLowerCase()}
      categoryLabel={categoryLabel}
      orientation={reportType === 'comparison' || data.length > 8 ? 'horizontal' : 'vertical'}
      formatValue={(value) => formatMetric(value, metric)}
    />
  );
}

function Totals({ item }: { item: ReportItemData }) {
  const isQuestion = item.kind !== 'variable';
  const facts: [string, string][] = [
    [isQuestion ? 'Answers' : 'Values', formatNumber(item.totals.count)],
    ['Learners', formatNumber(item.totals.learners)],
  ];
  if (isQuestion) {
    facts.push(
      ['Correct rate', formatPercent(item.totals.rate)],
      ['Mean points', formatDecimal(item.totals.mean)],
    );
  } else if (item.dataType === 'number') {
    facts.push(
      ['Mean', formatDecimal(item.totals.mean)],
      ['Min', formatDecimal(item.totals.min)],
      ['Max', formatDecimal(item.totals.max)],
    );
  } else if (item.dataType === 'boolean') {
    facts.push(['True rate', formatPercent(item.totals.rate)]);
  }
  return (
    <dl className="grid grid-cols-2 gap-2 sm:grid-cols-3 lg:grid-cols-5">
      {facts.map(([term, value]) => (
        <div key={term} className="rounded-lg bg-surface-muted px-3 py-2">
          <dt className="text-xs text-fg-muted">{term}</dt>
          <dd className="text-lg font-semibold tabular-nums" data-testid={`total-${term}`}>
            {value}
          </dd>
        </div>
      ))}
    </dl>
  );
}

/** One section per item: its totals, then a chart, leaderboard or table as the report type says. */
export function ReportDataView({ data, reportType }: { data: ReportData; reportType: CustomReportType }) {
  if (data.items.length === 0) {
    return (
      <Card className="p-6">
        <EmptyState title="This report has no variables or questions yet">
          Edit the report to add what it should show.
        </EmptyState>
      </Card>
    );
  }
  return (
    <div className="flex flex-col gap-6">
      {data.since ? <p className="text-sm text-fg-muted">Data since {formatDate(data.since)}.</p> : null}
      {data.items.map((item) => (
        <section
          key={item.itemId}
          aria-labelledby={`item-${item.itemId}`}
          className="flex min-w-0 flex-col gap-3 break-inside-avoid rounded-2xl border border-line bg-surface p-4 sm:p-5"
        >
          <div className="flex flex-wrap items-baseline justify-between gap-2">
            <h2 id={`item-${item.itemId}`} className="text-lg font-semibold break-words text-fg">
              {item.title}
            </h2>
            <p className="text-xs text-fg-muted">
              {[item.courseTitle, COMPARISON_TYPE_LABELS[item.comparisonType]].filter(Boolean).join(' · ')}
            </p>
          </div>
          {item.available ? (
            <>
              <Totals item={item} />
              {item.rows.length === 0 ? (
                <p className="text-sm text-fg-muted">No data for this item yet.</p>
              ) : reportType === 'table' ? (
                <ItemTable item={item} />
              ) : reportType === 'leaderboard' && item.comparisonType !== 'over_time' ? (
                <Leaderboard item={item} metric={itemMetric(item)} />
              ) : (
                <ItemChart item={item} reportType={reportType} />
              )}
              {item.truncated ? (
                <p className="text-xs text-fg-muted">
                  Showing the first {formatNumber(item.rows.length)} rows.
                </p>
              ) : null}
            </>
          ) : (
            <p className="text-sm text-fg-muted">The course of this item was deleted; it has no data.</p>
          )}
        </section>
      ))}
    </div>
  );
}
