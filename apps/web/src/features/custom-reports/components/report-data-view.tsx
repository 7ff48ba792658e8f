import {
  COUNT_MEASURES,
  METRIC_DEFINITIONS,
  SUBJECT_COUNTS,
  TIME_BREAKDOWNS,
  VARIABLE_SUBJECTS,
  type BreakdownKind,
  type ReportData,
  type ReportItemData,
  type ReportResult,
  type ReportResultRow,
  type SubjectKind,
} from '@courselens/contracts';

import {
  CategoryBarChart,
  partialPeriodLabel,
  ShareDonutChart,
  TrendLineChart,
  type TrendInterval,
} from '@/components/charts';
import { Badge } from '@/components/ui/badge';
import { Card } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { InfoTip } from '@/components/ui/info-tip';
import { cn } from '@/lib/cn';
import { formatDate } from '@/lib/format';

import { breakdownLabel, periodLabel } from './report-form';

// How report data reads: every item drawn with the chart the server
// resolved, each number written in its unit (a share as a percentage, a
// count whole), and each count next to what it counts.

type Unit = ReportResult['measure']['unit'];

const percentFormat = new Intl.NumberFormat('en-US', { style: 'percent', maximumFractionDigits: 1 });
const countFormat = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const numberFormat = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });

/** A measure's value as people read it: 0.643 of a rate is "64.3%", a count is whole. */
export function formatMeasureValue(value: number | null | undefined, unit: Unit): string {
  if (value === null || value === undefined || Number.isNaN(value)) return '—';
  if (unit === 'percent') return percentFormat.format(value);
  if (unit === 'count') return countFormat.format(Math.round(value));
  return numberFormat.format(value);
}

function formatCount(value: number): string {
  return countFormat.format(value);
}

/** What the subject counts in a row's `count`, with its one definition. */
export function countNoun(subject: SubjectKind): { label: string; definition: string } {
  return SUBJECT_COUNTS[subject];
}

const shortDay = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });
const longDay = new Intl.DateTimeFormat('en-US', {
  month: 'short',
  day: 'numeric',
  year: 'numeric',
  timeZone: 'UTC',
});
const monthYear = new Intl.DateTimeFormat('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' });

/** A time bucket (its start, YYYY-MM-DD) as a label: "Mar 3", "Week of Mar 3", "March 2026". */
export function bucketLabel(key: string, kind: BreakdownKind): string {
  const start = new Date(`${key.slice(0, 10)}T00:00:00Z`);
  if (Number.isNaN(start.getTime())) return key;
  if (kind === 'month') return monthYear.format(start);
  const day = (start.getUTCFullYear() === new Date().getUTCFullYear() ? shortDay : longDay).format(start);
  return kind === 'week' ? `Week of ${day}` : day;
}

/** A row's label; time buckets are written as dates. */
export function rowLabel(row: Pick<ReportResultRow, 'key' | 'label'>, kind: BreakdownKind): string {
  return TIME_BREAKDOWNS.includes(kind) ? bucketLabel(row.key, kind) : row.label;
}

/** "Others (12 more)": the groups past the top N, summed up. */
export function othersLabel(others: ReportResultRow): string {
  const groups = others.groups ?? 0;
  return `Others (${formatCount(groups)} more)`;
}

const SO_FAR = 'so far';

/** A label and its definition, the definition behind an info button. */
export function DefinedTerm({ label, definition }: { label: string; definition: string }) {
  return (
    <span className="inline-flex items-center gap-0.5">
      {label}
      <InfoTip label={`What ${label} means`}>{definition}</InfoTip>
    </span>
  );
}

