import {
  FUNNEL_SIGNIFICANCE_LEVEL,
  QUESTION_FLAG_LABELS,
  type FunnelComparison,
  type FunnelComputeResult,
  type FunnelStepResult,
  type QuestionStatistics,
} from '@courselens/contracts';
import { BarChart3, ChevronDown, ChevronUp, Filter, Rows3, Table2, UserMinus } from 'lucide-react';
import { useState } from 'react';

import { HistogramChart } from '@/components/charts';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { InfoTip } from '@/components/ui/info-tip';
import { StatGrid } from '@/components/stat-grid';
import { cn } from '@/lib/cn';
import { formatDecimal, formatNumber, formatPercent } from '@/lib/format';

export type FunnelResultProps = {
  result: FunnelComputeResult;
  /** A newer result is loading over this one. */
  isFetching?: boolean;
  /** Item analysis of quiz steps by question id (from the question analysis API), when known. */
  questionStats?: ReadonlyMap<string, QuestionStatistics>;
  onShowDroppedOff: (stepIndex: number) => void;
};

/** "45 s", "12 min", "3.5 h", "2.1 d". */
export function formatDuration(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined || Number.isNaN(seconds)) return '—';
  if (seconds < 60) return `${Math.round(seconds)} s`;
  if (seconds < 3600) return `${Math.round(seconds / 60)} min`;
  if (seconds < 86_400) return `${formatDecimal(Math.round((seconds / 3600) * 10) / 10)} h`;
  return `${formatDecimal(Math.round((seconds / 86_400) * 10) / 10)} d`;
}

function stepTitle(step: FunnelStepResult, order: FunnelComputeResult['order']): string {
  return order === 'any' ? `${step.index + 1} ${step.index === 0 ? 'step' : 'steps'} done` : step.label;
}

/** "+5.2 pts" with the significance mark, or "no change". */
export function ComparisonMark({
  comparison,
  label,
}: {
  comparison: FunnelComparison | null;
  label: string;
}) {
  if (!comparison || comparison.change === null) return null;
  const points = comparison.change * 100;
  const rounded = Math.round(points * 10) / 10;
  const direction = rounded > 0 ? 'up' : rounded < 0 ? 'down' : 'flat';
  const text =
    direction === 'flat' ? '±0 pts' : `${rounded > 0 ? '+' : '−'}${formatDecimal(Math.abs(rounded))} pts`;
  const variant = !comparison.isSignificant ? 'neutral' : direction === 'up' ? 'success' : 'danger';
  const pText =
    comparison.pValue === null
      ? ''
      : `, p = ${comparison.pValue < 0.001 ? '< 0.001' : formatDecimal(Math.round(comparison.pValue * 1000) / 1000)}`;
  return (
    <Badge
      variant={variant}
      title={`${label}: ${formatPercent(comparison.previousRate)} in the previous period (${formatNumber(comparison.previousCount)} of ${formatNumber(comparison.previousBase)})${pText}`}
    >
      {direction === 'up' ? <ChevronUp aria-hidden="true" className="size-3" /> : null}
      {direction === 'down' ? <ChevronDown aria-hidden="true" className="size-3" /> : null}
      <span>{text}</span>
      {comparison.isSignificant ? (
        <span>
          <span aria-hidden="true"> *</span>
          <span className="sr-only"> (significant)</span>
        </span>
      ) : (
        <span className="sr-only"> (not significant)</span>
      )}
      <span className="sr-only">
        {' '}
        against {formatPercent(comparison.previousRate)} in the previous period
      </span>
    </Badge>
  );
}

export function SignificanceTip() {
  return (
    <InfoTip label="What the significance mark means">
      The change against the previous period of equal length, in percentage points. A star (*) marks a change
      a two-proportion z-test finds significant (p &lt; {FUNNEL_SIGNIFICANCE_LEVEL}): unlikely to be chance
      alone. Small groups (fewer than 5 expected learners on a side) get no star, whatever the change.
    </InfoTip>
  );
}

/**
 * A computed funnel: the key figures, one horizontal bar per step
 * (converted against dropped off, with % of the first and of the previous
 * step, median time and its histogram on demand, the change against the
 * previous period), a table view, and the breakdown.
 */
