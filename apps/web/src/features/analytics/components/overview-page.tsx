import {
  OVERVIEW_FIGURE_UNITS,
  addDays,
  daysBetween,
  type AnalyticsOverviewResponse,
  type OverviewDay,
  type OverviewFigure,
  type OverviewFigureId,
} from '@courselens/contracts';
import {
  ArrowDownRight,
  ArrowRight,
  ArrowUpRight,
  Grid3x3,
  Filter,
  HelpCircle,
  Lightbulb,
  Minus,
  Route,
} from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';

import { TrendLineChart, formatDay, type TrendPoint } from '@/components/charts';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { useSession } from '@/lib/auth';
import { cn } from '@/lib/cn';
import { formatNumber, formatPercent } from '@/lib/format';

import { parseOverviewPeriod, useAnalyticsOverview } from '../api/get-analytics-overview';
import { AnalyticsBasisNote, AnalyticsPage } from './analytics-page';
import { InsightCard } from './insight-card';

const PRESETS = [7, 30, 90] as const;

const FIGURE_LABELS: Record<OverviewFigureId, { label: string; hint: string }> = {
  activeLearners: { label: 'Active learners', hint: 'Learners who started a course or answered a question' },
  runsStarted: { label: 'Runs started', hint: 'Course runs started in the period' },
  completionRate: { label: 'Completion rate', hint: 'Runs started in the period that are complete' },
  passRate: { label: 'Pass rate', hint: 'Runs with a result that passed (each course’s pass mark)' },
  averageScore: { label: 'Average score', hint: 'Mean score of the runs with a score, out of 100' },
  answers: { label: 'Answers', hint: 'Questions answered in the period' },
  correctRate: { label: 'Correct answers', hint: 'Share of graded answers that were right' },
};

/** A figure's value as shown: counts, rates in percent, scores to one decimal. */
export function formatFigure(id: OverviewFigureId, value: number | null): string {
  if (value === null) return '—';
  switch (OVERVIEW_FIGURE_UNITS[id]) {
    case 'count':
      return formatNumber(value);
    case 'rate':
      return formatPercent(value);
    case 'score':
      return value.toFixed(1);
  }
}

const signed = (value: number, text: string) => `${value > 0 ? '+' : value < 0 ? '−' : '±'}${text}`;

/**
 * How a figure moved, as shown beside it: the absolute change in its unit
 * (points for rates) and the relative change, "n/a" when the previous
 * period had nothing to compare with.
 */
export function formatChange(
  id: OverviewFigureId,
  figure: OverviewFigure,
): { absolute: string; percent: string } {
  const { absolute, percent } = figure.change;
  if (absolute === null) return { absolute: 'n/a', percent: 'n/a' };
  const size = Math.abs(absolute);
  const unit = OVERVIEW_FIGURE_UNITS[id];
  const text =
    unit === 'count'
      ? formatNumber(size)
      : unit === 'rate'
        ? `${(size * 100).toFixed(1)} pts`
        : size.toFixed(1);
  return {
    absolute: signed(absolute, text),
    percent: percent === null ? 'n/a' : signed(percent, `${Math.abs(percent).toFixed(1)}%`),
  };
}

/** The figure's value on one day, for its sparkline. */
function dailyValue(id: OverviewFigureId, day: OverviewDay): number | null {
  switch (id) {
    case 'activeLearners':
      return day.activeLearners;
    case 'runsStarted':
      return day.runsStarted;
    case 'completionRate':
      return day.runsStarted === 0 ? null : day.completedRuns / day.runsStarted;
    case 'passRate':
      return day.gradedRuns === 0 ? null : day.passedRuns / day.gradedRuns;
    case 'averageScore':
      return day.averageScore;
    case 'answers':
      return day.answers;
    case 'correctRate':
      return day.gradedAnswers === 0 ? null : day.correctAnswers / day.gradedAnswers;
  }
}

