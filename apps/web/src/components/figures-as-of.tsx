import { Spinner } from '@/components/ui/spinner';
import { formatDateTimeWithSeconds } from '@/lib/format';

/**
 * When figures were computed, and whether newer ones are on their way: an
 * answer slow to compute can be shown as it was a short while ago while the
 * server computes it again.
 */
export function FiguresAsOf({ computedAt, refreshing }: { computedAt: string; refreshing: boolean }) {
  return (
    <p role="status" aria-live="polite" className="flex flex-wrap items-center gap-x-1.5">
      <span>
        Figures as of <time dateTime={computedAt}>{formatDateTimeWithSeconds(computedAt)}</time>
      </span>
      {refreshing ? (
        <span className="inline-flex items-center gap-1.5 text-fg-muted">
          <Spinner size="sm" label={null} className="size-3" />
          New learning data arrived; updating…
        </span>
      ) : null}
    </p>
  );
}
