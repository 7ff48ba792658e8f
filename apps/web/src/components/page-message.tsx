import type { ReactNode } from 'react';

import { cn } from '@/lib/cn';

export type PageMessageProps = {
  icon?: ReactNode;
  /** Small line above the title (an error code, a section name). */
  eyebrow?: ReactNode;
  title: string;
  children?: ReactNode;
  actions?: ReactNode;
  className?: string;
};

/**
 * A centred page-level message: not found, coming soon, something went wrong.
 * Renders the page's only <h1>.
 */
export function PageMessage({ icon, eyebrow, title, children, actions, className }: PageMessageProps) {
  return (
    <section
      className={cn(
        'mx-auto flex w-full max-w-xl flex-1 flex-col items-center justify-center px-4 py-20 text-center sm:py-28',
        className,
      )}
    >
      {icon ? (
        <div className="mb-6 flex size-14 items-center justify-center rounded-2xl bg-brand-50 text-brand-600 ring-1 ring-brand-600/15 dark:bg-brand-400/10 dark:text-brand-300 dark:ring-brand-300/20 [&_svg]:size-7">
          {icon}
        </div>
      ) : null}
      {eyebrow ? (
        <p className="mb-2 text-sm font-semibold tracking-wide text-accent uppercase">{eyebrow}</p>
      ) : null}
      <h1 className="text-3xl font-bold tracking-tight text-balance text-fg sm:text-4xl">{title}</h1>
      {children ? <div className="mt-4 text-base text-pretty text-fg-muted">{children}</div> : null}
      {actions ? (
        <div className="mt-8 flex flex-wrap items-center justify-center gap-3">{actions}</div>
      ) : null}
    </section>
  );
}