export function FunnelResult({
  result,
  isFetching = false,
  questionStats,
  onShowDroppedOff,
}: FunnelResultProps) {
  const [view, setView] = useState<'bars' | 'table'>('bars');
  const [openHistogram, setOpenHistogram] = useState<number | null>(null);

  if (result.entered === 0) {
    return (
      <EmptyState icon={<Filter aria-hidden="true" />} title="No learner entered this funnel in the period">
        Nobody did step 1 ({result.steps[0]?.label.toLowerCase() ?? 'the first step'}) between{' '}
        {result.period.from} and {result.period.to}. Choose a longer period, another course, or a first step
        learners take.
      </EmptyState>
    );
  }

  const lastStep = result.steps.at(-1);
  const stats = [
    {
      label: 'Entered',
      value: formatNumber(result.entered),
      hint: 'Learners whose step 1 falls in the period',
    },
    { label: 'Converted', value: formatNumber(result.converted), hint: 'Learners who reached the last step' },
    {
      label: 'Conversion',
      value: (
        <span className="inline-flex items-center gap-2">
          {formatPercent(result.conversion)}
          <ComparisonMark comparison={result.comparison} label="Overall conversion" />
        </span>
      ),
    },
    { label: 'Median time to convert', value: formatDuration(result.medianSecondsToConvert) },
    { label: 'Window', value: `${result.windowDays} ${result.windowDays === 1 ? 'day' : 'days'}` },
  ];

  return (
    <div
      className={cn('flex flex-col gap-6 transition-opacity', isFetching && 'opacity-60')}
      aria-busy={isFetching}
    >
      <StatGrid stats={stats} label="Funnel summary" />
      {result.previousPeriod ? (
        <p className="flex items-center gap-1 text-xs text-fg-muted">
          Compared with {result.previousPeriod.from} to {result.previousPeriod.to}
          <SignificanceTip />
        </p>
      ) : null}

      <section aria-labelledby="funnel-steps-heading" className="flex flex-col gap-3">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h2 id="funnel-steps-heading" className="text-base font-semibold text-fg">
            Conversion by step
          </h2>
          <div className="flex gap-1" role="group" aria-label="Show steps as">
            <Button
              variant={view === 'bars' ? 'secondary' : 'ghost'}
              size="sm"
              aria-pressed={view === 'bars'}
              onClick={() => setView('bars')}
            >
              <Rows3 aria-hidden="true" />
              Bars
            </Button>
            <Button
              variant={view === 'table' ? 'secondary' : 'ghost'}
              size="sm"
              aria-pressed={view === 'table'}
              onClick={() => setView('table')}
            >
              <Table2 aria-hidden="true" />
              Table
            </Button>
          </div>
        </div>

        {view === 'bars' ? (
          <ol className="flex flex-col gap-3">
            {result.steps.map((step) => (
              <FunnelStepBar
                key={step.index}
                step={step}
                previousShare={result.steps[step.index - 1]?.conversionFromFirst ?? step.conversionFromFirst}
                order={result.order}
                hasComparison={result.previousPeriod !== null}
                stats={step.questionId ? questionStats?.get(step.questionId) : undefined}
                isHistogramOpen={openHistogram === step.index}
                onToggleHistogram={() => setOpenHistogram(openHistogram === step.index ? null : step.index)}
                onShowDroppedOff={() => onShowDroppedOff(step.index)}
              />
            ))}
          </ol>
        ) : (
          <FunnelStepsTable result={result} />
        )}
        {lastStep && result.order === 'any' ? (
          <p className="text-xs text-fg-muted">
            In any order, a bar counts the learners who did at least that many different steps within the
            window.
          </p>
        ) : null}
      </section>

      {result.breakdown ? <FunnelBreakdownTable result={result} /> : null}
    </div>
  );
}

type FunnelStepBarProps = {
  step: FunnelStepResult;
  /** The previous step's share of the learners who entered (the bar's dropped part ends there). */
  previousShare: number;
  order: FunnelComputeResult['order'];
  hasComparison: boolean;
  stats: QuestionStatistics | undefined;
  isHistogramOpen: boolean;
  onToggleHistogram: () => void;
  onShowDroppedOff: () => void;
};

