import { SlidersHorizontal } from 'lucide-react';
import { useId, useState, type ReactNode } from 'react';

import { cn } from '@/lib/cn';

import { Button } from './ui/button';

export type FilterBarProps = {
  /** Always in view (the list's search box). */
  search?: ReactNode;
  /** The filters: in the bar from 768 px, behind the "Filters" button under it. */
  children: ReactNode;
  /** How many filters differ from their default: shown on the button so a hidden filter is not forgotten. */
  activeCount?: number;
  /** Always in view, at the end of the bar (export...). */
  actions?: ReactNode;
  className?: string;
};

/**
 * The search and filters above a list. Under 768 px the filters collapse
 * behind a "Filters" button (with the number of filters in use), so the
 * list starts near the top of a phone screen; from 768 px they sit in the bar.
 */
export function FilterBar({ search, children, activeCount = 0, actions, className }: FilterBarProps) {
  const [isOpen, setIsOpen] = useState(false);
  const panelId = useId();
  return (
    <div className={cn('flex flex-col gap-2 md:flex-row md:flex-wrap md:items-center md:gap-3', className)}>
      {/* Under 768 px: the search and the button share the first line. */}
      <div className="flex items-center gap-2 md:contents">
        {search ? <div className="min-w-0 flex-1 md:w-xs md:flex-none">{search}</div> : null}
        <Button
          variant="outline"
          className="shrink-0 md:hidden"
          aria-expanded={isOpen}
          aria-controls={panelId}
          onClick={() => setIsOpen((open) => !open)}
        >
          <SlidersHorizontal aria-hidden="true" />
          Filters
          {activeCount > 0 ? (
            <span
              className="ml-0.5 rounded-full bg-brand-600 px-1.5 text-xs leading-5 font-semibold text-white dark:bg-brand-400 dark:text-slate-950"
              aria-label={`${activeCount} in use`}
            >
              {activeCount}
            </span>
          ) : null}
        </Button>
      </div>
      <div
        id={panelId}
        data-testid="filter-panel"
        className={cn(
          'flex-col gap-2 md:flex md:flex-row md:flex-wrap md:items-center md:gap-3',
          isOpen ? 'flex' : 'hidden',
        )}
      >
        {children}
      </div>
      {actions ? <div className="flex flex-wrap gap-2 md:ml-auto">{actions}</div> : null}
    </div>
  );
}
