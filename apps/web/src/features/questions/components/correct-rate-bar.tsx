import { cn } from '@/lib/cn';
import { formatPercent } from '@/lib/format';

export type CorrectRateBarProps = {
  /** From 0 to 1; null before the first answer. */
  rate: number | null;
  className?: string;
};

/** Where a rate falls: hard (under 50 %), medium (under 75 %) or easy. */
export function rateTone(rate: number): 'low' | 'medium' | 'high' {
  if (rate < 0.5) return 'low';
  if (rate < 0.75) return 'medium';
  return 'high';
}

const toneClass = {
  low: 'bg-rose-500 dark:bg-rose-400',
  medium: 'bg-amber-500 dark:bg-amber-400',
  high: 'bg-emerald-500 dark:bg-emerald-400',
} as const;

/** The share of right answers as a percentage with a small bar (a meter for assistive technology). */
export function CorrectRateBar({ rate, className }: CorrectRateBarProps) {
  if (rate === null) {
    return (
      <span className={cn('text-fg-subtle', className)} title="No answers yet">
        No answers
      </span>
    );
  }
  const percent = Math.round(rate * 100);
  return (
    <div className={cn('flex items-center justify-end gap-2', className)}>
      <div
        role="meter"
        aria-label="Correct rate"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-valuetext={formatPercent(rate)}
        className="h-2 w-16 overflow-hidden rounded-full bg-surface-muted ring-1 ring-line sm:w-24"
      >
        <div
          className={cn('h-full rounded-full', toneClass[rateTone(rate)])}
          style={{ width: `${percent}%` }}
        />
      </div>
      <span className="w-10 text-right font-medium text-fg tabular-nums">{formatPercent(rate)}</span>
    </div>
  );
}