/** `/analytics`: the period's key figures against the period before, a daily trend, the top insights, the sections. */
export function AnalyticsOverviewPage() {
  const organizationId = useSession().currentOrganization?.id;
  const [searchParams, setSearchParams] = useSearchParams();
  const period = parseOverviewPeriod(searchParams);
  const overview = useAnalyticsOverview(organizationId, period);
  const data = overview.data;

  function handlePeriodChange(next: { from: string; to: string } | null) {
    setSearchParams(
      (previous) => {
        const params = new URLSearchParams(previous);
        params.delete('from');
        params.delete('to');
        if (next) {
          params.set('from', next.from);
          params.set('to', next.to);
        }
        return params;
      },
      { replace: true },
    );
  }

  return (
    <AnalyticsPage
      section="overview"
      title="Analytics"
      description="How your courses are doing, what changed, and what deserves a look."
      actions={data ? <PeriodPicker response={data} onChange={handlePeriodChange} /> : null}
    >
      {overview.isPending ? (
        <Card className="flex justify-center py-16 text-fg-muted">
          <Spinner label="Loading the overview" />
        </Card>
      ) : overview.isError ? (
        <Card className="px-6 py-10 text-center" role="alert">
          <p className="font-medium text-fg">The overview could not be loaded.</p>
          <p className="mt-1 text-sm text-fg-muted">{overview.error.message}</p>
          <div className="mt-4 flex flex-wrap justify-center gap-2">
            <Button variant="outline" onClick={() => void overview.refetch()}>
              Try again
            </Button>
            {period.from || period.to ? (
              <Button variant="ghost" onClick={() => handlePeriodChange(null)}>
                Show the last 30 days
              </Button>
            ) : null}
          </div>
        </Card>
      ) : (
        <div
          className={cn('flex flex-col gap-6 transition-opacity', overview.isPlaceholderData && 'opacity-60')}
          aria-busy={overview.isFetching}
        >
          {overview.data.figures.runsStarted.value === 0 && overview.data.figures.answers.value === 0 ? (
            <p
              role="status"
              className="rounded-lg border border-line bg-surface-muted px-3 py-2 text-sm text-fg-muted"
            >
              No course was started and no question answered in this period. Pick a longer period, or check
              that your courses send their events.
            </p>
          ) : null}
          <TopInsights response={overview.data} />
          <FigureCards response={overview.data} />
          <TrendCharts response={overview.data} />
          <SectionLinks />
          <AnalyticsBasisNote basis={overview.data.basis} showCompletion />
        </div>
      )}
    </AnalyticsPage>
  );
}

type PeriodPickerProps = {
  response: AnalyticsOverviewResponse;
  onChange: (period: { from: string; to: string } | null) => void;
};

