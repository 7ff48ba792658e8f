import { Link } from 'react-router';

import { cn } from '@/lib/cn';

export type ReportTab = { id: string; label: string; href: string };

export type ReportTabsProps = {
  tabs: readonly ReportTab[];
  current: string;
  label?: string;
};

/** The views of a report as links (each view has its own URL), the current one marked. */
export function ReportTabs({ tabs, current, label = 'Views' }: ReportTabsProps) {
  return (
    <nav aria-label={label} className="-mx-1 overflow-x-auto">
      <ul className="flex min-w-max gap-1 border-b border-line px-1">
        {tabs.map((tab) => {
          const isCurrent = tab.id === current;
          return (
            <li key={tab.id}>
              <Link
                to={tab.href}
                aria-current={isCurrent ? 'page' : undefined}
                className={cn(
                  '-mb-px inline-flex items-center border-b-2 px-3 py-2 text-sm font-medium transition-colors',
                  isCurrent
                    ? 'border-brand-600 text-fg dark:border-brand-300'
                    : 'border-transparent text-fg-muted hover:border-line-strong hover:text-fg',
                )}
              >
                {tab.label}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
