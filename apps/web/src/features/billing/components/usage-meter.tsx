import { BILLING_METRIC_LABELS, type BillingMeter } from '@courselens/contracts';
import { useId } from 'react';

import { Badge, type BadgeVariant } from '@/components/ui/badge';
import { cn } from '@/lib/cn';
import { formatNumber } from '@/lib/format';

import {
  METER_LEVEL_WORDS,
  countOf,
  forecastSentence,
  meterLevel,
  meterPercent,
  formatPercentUsed,
  meterValueText,
  type MeterLevel,
} from './billing-format';

const barClass: Record<MeterLevel, string> = {
  ok: 'bg-brand-500 dark:bg-brand-400',
  high: 'bg-amber-400 dark:bg-amber-300',
  critical: 'bg-orange-500 dark:bg-orange-400',
  full: 'bg-rose-600 dark:bg-rose-400',
};

const badgeVariant: Record<MeterLevel, BadgeVariant> = {
  ok: 'neutral',
  high: 'warning',
  critical: 'warning',
  full: 'danger',
};

export type UsageMeterProps = { meter: BillingMeter };

/**
 * One cap and its use: "12 of 100 learners", a bar (a progressbar named by
 * the metric, with its value in words) coloured at 80, 90 and 100 %, the
 * level in words, the forecast, and "override" when an operator set a cap
 * other than the plan's.
 */
export function UsageMeter({ meter }: UsageMeterProps) {
  const labelId = useId();
  const forecastId = useId();
  const level = meterLevel(meter);
  const percent = meterPercent(meter);
  const words = METER_LEVEL_WORDS[level];
  const isOverride = meter.cap !== meter.planCap;
  return (
    <div className="flex flex-col gap-2" data-testid={`meter-${meter.metric}`} data-level={level}>
      <div className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1">
        <h3 id={labelId} className="text-sm font-semibold text-fg">
          {BILLING_METRIC_LABELS[meter.metric].title}
        </h3>
        <p className="text-sm text-fg-muted tabular-nums">
          <span className="font-semibold text-fg">{formatNumber(meter.used)}</span> /{' '}
          {formatNumber(meter.cap)}
          <span className="sr-only"> {BILLING_METRIC_LABELS[meter.metric].many}</span>
        </p>
      </div>
      <div
        role="progressbar"
        aria-labelledby={labelId}
        aria-describedby={forecastId}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={Math.min(100, Math.round(percent))}
        aria-valuetext={meterValueText(meter)}
        className="h-2.5 w-full overflow-hidden rounded-full bg-surface-muted ring-1 ring-line"
      >
        <div
          className={cn('h-full rounded-full transition-[width] duration-300', barClass[level])}
          style={{ width: `${Math.min(100, percent)}%` }}
        />
      </div>
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <span className="text-fg-muted tabular-nums">{formatPercentUsed(percent)}</span>
        {words ? (
          <Badge variant={badgeVariant[level]} dot>
            {words}
          </Badge>
        ) : null}
        {isOverride ? (
          <Badge
            variant="brand"
            title={`Set for your organization; the plan allows ${countOf(meter.metric, meter.planCap)}`}
          >
            override
          </Badge>
        ) : null}
      </div>
      {isOverride ? (
        <p className="text-xs text-fg-subtle">
          Set for your organization: the plan allows {countOf(meter.metric, meter.planCap)}.
        </p>
      ) : null}
      <p id={forecastId} className="text-sm text-fg-muted">
        {forecastSentence(meter)}
      </p>
    </div>
  );
}