function PeriodPicker({ response, onChange }: PeriodPickerProps) {
  const { period, today } = response;
  const [isCustom, setIsCustom] = useState(false);
  const [from, setFrom] = useState(period.from);
  const [to, setTo] = useState(period.to);
  const [error, setError] = useState<string | null>(null);
  const fromId = useId();
  const toId = useId();
  const errorId = useId();
  const preset = period.to === today ? PRESETS.find((days) => days === period.days) : undefined;

  function handlePreset(days: number) {
    setIsCustom(false);
    onChange(days === 30 ? null : { from: addDays(today, -(days - 1)), to: today });
  }

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!from || !to) return setError('Choose both days');
    if (from > to) return setError('The start date must be on or before the end date');
    if (daysBetween(from, to) + 1 > 366) return setError('Choose a period of at most 366 days');
    setError(null);
    onChange({ from, to });
  }

  return (
    <div className="flex flex-col items-stretch gap-2 sm:items-end">
      <div
        role="group"
        aria-label="Period"
        className="inline-flex rounded-lg border border-line-strong bg-surface p-0.5 shadow-xs"
      >
        {PRESETS.map((days) => (
          <button
            key={days}
            type="button"
            aria-pressed={!isCustom && preset === days}
            onClick={() => handlePreset(days)}
            className={cn(
              'h-8 flex-1 rounded-md px-3 text-sm font-medium whitespace-nowrap transition-colors focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-focus',
              !isCustom && preset === days
                ? 'bg-brand-600 text-white dark:bg-brand-500'
                : 'text-fg-muted hover:bg-surface-muted hover:text-fg',
            )}
          >
            {days} days
          </button>
        ))}
        <button
          type="button"
          aria-pressed={isCustom || preset === undefined}
          aria-expanded={isCustom}
          onClick={() => {
            setFrom(period.from);
            setTo(period.to);
            setIsCustom((open) => !open);
          }}
          className={cn(
            'h-8 flex-1 rounded-md px-3 text-sm font-medium transition-colors focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-focus',
            isCustom || preset === undefined
              ? 'bg-brand-600 text-white dark:bg-brand-500'
              : 'text-fg-muted hover:bg-surface-muted hover:text-fg',
          )}
        >
          Custom
        </button>
      </div>
      {isCustom ? (
        <form onSubmit={handleSubmit} className="flex flex-wrap items-end gap-2" noValidate>
          <label htmlFor={fromId} className="flex flex-col text-xs text-fg-muted">
            From
            <input
              id={fromId}
              type="date"
              value={from}
              max={today}
              onChange={(event) => setFrom(event.target.value)}
              aria-describedby={error ? errorId : undefined}
              className="mt-0.5 h-8 rounded-md border border-line-strong bg-surface px-2 text-sm text-fg focus-visible:outline-2 focus-visible:outline-focus"
            />
          </label>
          <label htmlFor={toId} className="flex flex-col text-xs text-fg-muted">
            To
            <input
              id={toId}
              type="date"
              value={to}
              max={today}
              onChange={(event) => setTo(event.target.value)}
              aria-describedby={error ? errorId : undefined}
              className="mt-0.5 h-8 rounded-md border border-line-strong bg-surface px-2 text-sm text-fg focus-visible:outline-2 focus-visible:outline-focus"
            />
          </label>
          <Button type="submit" size="sm">
            Apply
          </Button>
          {error ? (
            <p id={errorId} role="alert" className="w-full text-xs text-rose-600 dark:text-rose-400">
              {error}
            </p>
          ) : null}
        </form>
      ) : (
        <p className="text-xs text-fg-subtle">
          {formatDay(period.from)} – {formatDay(period.to)} vs {formatDay(response.previousPeriod.from)} –{' '}
          {formatDay(response.previousPeriod.to)}
        </p>
      )}
    </div>
  );
}