function FunnelStepBar({
  step,
  previousShare,
  order,
  hasComparison,
  stats,
  isHistogramOpen,
  onToggleHistogram,
  onShowDroppedOff,
}: FunnelStepBarProps) {
  const reached = Math.max(0, Math.min(1, step.conversionFromFirst));
  // The learners lost since the previous step, as a share of those who entered.
  const droppedShare = Math.max(0, Math.min(1 - reached, previousShare - reached));
  const title = stepTitle(step, order);
  return (
    <li
      className="rounded-xl border border-line bg-surface p-3 sm:p-4"
      data-testid={`funnel-step-${step.index}`}
    >
      <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
        <h3 className="min-w-0 text-sm font-medium text-fg">
          <span className="text-fg-muted">{step.index + 1}.</span> {title}
          {step.courseTitle && order !== 'any' ? (
            <span className="ml-1 font-normal text-fg-muted">· {step.courseTitle}</span>
          ) : null}
        </h3>
        <p className="text-sm tabular-nums text-fg">
          <span className="font-semibold">{formatNumber(step.count)}</span>{' '}
          <span className="text-fg-muted">{step.count === 1 ? 'learner' : 'learners'}</span>
        </p>
      </div>

      <div
        className="mt-2 flex h-3 w-full overflow-hidden rounded-full bg-slate-100 dark:bg-slate-800"
        role="img"
        aria-label={`${formatPercent(step.conversionFromFirst)} of the learners who entered reached this step${step.index > 0 ? `; ${formatNumber(step.droppedOff)} dropped off after the previous step` : ''}`}
      >
        <div className="h-full bg-brand-600 dark:bg-brand-400" style={{ width: `${reached * 100}%` }} />
        {droppedShare > 0 ? (
          <div
            className="h-full bg-rose-300/80 bg-[repeating-linear-gradient(135deg,transparent_0_4px,rgba(255,255,255,0.45)_4px_8px)] dark:bg-rose-500/50"
            style={{ width: `${droppedShare * 100}%` }}
          />
        ) : null}
      </div>

      <dl className="mt-2 flex flex-wrap gap-x-5 gap-y-1 text-xs text-fg-muted">
        <div className="flex gap-1">
          <dt>Of first step</dt>
          <dd className="font-medium text-fg tabular-nums">{formatPercent(step.conversionFromFirst)}</dd>
        </div>
        {step.index > 0 ? (
          <>
            <div className="flex items-center gap-1">
              <dt>Of previous step</dt>
              <dd className="flex items-center gap-1 font-medium text-fg tabular-nums">
                {formatPercent(step.conversionFromPrevious)}
                {hasComparison ? (
                  <ComparisonMark comparison={step.comparison} label="Conversion from the previous step" />
                ) : null}
              </dd>
            </div>
            <div className="flex gap-1">
              <dt>Dropped off</dt>
              <dd className="font-medium text-fg tabular-nums">{formatNumber(step.droppedOff)}</dd>
            </div>
            <div className="flex gap-1">
              <dt>Median time</dt>
              <dd className="font-medium text-fg tabular-nums">{formatDuration(step.medianSeconds)}</dd>
            </div>
          </>
        ) : null}
      </dl>

      {stats ? <QuizStepStats stats={stats} /> : null}

      {step.index > 0 ? (
        <div className="mt-3 flex flex-wrap gap-2">
          <Button variant="outline" size="sm" onClick={onShowDroppedOff} disabled={step.droppedOff === 0}>
            <UserMinus aria-hidden="true" />
            See who dropped off{step.droppedOff > 0 ? ` (${formatNumber(step.droppedOff)})` : ''}
          </Button>
          <Button variant="ghost" size="sm" aria-expanded={isHistogramOpen} onClick={onToggleHistogram}>
            <BarChart3 aria-hidden="true" />
            {isHistogramOpen ? 'Hide time to convert' : 'Time to convert'}
          </Button>
        </div>
      ) : null}
      {isHistogramOpen ? (
        <div className="mt-3">
          <HistogramChart
            title={`Time from step ${step.index} to step ${step.index + 1}`}
            bins={step.histogram.map((bin) => ({
              from: bin.from,
              to: bin.to ?? bin.from,
              count: bin.count,
              label: bin.label,
            }))}
            valueLabel="Time to convert"
            height={220}
            emptyText="Nobody reached this step yet"
          />
        </div>
      ) : null}
    </li>
  );
}

/** Facility, discrimination and flags of a quiz step's question, from the question analysis. */
function QuizStepStats({ stats }: { stats: QuestionStatistics }) {
  return (
    <div className="mt-3 flex flex-wrap items-center gap-x-4 gap-y-1 rounded-lg bg-slate-50 px-3 py-2 text-xs text-fg-muted dark:bg-slate-900/60">
      <span className="font-medium text-fg">Question statistics</span>
      <span>
        Facility <span className="font-medium text-fg tabular-nums">{formatPercent(stats.facility)}</span>
      </span>
      <span>
        Discrimination{' '}
        <span className="font-medium text-fg tabular-nums">
          {stats.discriminationIndex === null
            ? '—'
            : formatDecimal(Math.round(stats.discriminationIndex * 100) / 100)}
        </span>
      </span>
      <span>
        Attempts <span className="font-medium text-fg tabular-nums">{formatNumber(stats.attempts)}</span>
      </span>
      {stats.flags.map((flag) => (
        <Badge
          key={flag.kind}
          variant={
            flag.kind === 'answer_key' || flag.kind === 'negative_discrimination' ? 'danger' : 'warning'
          }
          title={flag.reason}
        >
          {QUESTION_FLAG_LABELS[flag.kind]}
        </Badge>
      ))}
      <InfoTip label="About the question statistics">
        From the question analysis of this course (each learner’s attempts as the analytics settings choose).
        Facility is the share of the marks learners got; discrimination is how well the question separates
        stronger from weaker learners (below 0.2 is weak).
      </InfoTip>
    </div>
  );
}

