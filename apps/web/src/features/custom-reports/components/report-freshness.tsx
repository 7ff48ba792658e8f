import type { ReportData } from '@courselens/contracts';
import { RefreshCw } from 'lucide-react';

import { FiguresAsOf } from '@/components/figures-as-of';
import { Button } from '@/components/ui/button';

export type ReportFreshnessProps = {
  data: ReportData;
  /** Waits for current figures; without it (a shared link) there is no Refresh button. */
  onRefresh?: () => void;
  isRefreshing?: boolean;
};

/** When the report's figures were computed, whether newer ones are on their way, and Refresh. */
export function ReportFreshness({ data, onRefresh, isRefreshing = false }: ReportFreshnessProps) {
  return (
    <div className="flex min-h-8 flex-wrap items-center gap-x-3 gap-y-1 text-xs text-fg-subtle">
      <FiguresAsOf computedAt={data.generatedAt} refreshing={data.refreshing} />
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