function TopInsights({ response }: { response: AnalyticsOverviewResponse }) {
  return (
    <section aria-labelledby="overview-insights" className="flex flex-col gap-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="overview-insights" className="flex items-center gap-2 text-lg font-semibold text-fg">
          <Lightbulb aria-hidden="true" className="size-5 text-brand-600 dark:text-brand-300" />
          Top insights
        </h2>
        <Link
          to={paths.analytics.insights.href()}
          className="inline-flex items-center gap-1 rounded text-sm font-medium text-brand-700 hover:underline focus-visible:outline-2 focus-visible:outline-focus dark:text-brand-300"
        >
          See all insights{response.openInsights > 0 ? ` (${formatNumber(response.openInsights)})` : ''}
          <ArrowRight aria-hidden="true" className="size-4" />
        </Link>
      </div>
      {response.topInsights.length === 0 ? (
        <Card className="px-4 py-5 text-sm text-fg-muted">
          Nothing stands out right now. Insights check your courses every six hours for suspicious answer
          keys, unusually hard questions, drop-off slides, significant rate changes and rising inactivity.
        </Card>
      ) : (
        <ul className="grid gap-3 lg:grid-cols-3">
          {response.topInsights.map((insight) => (
            <li key={insight.id} className="min-w-0">
              <InsightCard insight={insight} isCompact />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function FigureCards({ response }: { response: AnalyticsOverviewResponse }) {
  const ids = Object.keys(FIGURE_LABELS) as OverviewFigureId[];
  return (
    <section aria-labelledby="overview-figures">
      <h2 id="overview-figures" className="sr-only">
        Key figures
      </h2>
      <ul className="grid grid-cols-1 gap-3 min-[420px]:grid-cols-2 lg:grid-cols-4">
        {ids.map((id) => (
          <li key={id} className="min-w-0">
            <FigureCard id={id} figure={response.figures[id]} trend={response.trend} />
          </li>
        ))}
      </ul>
    </section>
  );
}

type FigureCardProps = { id: OverviewFigureId; figure: OverviewFigure; trend: readonly OverviewDay[] };

function FigureCard({ id, figure, trend }: FigureCardProps) {
  const { label, hint } = FIGURE_LABELS[id];
  const change = formatChange(id, figure);
  const direction = figure.change.absolute === null ? 'none' : figure.change.direction;
  const Arrow = direction === 'up' ? ArrowUpRight : direction === 'down' ? ArrowDownRight : Minus;
  const words =
    direction === 'none'
      ? 'no previous value to compare with'
      : `${direction === 'flat' ? 'unchanged' : direction} ${change.absolute} (${change.percent}) from ${formatFigure(id, figure.previous)}`;
  return (
    <Card className="flex h-full flex-col gap-1 p-4" data-testid={`overview-figure-${id}`}>
      <h3 className="text-xs font-medium text-fg-muted sm:text-sm" title={hint}>
        {label}
      </h3>
      <div className="flex items-end justify-between gap-2">
        <p className="text-2xl font-bold tracking-tight text-fg tabular-nums">
          {formatFigure(id, figure.value)}
        </p>
        <Sparkline values={trend.map((day) => dailyValue(id, day))} />
      </div>
      <p className="flex flex-wrap items-center gap-x-1.5 text-xs">
        <span
          className={cn(
            'inline-flex items-center gap-0.5 font-medium tabular-nums',
            direction === 'up' && 'text-emerald-700 dark:text-emerald-300',
            direction === 'down' && 'text-rose-700 dark:text-rose-300',
            (direction === 'flat' || direction === 'none') && 'text-fg-muted',
          )}
        >
          <Arrow aria-hidden="true" className="size-3.5" />
          <span aria-hidden="true">
            {change.absolute}
            {change.absolute === 'n/a' ? '' : ` (${change.percent})`}
          </span>
          <span className="sr-only">{words}</span>
        </span>
        <span className="text-fg-subtle" aria-hidden="true">
          vs {formatFigure(id, figure.previous)}
        </span>
      </p>
      {figure.sample !== undefined ? (
        <p className="text-xs text-fg-subtle">
          of {formatNumber(figure.sample)} ({formatNumber(figure.previousSample ?? 0)} before)
        </p>
      ) : null}
    </Card>
  );
}

/** A tiny line of the figure per day (decoration: the trend chart below has the numbers and a table). */
function Sparkline({ values }: { values: readonly (number | null)[] }) {
  const numbers = values.filter((value): value is number => value !== null);
  if (values.length < 2 || numbers.length < 2) return null;
  const max = Math.max(...numbers);
  const min = Math.min(...numbers);
  const width = 72;
  const height = 24;
  const x = (index: number) => (index / (values.length - 1)) * width;
  const y = (value: number) =>
    max === min ? height / 2 : height - 2 - ((value - min) / (max - min)) * (height - 4);
  const segments: string[] = [];
  let current = '';
  values.forEach((value, index) => {
    if (value === null) {
      if (current) segments.push(current);
      current = '';
      return;
    }
    current += `${current ? ' L' : 'M'}${x(index).toFixed(1)} ${y(value).toFixed(1)}`;
  });
  if (current) segments.push(current);
  return (
    <svg
      aria-hidden="true"
      width={width}
      height={height}
      viewBox={`0 0 ${width} ${height}`}
      className="shrink-0 text-brand-500 dark:text-brand-300"
    >
      {segments.map((path) => (
        <path
          key={path}
          d={path}
          fill="none"
          stroke="currentColor"
          strokeWidth={1.5}
          strokeLinejoin="round"
        />
      ))}
    </svg>
  );
}

function TrendCharts({ response }: { response: AnalyticsOverviewResponse }) {
  const activity: TrendPoint[] = response.trend.map((day) => ({
    date: day.day,
    isPartial: day.day === response.today,
    activeLearners: day.activeLearners,
    runsStarted: day.runsStarted,
    answers: day.answers,
  }));
  const rates: TrendPoint[] = response.trend.map((day) => ({
    date: day.day,
    isPartial: day.day === response.today,
    completionRate: day.runsStarted === 0 ? null : (day.completedRuns / day.runsStarted) * 100,
    passRate: day.gradedRuns === 0 ? null : (day.passedRuns / day.gradedRuns) * 100,
    correctRate: day.gradedAnswers === 0 ? null : (day.correctAnswers / day.gradedAnswers) * 100,
  }));
  const percent = (value: number) => `${Math.round(value)}%`;
  return (
    <div className="grid min-w-0 gap-4 lg:grid-cols-2">
      <Card className="min-w-0 p-4">
        <TrendLineChart
          title="Activity per day"
          description={`Local days in ${response.basis.timeZone.replaceAll('_', ' ')}`}
          data={activity}
          dateLabel="Day"
          partialLabel="Today so far"
          series={[
            { key: 'activeLearners', label: 'Active learners' },
            { key: 'runsStarted', label: 'Runs started' },
            { key: 'answers', label: 'Answers', axis: 'right' },
          ]}
          emptyText="No activity in this period"
        />
      </Card>
      <Card className="min-w-0 p-4">
        <TrendLineChart
          title="Rates per day"
          description="Completion and pass of the runs started that day; correct answers given that day"
          data={rates}
          dateLabel="Day"
          partialLabel="Today so far"
          series={[
            { key: 'completionRate', label: 'Completion', unit: '%', format: percent, domain: [0, 100] },
            { key: 'passRate', label: 'Pass', unit: '%', format: percent, domain: [0, 100] },
            { key: 'correctRate', label: 'Correct answers', unit: '%', format: percent, domain: [0, 100] },
          ]}
          emptyText="No runs or answers in this period"
        />
      </Card>
    </div>
  );
}

const SECTIONS = [
  {
    href: paths.analytics.funnels.href(),
    label: 'Funnels',
    text: 'Conversion between course steps',
    icon: Filter,
  },
  {
    href: paths.analytics.heatmaps.href(),
    label: 'Heatmaps',
    text: 'Correct rates by slide and question',
    icon: Grid3x3,
  },
  {
    href: paths.analytics.questions.href(),
    label: 'Questions',
    text: 'Item analysis of each quiz',
    icon: HelpCircle,
  },
  {
    href: paths.analytics.learningPaths.href(),
    label: 'Learning paths',
    text: 'The routes learners take and where they exit',
    icon: Route,
  },
  {
    href: paths.analytics.insights.href(),
    label: 'Insights',
    text: 'Findings worth a look',
    icon: Lightbulb,
  },
] as const;

function SectionLinks() {
  return (
    <nav aria-label="Explore analytics">
      <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-5">
        {SECTIONS.map((section) => (
          <li key={section.href} className="min-w-0">
            <Link
              to={section.href}
              className="flex h-full items-start gap-3 rounded-xl border border-line bg-surface p-3 transition-colors hover:border-brand-300 hover:bg-surface-muted focus-visible:outline-2 focus-visible:outline-focus dark:hover:border-brand-400/40"
            >
              <section.icon
                aria-hidden="true"
                className="mt-0.5 size-4 shrink-0 text-brand-600 dark:text-brand-300"
              />
              <span className="min-w-0">
                <span className="block text-sm font-medium text-fg">{section.label}</span>
                <span className="block text-xs text-fg-muted">{section.text}</span>
              </span>
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
