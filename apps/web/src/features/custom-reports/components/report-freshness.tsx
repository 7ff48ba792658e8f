import type { ReportData } from '@courselens/contracts';
import { RefreshCw } from 'lucide-react';

import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { formatDateTimeWithSeconds } from '@/lib/format';

export type ReportFreshnessProps = {
  data: ReportData;
  /** Waits for current figures; without it (a shared link) there is no Refresh button. */
  onRefresh?: () => void;
  isRefreshing?: boolean;
};

/**
 * When the figures were computed, and whether newer ones are on their way:
 * a report slow to compute can be shown as it was a short while ago while
 * the server computes it again.
 */
export function ReportFreshness({ data, onRefresh, isRefreshing = false }: ReportFreshnessProps) {
  return (
    <div className="flex min-h-8 flex-wrap items-center gap-x-3 gap-y-1 text-xs text-fg-subtle">
      <p role="status" aria-live="polite" className="flex flex-wrap items-center gap-x-1.5">
        <span>
          Figures as of <time dateTime={data.generatedAt}>{formatDateTimeWithSeconds(data.generatedAt)}</time>
        </span>
        {data.refreshing ? (
          <span className="inline-flex items-center gap-1.5 text-fg-muted">
            <Spinner size="sm" label={null} className="size-3" />
            New learning data arrived; updating…
          </span>
        ) : null}
      </p>
      {onRefresh ? (
        <Button
          variant="ghost"
          size="sm"
          className="print:hidden"
          onClick={onRefresh}
          isLoading={isRefreshing}
        >
          {isRefreshing ? null : <RefreshCw aria-hidden="true" />}
          Refresh
        </Button>
      ) : null}
    </div>
  );
}
