import { ChevronLeft, ChevronRight } from 'lucide-react';

import { Button } from './button';

export type PaginationProps = {
  page: number;
  pageSize: number;
  total: number;
  onPageChange: (page: number) => void;
  /** What is counted, plural ("courses"). */
  noun?: string;
};

const numberFormat = new Intl.NumberFormat('en-US');

/** "21–40 of 1,234 learners" with previous and next buttons. */
export function Pagination({ page, pageSize, total, onPageChange, noun = 'results' }: PaginationProps) {
  const pageCount = Math.max(1, Math.ceil(total / pageSize));
  const first = total === 0 ? 0 : (page - 1) * pageSize + 1;
  const last = Math.min(total, page * pageSize);
  return (
    <nav
      aria-label="Pagination"
      className="flex flex-col items-center justify-between gap-3 text-sm text-fg-muted sm:flex-row"
    >
      <p aria-live="polite">
        {total === 0 ? (
          `No ${noun}`
        ) : (
          <>
            <span className="font-medium text-fg">
              {numberFormat.format(first)}–{numberFormat.format(last)}
            </span>{' '}
            of <span className="font-medium text-fg">{numberFormat.format(total)}</span> {noun}
          </>
        )}
      </p>
      <div className="flex items-center gap-2">
        <Button variant="outline" size="sm" disabled={page <= 1} onClick={() => onPageChange(page - 1)}>
          <ChevronLeft aria-hidden="true" />
          Previous
        </Button>
        <span className="tabular-nums">
          Page {numberFormat.format(Math.min(page, pageCount))} of {numberFormat.format(pageCount)}
        </span>
        <Button
          variant="outline"
          size="sm"
          disabled={page >= pageCount}
          onClick={() => onPageChange(page + 1)}
        >
          Next
          <ChevronRight aria-hidden="true" />
        </Button>
      </div>
    </nav>
  );
}