function FunnelStepsTable({ result }: { result: FunnelComputeResult }) {
  const hasComparison = result.previousPeriod !== null;
  return (
    <div className="overflow-x-auto rounded-xl border border-line">
      <table className="w-full text-left text-sm">
        <caption className="sr-only">Conversion by step</caption>
        <thead className="bg-slate-50 text-xs text-fg-muted dark:bg-slate-900/60">
          <tr>
            <th scope="col" className="px-3 py-2 font-medium">
              Step
            </th>
            <th scope="col" className="px-3 py-2 text-right font-medium">
              Learners
            </th>
            <th scope="col" className="px-3 py-2 text-right font-medium">
              Of first step
            </th>
            <th scope="col" className="px-3 py-2 text-right font-medium">
              Of previous step
            </th>
            <th scope="col" className="px-3 py-2 text-right font-medium">
              Dropped off
            </th>
            <th scope="col" className="px-3 py-2 text-right font-medium">
              Median time
            </th>
            {hasComparison ? (
              <th scope="col" className="px-3 py-2 text-right font-medium">
                Previous period
              </th>
            ) : null}
          </tr>
        </thead>
        <tbody className="divide-y divide-line">
          {result.steps.map((step) => (
            <tr key={step.index}>
              <th scope="row" className="px-3 py-2 font-medium text-fg">
                {step.index + 1}. {stepTitle(step, result.order)}
                {step.courseTitle && result.order !== 'any' ? (
                  <span className="font-normal text-fg-muted"> · {step.courseTitle}</span>
                ) : null}
              </th>
              <td className="px-3 py-2 text-right tabular-nums">{formatNumber(step.count)}</td>
              <td className="px-3 py-2 text-right tabular-nums">{formatPercent(step.conversionFromFirst)}</td>
              <td className="px-3 py-2 text-right tabular-nums">
                {step.index === 0 ? '—' : formatPercent(step.conversionFromPrevious)}
              </td>
              <td className="px-3 py-2 text-right tabular-nums">
                {step.index === 0 ? '—' : formatNumber(step.droppedOff)}
              </td>
              <td className="px-3 py-2 text-right tabular-nums">
                {step.index === 0 ? '—' : formatDuration(step.medianSeconds)}
              </td>
              {hasComparison ? (
                <td className="px-3 py-2 text-right tabular-nums">
                  {step.comparison ? (
                    <>
                      {formatPercent(step.comparison.previousRate)}
                      {step.comparison.isSignificant ? ' (significant change)' : ''}
                    </>
                  ) : (
                    '—'
                  )}
                </td>
              ) : null}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function FunnelBreakdownTable({ result }: { result: FunnelComputeResult }) {
  const breakdown = result.breakdown;
  if (!breakdown) return null;
  return (
    <section aria-labelledby="funnel-breakdown-heading" className="flex flex-col gap-3">
      <h2 id="funnel-breakdown-heading" className="text-base font-semibold text-fg">
        By {breakdown.kind === 'course' ? 'course of step 1' : breakdown.label}
      </h2>
      {breakdown.groups.length === 0 ? (
        <p className="text-sm text-fg-muted">No group to show.</p>
      ) : (
        <div className="overflow-x-auto rounded-xl border border-line">
          <table className="w-full text-left text-sm">
            <caption className="sr-only">Funnel by {breakdown.label}</caption>
            <thead className="bg-slate-50 text-xs text-fg-muted dark:bg-slate-900/60">
              <tr>
                <th scope="col" className="px-3 py-2 font-medium">
                  {breakdown.label}
                </th>
                {result.steps.map((step) => (
                  <th key={step.index} scope="col" className="px-3 py-2 text-right font-medium">
                    <span className="sr-only">Step </span>
                    {step.index + 1}
                    <span className="sr-only">: {stepTitle(step, result.order)}</span>
                  </th>
                ))}
                <th scope="col" className="px-3 py-2 text-right font-medium">
                  Conversion
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-line">
              {breakdown.groups.map((group) => (
                <tr key={`${group.label}-${group.key ?? ''}`}>
                  <th
                    scope="row"
                    className={cn('px-3 py-2 font-medium text-fg', group.key === null && 'italic')}
                  >
                    {group.label}
                  </th>
                  {group.counts.map((count, index) => (
                    <td key={index} className="px-3 py-2 text-right tabular-nums">
                      {formatNumber(count)}
                      {index > 0 && (group.counts[0] ?? 0) > 0 ? (
                        <span className="ml-1 text-xs text-fg-muted">
                          ({formatPercent(count / (group.counts[0] ?? 1))})
                        </span>
                      ) : null}
                    </td>
                  ))}
                  <td className="px-3 py-2 text-right font-medium tabular-nums">
                    {formatPercent(group.conversion)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