/** The figures of one item: the measure over everything, its learners and what it counts. */
function ResultFacts({ item, result }: { item: ReportItemData; result: ReportResult }) {
  const noun = countNoun(item.query.subject.kind);
  const facts: { key: string; label: string; definition: string; value: string }[] = [
    {
      key: 'measure',
      label: result.measure.label,
      definition: result.measure.definition,
      value: formatMeasureValue(result.total.value, result.measure.unit),
    },
  ];
  if (result.measure.fn !== 'learners') {
    facts.push({
      key: 'learners',
      label: 'Learners',
      definition: METRIC_DEFINITIONS.learners,
      value: formatCount(result.total.learners),
    });
  }
  if (noun.label.toLowerCase() !== result.measure.fn) {
    facts.push({
      key: 'count',
      label: noun.label,
      definition: noun.definition,
      value: formatCount(result.total.count),
    });
  }
  return (
    <dl className="grid grid-cols-[repeat(auto-fill,minmax(4.25rem,1fr))] gap-2 sm:flex sm:flex-wrap">
      {facts.map((fact) => (
        <div
          key={fact.key}
          className="min-w-0 rounded-lg bg-surface-muted px-2.5 py-2 sm:min-w-[7rem] sm:px-3"
          data-testid={`fact-${fact.key}`}
        >
          <dt className="text-xs text-fg-muted">
            <DefinedTerm label={fact.label} definition={fact.definition} />
          </dt>
          <dd className="text-lg font-semibold text-fg tabular-nums">{fact.value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** No breakdown: one big number, with what it is and how many learners it covers. */
function BigNumber({ item, result }: { item: ReportItemData; result: ReportResult }) {
  const noun = countNoun(item.query.subject.kind);
  return (
    <div
      className="flex flex-col gap-1 rounded-xl bg-surface-muted px-4 py-4 sm:w-fit sm:min-w-[18rem] sm:pr-10"
      data-testid="big-number"
    >
      <p className="text-sm text-fg-muted">
        <DefinedTerm label={result.measure.label} definition={result.measure.definition} />
      </p>
      <p className="text-4xl font-bold tracking-tight text-fg tabular-nums">
        {formatMeasureValue(result.total.value, result.measure.unit)}
      </p>
      <p className="flex flex-wrap items-center gap-x-3 text-xs text-fg-muted">
        <span>
          <span className="tabular-nums">{formatCount(result.total.learners)}</span>{' '}
          <DefinedTerm label="learners" definition={METRIC_DEFINITIONS.learners} />
        </span>
        <span>
          <span className="tabular-nums">{formatCount(result.total.count)}</span>{' '}
          <DefinedTerm label={noun.label.toLowerCase()} definition={noun.definition} />
        </span>
      </p>
    </div>
  );
}

/** Every figure of the rows, with the "Others" row and the total; unfinished time buckets say "so far". */
export function ResultTable({
  item,
  result,
  maxRows,
}: {
  item: ReportItemData;
  result: ReportResult;
  /** Rows shown at most (the preview shows the first few). */
  maxRows?: number;
}) {
  const kind = result.breakdown.kind;
  const noun = countNoun(item.query.subject.kind);
  const showLearners = result.measure.fn !== 'learners';
  const showCount = noun.label.toLowerCase() !== result.measure.fn;
  const hasDetail = result.rows.some((row) => row.detail !== null);
  const detailLabel = VARIABLE_SUBJECTS.includes(item.query.subject.kind) ? 'Latest value' : 'Last answer';
  const rows = maxRows === undefined ? result.rows : result.rows.slice(0, maxRows);
  const hiddenRows = result.rows.length - rows.length;
  const isGrouped = kind !== 'none';

  const cells = (row: Pick<ReportResultRow, 'value' | 'learners' | 'count'>) => (
    <>
      <td className="px-3 py-2 text-right font-medium text-fg tabular-nums">
        {formatMeasureValue(row.value, result.measure.unit)}
      </td>
      {showLearners ? (
        <td className="px-3 py-2 text-right tabular-nums">{formatCount(row.learners)}</td>
      ) : null}
      {showCount ? <td className="px-3 py-2 text-right tabular-nums">{formatCount(row.count)}</td> : null}
    </>
  );

  return (
    <div className="overflow-x-auto rounded-xl border border-line">
      <table className={cn('w-full text-left text-sm', maxRows === undefined && 'min-w-[24rem]')}>
        <caption className="sr-only">
          {item.title}: {result.measure.label} by {result.breakdown.label}
        </caption>
        <thead className="bg-surface-muted text-xs text-fg-muted">
          <tr>
            <th scope="col" className="px-3 py-2 font-medium">
              {isGrouped ? result.breakdown.label : ''}
            </th>
            {hasDetail ? (
              <th scope="col" className="px-3 py-2 font-medium">
                {detailLabel}
              </th>
            ) : null}
            <th scope="col" className="px-3 py-2 text-right font-medium">
              <DefinedTerm label={result.measure.label} definition={result.measure.definition} />
            </th>
            {showLearners ? (
              <th scope="col" className="px-3 py-2 text-right font-medium">
                <DefinedTerm label="Learners" definition={METRIC_DEFINITIONS.learners} />
              </th>
            ) : null}
            {showCount ? (
              <th scope="col" className="px-3 py-2 text-right font-medium">
                <DefinedTerm label={noun.label} definition={noun.definition} />
              </th>
            ) : null}
          </tr>
        </thead>
        <tbody className="divide-y divide-line">
          {rows.map((row) => (
            <tr key={row.key} data-partial={row.isPartial || undefined}>
              <th
                scope="row"
                className={cn(
                  'px-3 py-2 font-medium break-words text-fg',
                  maxRows === undefined && 'min-w-[9rem]',
                )}
              >
                {rowLabel(row, kind)}
                {row.isPartial ? (
                  <Badge variant="warning" className="ml-2 align-middle">
                    {SO_FAR}
                  </Badge>
                ) : null}
              </th>
              {hasDetail ? (
                <td className="px-3 py-2 break-words text-fg-muted">{row.detail ?? '—'}</td>
              ) : null}
              {cells(row)}
            </tr>
          ))}
          {result.others && hiddenRows === 0 ? (
            <tr data-testid="others-row" className="text-fg-muted">
              <th scope="row" className="px-3 py-2 font-medium italic">
                {othersLabel(result.others)}
              </th>
              {hasDetail ? <td className="px-3 py-2" /> : null}
              {cells(result.others)}
            </tr>
          ) : null}
        </tbody>
        {isGrouped && hiddenRows === 0 ? (
          <tfoot className="border-t border-line-strong bg-surface-muted/60">
            <tr>
              <th scope="row" className="px-3 py-2 font-semibold text-fg">
                All
              </th>
              {hasDetail ? <td className="px-3 py-2" /> : null}
              {cells(result.total)}
            </tr>
          </tfoot>
        ) : null}
      </table>
      {hiddenRows > 0 ? (
        <p className="border-t border-line px-3 py-2 text-xs text-fg-muted">
          {formatCount(hiddenRows + (result.others?.groups ?? 0))} more rows in the report.
        </p>
      ) : null}
    </div>
  );
}

/** Learners ranked by the measure; the rest summed up as "Others". */
function Leaderboard({
  item,
  result,
  maxRows,
}: {
  item: ReportItemData;
  result: ReportResult;
  maxRows?: number;
}) {
  const rows = maxRows === undefined ? result.rows : result.rows.slice(0, maxRows);
  const hiddenRows = result.rows.length - rows.length;
  return (
    <div className="flex flex-col gap-2">
      <p className="text-xs text-fg-muted">
        Ranked by <DefinedTerm label={result.measure.label} definition={result.measure.definition} />
      </p>
      <ol
        className="divide-y divide-line rounded-xl border border-line"
        aria-label={`${item.title} leaderboard`}
      >
        {rows.map((row, index) => (
          <li key={row.key} className="flex items-center gap-3 px-3 py-2 text-sm">
            <span
              className="flex size-7 shrink-0 items-center justify-center rounded-full bg-surface-muted text-xs font-semibold tabular-nums"
              aria-label={`Rank ${index + 1}`}
            >
              {index + 1}
            </span>
            <span className="min-w-0 flex-1">
              <span className="block break-words text-fg">{rowLabel(row, result.breakdown.kind)}</span>
              {row.detail !== null && row.detail !== String(row.value) ? (
                <span className="block text-xs break-words text-fg-muted">{row.detail}</span>
              ) : null}
            </span>
            <span className="font-semibold text-fg tabular-nums">
              {formatMeasureValue(row.value, result.measure.unit)}
            </span>
          </li>
        ))}
        {result.others && hiddenRows === 0 ? (
          <li data-testid="others-row" className="flex items-center gap-3 px-3 py-2 text-sm text-fg-muted">
            <span className="size-7 shrink-0" aria-hidden="true" />
            <span className="min-w-0 flex-1 italic">{othersLabel(result.others)}</span>
            <span className="font-semibold tabular-nums">
              {formatMeasureValue(result.others.value, result.measure.unit)}
            </span>
          </li>
        ) : null}
      </ol>
      {hiddenRows > 0 ? (
        <p className="text-xs text-fg-muted">
          {formatCount(hiddenRows + (result.others?.groups ?? 0))} more in the report.
        </p>
      ) : null}
    </div>
  );
}

/** A share is charted from 0 to 100 so the axis reads in whole percentages. */
function chartScale(unit: Unit) {
  if (unit === 'percent') {
    return {
      toChart: (value: number) => Math.round(value * 1000) / 10,
      format: (value: number) => `${numberFormat.format(value)}%`,
      unit: '%' as string | undefined,
    };
  }
  return {
    toChart: (value: number) => value,
    format: (value: number) => formatMeasureValue(value, unit),
    unit: undefined,
  };
}

function ItemChart({
  item,
  result,
  compact,
}: {
  item: ReportItemData;
  result: ReportResult;
  compact: boolean;
}) {
  const kind = result.breakdown.kind;
  const scale = chartScale(result.measure.unit);
  const title = `${result.measure.label} by ${result.breakdown.label.toLowerCase()}`;
  const valueLabel = result.measure.label.toLowerCase();
  const categoryLabel = result.breakdown.label;
  // Means and rates do not add up: their "Others" is the measure over the rest, not a sum.
  const isAdditive = COUNT_MEASURES.includes(result.measure.fn) || result.measure.fn === 'sum';

  if (item.chart === 'line' && TIME_BREAKDOWNS.includes(kind)) {
    return (
      <TrendLineChart
        title={title}
        dateLabel={categoryLabel}
        height={compact ? 200 : 280}
        formatDate={(date) => bucketLabel(date, kind)}
        partialLabel={partialPeriodLabel(kind as TrendInterval)}
        data={result.rows.map((row) => ({
          date: row.key,
          isPartial: row.isPartial,
          value: row.value === null ? null : scale.toChart(row.value),
        }))}
        series={[{ key: 'value', label: result.measure.label, format: scale.format, unit: scale.unit }]}
      />
    );
  }

  const categories = result.rows.flatMap((row) =>
    row.value === null
      ? []
      : [
          {
            label: `${rowLabel(row, kind)}${row.isPartial ? ` (${SO_FAR})` : ''}`,
            value: scale.toChart(row.value),
          },
        ],
  );
  const others =
    result.others && result.others.value !== null
      ? {
          label: othersLabel(result.others),
          value: scale.toChart(result.others.value),
          isOthers: true,
          groups: result.others.groups ?? undefined,
        }
      : null;

  if (item.chart === 'pie') {
    return (
      <ShareDonutChart
        title={title}
        data={categories}
        others={others}
        valueLabel={valueLabel}
        categoryLabel={categoryLabel}
        height={compact ? 220 : 260}
      />
    );
  }
  const isLong = categories.length > 6 || categories.some((datum) => datum.label.length > 14);
  return (
    <CategoryBarChart
      title={title}
      data={categories}
      others={others}
      isAdditive={isAdditive}
      valueLabel={valueLabel}
      categoryLabel={categoryLabel}
      unit={scale.unit}
      orientation={isLong ? 'horizontal' : 'vertical'}
      formatValue={scale.format}
      height={!isLong && compact ? 220 : undefined}
    />
  );
}

function ItemBody({ item, compact }: { item: ReportItemData; compact: boolean }) {
  if (!item.available) {
    return <p className="text-sm text-fg-muted">What this item reads was deleted; it has no data.</p>;
  }
  const result = item.result;
  if (!result || (result.total.learners === 0 && result.rows.length === 0)) {
    return (
      <p className="rounded-lg border border-dashed border-line px-3 py-6 text-center text-sm text-fg-muted">
        No data for this item yet
        {item.query.filters.period ? ` in ${periodLabel(item.query.filters.period)}` : ''}.
      </p>
    );
  }
  const maxRows = compact ? 5 : undefined;
  switch (item.chart) {
    case 'number':
      return <BigNumber item={item} result={result} />;
    case 'table':
      return (
        <>
          <ResultFacts item={item} result={result} />
          <ResultTable item={item} result={result} maxRows={maxRows} />
        </>
      );
    case 'leaderboard':
      return (
        <>
          <ResultFacts item={item} result={result} />
          <Leaderboard item={item} result={result} maxRows={maxRows} />
        </>
      );
    default:
      return (
        <>
          <ResultFacts item={item} result={result} />
          <ItemChart item={item} result={result} compact={compact} />
          {compact ? <ResultTable item={item} result={result} maxRows={maxRows} /> : null}
        </>
      );
  }
}

/** The line under an item's title: its course, what it measures, the period and the rows shown. */
function itemSubtitle(item: ReportItemData): string {
  const { query, result } = item;
  const parts = [item.courseTitle];
  if (result) {
    parts.push(
      query.breakdown.kind === 'none'
        ? result.measure.label
        : `${result.measure.label} by ${breakdownLabel(query.breakdown)}`,
    );
  }
  if (query.filters.period) parts.push(periodLabel(query.filters.period));
  if (result && result.groupCount > result.rows.length && query.breakdown.kind !== 'none') {
    parts.push(`top ${formatCount(result.rows.length)} of ${formatCount(result.groupCount)}`);
  }
  return parts.filter(Boolean).join(' · ');
}

export type ReportItemViewProps = {
  item: ReportItemData;
  /** The builder's preview: smaller charts and the first rows only. */
  compact?: boolean;
  headingLevel?: 'h2' | 'h3';
  className?: string;
};

/** One item of a report: its title, its figures with their definitions, and its chart. */
export function ReportItemView({
  item,
  compact = false,
  headingLevel: Heading = 'h2',
  className,
}: ReportItemViewProps) {
  const headingId = `item-${item.itemId}${compact ? '-preview' : ''}`;
  return (
    <section
      aria-labelledby={headingId}
      data-chart={item.chart}
      className={cn(
        'flex min-w-0 flex-col gap-3 break-inside-avoid rounded-2xl border border-line bg-surface p-4 sm:p-5',
        className,
      )}
    >
      <div className="min-w-0">
        <Heading
          id={headingId}
          className={cn('font-semibold break-words text-fg', compact ? 'text-base' : 'text-lg')}
        >
          {item.title}
        </Heading>
        <p className="text-xs break-words text-fg-muted">{itemSubtitle(item)}</p>
      </div>
      <ItemBody item={item} compact={compact} />
    </section>
  );
}

/** Every item of a report, in order. */
export function ReportDataView({ data }: { data: ReportData }) {
  if (data.items.length === 0) {
    return (
      <Card className="p-6">
        <EmptyState title="This report has nothing to show yet">
          Edit the report to add what it should show.
        </EmptyState>
      </Card>
    );
  }
  return (
    <div className="flex flex-col gap-6">
      {data.since ? <p className="text-sm text-fg-muted">Data since {formatDate(data.since)}.</p> : null}
      {data.items.map((item) => (
        <ReportItemView key={item.itemId} item={item} />
      ))}
    </div>
  );
}
