import type { AiSummaryStatistics, SummaryTrend } from '@courselens/contracts';
import { ArrowDownRight, ArrowRight, ArrowUpRight, Minus } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';

import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { paths } from '@/config/paths';
import { formatDate, formatDecimal, formatNumber, formatPercent } from '@/lib/format';

export type StatisticsPanelProps = {
  statistics: AiSummaryStatistics;
};

function Figure({ label, value }: { label: string; value: ReactNode }) {
  return (
    <div className="flex min-w-0 flex-col gap-0.5">
      <dt className="text-xs font-medium tracking-wide text-fg-subtle uppercase">{label}</dt>
      <dd className="truncate text-lg font-semibold text-fg tabular-nums">{value}</dd>
    </div>
  );
}

const TREND_WORDS: Record<SummaryTrend['direction'], { label: string; icon: ReactNode }> = {
  up: {
    label: 'Rising',
    icon: <ArrowUpRight aria-hidden="true" className="size-4 text-emerald-600 dark:text-emerald-400" />,
  },
  down: {
    label: 'Falling',
    icon: <ArrowDownRight aria-hidden="true" className="size-4 text-rose-600 dark:text-rose-400" />,
  },
  flat: { label: 'Steady', icon: <ArrowRight aria-hidden="true" className="size-4 text-fg-muted" /> },
  'not-enough-data': {
    label: 'Not enough data',
    icon: <Minus aria-hidden="true" className="size-4 text-fg-subtle" />,
  },
};

const TREND_METRIC: Record<SummaryTrend['metric'], string> = {
  mean: 'weekly average',
  'true-rate': 'weekly share of yes',
  values: 'values per week',
};

function typeFigures(statistics: AiSummaryStatistics): { label: string; value: ReactNode }[] {
  const { numeric, distribution, outliers } = statistics;
  if (numeric) {
    return [
      { label: 'Mean', value: formatDecimal(numeric.mean) },
      { label: 'Median', value: formatDecimal(numeric.median) },
      { label: 'Std deviation', value: formatDecimal(numeric.standardDeviation) },
      { label: 'Range', value: `${formatDecimal(numeric.min)} – ${formatDecimal(numeric.max)}` },
      { label: 'Middle half', value: `${formatDecimal(numeric.q1)} – ${formatDecimal(numeric.q3)}` },
      { label: 'Outliers', value: formatNumber(outliers?.count ?? 0) },
    ];
  }
  if (distribution?.kind === 'boolean') {
    return [
      { label: 'Yes rate', value: formatPercent(distribution.trueRate) },
      { label: 'Yes', value: formatNumber(distribution.trueCount) },
      { label: 'No', value: formatNumber(distribution.falseCount) },
    ];
  }
  if (distribution?.kind === 'date-range') {
    return [
      { label: 'Earliest', value: formatDate(distribution.earliest) },
      { label: 'Median', value: formatDate(distribution.median) },
      { label: 'Latest', value: formatDate(distribution.latest) },
    ];
  }
  return [];
}

/** The key figures the summary was written from. */
export function StatisticsPanel({ statistics }: StatisticsPanelProps) {
  const { trend, distribution, subject } = statistics;
  const trendWords = TREND_WORDS[trend.direction];
  const figures = [
    { label: 'Learners', value: formatNumber(statistics.learners) },
    { label: 'Values', value: formatNumber(statistics.values) },
    { label: 'Values recorded', value: formatNumber(statistics.recordedValues) },
    { label: 'Distinct values', value: formatNumber(statistics.distinctValues) },
    ...typeFigures(statistics),
  ];
  const formatMean = subject.dataType === 'boolean' ? formatPercent : formatDecimal;

  return (
    <Card className="min-w-0">
      <CardHeader>
        <CardTitle>Key figures</CardTitle>
      </CardHeader>
      <CardContent className="flex flex-col gap-6">
        <dl className="grid grid-cols-2 gap-x-4 gap-y-4">
          {figures.map((figure) => (
            <Figure key={figure.label} label={figure.label} value={figure.value} />
          ))}
        </dl>

        {distribution?.kind === 'top-values' && distribution.values.length > 0 ? (
          <section aria-labelledby="summary-top-values" className="flex flex-col gap-2">
            <h3 id="summary-top-values" className="text-sm font-semibold text-fg">
              Most common values
            </h3>
            <ul className="flex flex-col gap-1.5 text-sm">
              {distribution.values.map((entry) => (
                <li key={entry.value} className="flex items-baseline justify-between gap-3">
                  <span className="min-w-0 truncate text-fg" title={entry.value}>
                    {entry.value}
                  </span>
                  <span className="shrink-0 text-fg-muted tabular-nums">
                    {formatNumber(entry.count)} · {formatPercent(entry.share)}
                  </span>
                </li>
              ))}
            </ul>
          </section>
        ) : null}

        <section aria-labelledby="summary-trend" className="flex flex-col gap-1.5">
          <h3 id="summary-trend" className="text-sm font-semibold text-fg">
            Last {trend.weeks.length} weeks
          </h3>
          <p className="flex items-center gap-1.5 text-sm text-fg-muted">
            {trendWords.icon}
            <span>
              <span className="font-medium text-fg">{trendWords.label}</span> · {TREND_METRIC[trend.metric]}
              {trend.from !== null && trend.to !== null && trend.direction !== 'not-enough-data'
                ? ` ${trend.metric === 'true-rate' ? formatPercent(trend.from) : formatDecimal(trend.from)} → ${
                    trend.metric === 'true-rate' ? formatPercent(trend.to) : formatDecimal(trend.to)
                  }`
                : null}
            </span>
          </p>
        </section>

        {statistics.otherCourses.length > 0 ? (
          <section aria-labelledby="summary-other-courses" className="flex flex-col gap-2">
            <h3 id="summary-other-courses" className="text-sm font-semibold text-fg">
              Same variable in other courses
            </h3>
            <ul className="flex flex-col gap-2.5 text-sm">
              {statistics.otherCourses.map((course) => (
                <li key={course.courseId} className="flex min-w-0 flex-col">
                  <Link
                    to={paths.variables.courseAiSummary.href(course.courseId, subject.variableName)}
                    className="min-w-0 truncate rounded text-accent hover:underline focus-visible:outline-2 focus-visible:outline-focus"
                  >
                    {course.courseTitle}
                  </Link>
                  <span className="text-xs text-fg-muted tabular-nums">
                    {course.mean !== null
                      ? `${subject.dataType === 'boolean' ? 'yes' : 'mean'} ${formatMean(course.mean)} · `
                      : null}
                    {formatNumber(course.learners)} {course.learners === 1 ? 'learner' : 'learners'}
                  </span>
                </li>
              ))}
            </ul>
          </section>
        ) : null}
      </CardContent>
    </Card>
  );
}
