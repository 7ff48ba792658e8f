import { INSIGHT_KIND_LABELS, type AnalyticsInsight, type InsightSeverity } from '@courselens/contracts';
import { AlertOctagon, AlertTriangle, ArrowRight, Eye, EyeOff, Info, type LucideIcon } from 'lucide-react';
import { useId } from 'react';
import { Link } from 'react-router';

import { Badge, type BadgeVariant } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { cn } from '@/lib/cn';
import { formatRelative } from '@/lib/format';

const SEVERITY: Record<
  InsightSeverity,
  { label: string; variant: BadgeVariant; icon: LucideIcon; rail: string }
> = {
  critical: {
    label: 'Critical',
    variant: 'danger',
    icon: AlertOctagon,
    rail: 'bg-rose-500 dark:bg-rose-400',
  },
  warning: {
    label: 'Warning',
    variant: 'warning',
    icon: AlertTriangle,
    rail: 'bg-amber-500 dark:bg-amber-400',
  },
  info: { label: 'Info', variant: 'brand', icon: Info, rail: 'bg-brand-500 dark:bg-brand-300' },
};

export type InsightCardProps = {
  insight: AnalyticsInsight;
  /** Dismiss (an open finding) or restore (a dismissed one); absent: no button. */
  onToggleDismissed?: (insight: AnalyticsInsight) => void;
  isBusy?: boolean;
  /** The overview's short form: the body and the figures only on wide screens. */
  isCompact?: boolean;
  /** Heading level in the page's outline. */
  headingLevel?: 'h2' | 'h3';
};

/**
 * One finding: its severity, what was found, the figures behind it, a link
 * to the screen that shows it, and dismiss or restore.
 */
export function InsightCard({
  insight,
  onToggleDismissed,
  isBusy = false,
  isCompact = false,
  headingLevel: Heading = 'h3',
}: InsightCardProps) {
  const titleId = useId();
  const severity = SEVERITY[insight.severity];
  const isDismissed = insight.dismissedAt !== null;
  return (
    <Card
      className={cn(
        'relative flex flex-col gap-3 overflow-hidden p-4 pl-5 sm:p-5 sm:pl-6',
        isDismissed && 'opacity-80',
      )}
      aria-labelledby={titleId}
      role="article"
      data-testid="insight-card"
    >
      <span aria-hidden="true" className={cn('absolute inset-y-0 left-0 w-1', severity.rail)} />
      <div className="flex flex-wrap items-center gap-2">
        <Badge variant={severity.variant}>
          <severity.icon aria-hidden="true" className="size-3.5" />
          {severity.label}
        </Badge>
        <span className="text-xs font-medium text-fg-muted">{INSIGHT_KIND_LABELS[insight.kind]}</span>
        {insight.courseTitle ? (
          <span className="min-w-0 truncate text-xs text-fg-subtle">· {insight.courseTitle}</span>
        ) : null}
      </div>
      <Heading id={titleId} className="text-base font-semibold break-words text-fg">
        {insight.title}
      </Heading>
      <p className={cn('text-sm break-words text-fg-muted', isCompact && 'hidden sm:block sm:line-clamp-2')}>
        {insight.body}
      </p>
      {insight.evidence.length > 0 ? (
        <dl
          aria-label="Evidence"
          className={cn('grid grid-cols-2 gap-2 sm:grid-cols-4', isCompact && 'hidden md:grid')}
        >
          {insight.evidence.map((figure) => (
            <div key={figure.label} className="min-w-0 rounded-lg bg-surface-muted px-3 py-2">
              <dt className="truncate text-xs text-fg-muted" title={figure.label}>
                {figure.label}
              </dt>
              <dd className="truncate text-sm font-semibold text-fg tabular-nums" title={figure.value}>
                {figure.value}
              </dd>
            </div>
          ))}
        </dl>
      ) : null}
      <div className="flex flex-wrap items-center justify-between gap-2">
        <Link
          to={insight.link}
          className="inline-flex items-center gap-1 rounded text-sm font-medium text-brand-700 hover:underline focus-visible:outline-2 focus-visible:outline-focus dark:text-brand-300"
        >
          {insight.linkLabel}
          <ArrowRight aria-hidden="true" className="size-4" />
        </Link>
        <div className="flex items-center gap-3">
          <span className="text-xs text-fg-subtle">
            {isDismissed
              ? `Dismissed ${formatRelative(insight.dismissedAt)}`
              : `Checked ${formatRelative(insight.computedAt)}`}
          </span>
          {onToggleDismissed ? (
            <Button
              variant="ghost"
              size="sm"
              isLoading={isBusy}
              onClick={() => onToggleDismissed(insight)}
              aria-label={`${isDismissed ? 'Restore' : 'Dismiss'}: ${insight.title}`}
            >
              {isBusy ? null : isDismissed ? (
                <Eye aria-hidden="true" className="size-4" />
              ) : (
                <EyeOff aria-hidden="true" className="size-4" />
              )}
              {isDismissed ? 'Restore' : 'Dismiss'}
            </Button>
          ) : null}
        </div>
      </div>
    </Card>
  );
}
