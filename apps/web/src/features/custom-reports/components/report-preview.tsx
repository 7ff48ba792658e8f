import { MAX_PREVIEW_ITEMS, type ReportData } from '@courselens/contracts';
import { Eye } from 'lucide-react';

import { EmptyState } from '@/components/ui/empty-state';
import { Spinner } from '@/components/ui/spinner';
import { isApiError } from '@/lib/api-client';
import { cn } from '@/lib/cn';

import { ReportItemView } from './report-data-view';
import type { PreviewPlan } from './report-form';

export type ReportPreviewProps = {
  plan: PreviewPlan;
  /** Item names by form position, to say which item is not in the preview and why. */
  itemLabels: readonly string[];
  data: ReportData | undefined;
  isFetching: boolean;
  /** Waiting for the typing to pause or for the first answer. */
  isPending: boolean;
  error: Error | null;
  className?: string;
};

/**
 * The builder's live preview: each item that can run, with its figures,
 * its chart and its first rows, as the saved report will show them. Items
 * that cannot run yet say why.
 */
export function ReportPreview({
  plan,
  itemLabels,
  data,
  isFetching,
  isPending,
  error,
  className,
}: ReportPreviewProps) {
  const hasItems = plan.sent.length > 0;
  return (
    <section
      aria-labelledby="report-preview-title"
      aria-busy={isFetching || isPending || undefined}
      data-testid="report-preview"
      className={cn(
        'flex min-w-0 flex-col gap-4 rounded-2xl border border-line bg-surface-muted/50 p-4',
        className,
      )}
    >
      <div className="flex items-center justify-between gap-3">
        <h2 id="report-preview-title" className="flex items-center gap-2 text-lg font-semibold text-fg">
          <Eye aria-hidden="true" className="size-4 text-fg-muted" />
          Preview
        </h2>
        {hasItems && (isFetching || isPending) ? (
          <span className="flex items-center gap-2 text-xs text-fg-muted">
            <Spinner size="sm" label={null} />
            Updating…
          </span>
        ) : null}
      </div>
      {!hasItems ? (
        <div className="rounded-xl border border-dashed border-line-strong bg-surface px-4 py-6">
          <EmptyState title="Nothing to show yet">
            Choose what an item reads: its first rows and its chart appear here as you build.
          </EmptyState>
        </div>
      ) : error ? (
        <p role="alert" className="rounded-lg bg-surface px-3 py-2 text-sm text-rose-600 dark:text-rose-400">
          The preview could not be loaded: {isApiError(error) ? error.message : 'please try again.'}
        </p>
      ) : data ? (
        <div className={cn('flex flex-col gap-4 transition-opacity', isFetching && 'opacity-70')}>
          {data.items.map((item) => (
            <ReportItemView key={item.itemId} item={item} compact headingLevel="h3" />
          ))}
        </div>
      ) : (
        <div className="flex justify-center py-10">
          <Spinner label="Loading the preview" />
        </div>
      )}
      {plan.problems.length > 0 || plan.skipped > 0 ? (
        <div className="flex flex-col gap-1 text-xs text-fg-muted" data-testid="preview-problems">
          {plan.problems.length > 0 ? <p className="font-semibold text-fg">Not in the preview yet</p> : null}
          <ul className="flex flex-col gap-1">
            {plan.problems.map((problem) => (
              <li key={problem.index}>
                <span className="font-medium text-fg">
                  {problem.index + 1}. {itemLabels[problem.index] ?? 'Item'}
                </span>
                : {problem.message}
              </li>
            ))}
            {plan.skipped > 0 ? (
              <li>
                The preview shows the first {MAX_PREVIEW_ITEMS} items; {plan.skipped} more show in the saved
                report.
              </li>
            ) : null}
          </ul>
        </div>
      ) : null}
    </section>
  );
}
