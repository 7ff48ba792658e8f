import { AlertTriangle, Info } from 'lucide-react';
import type { ReactNode } from 'react';

import { cn } from '@/lib/cn';

export type BillingNoteTone = 'info' | 'warning' | 'danger';

const toneClass: Record<BillingNoteTone, string> = {
  info: 'border-brand-200 bg-brand-50 text-brand-900 dark:border-brand-300/25 dark:bg-brand-400/10 dark:text-brand-100',
  warning:
    'border-amber-200 bg-amber-50 text-amber-900 dark:border-amber-400/25 dark:bg-amber-400/10 dark:text-amber-100',
  danger:
    'border-rose-200 bg-rose-50 text-rose-900 dark:border-rose-400/25 dark:bg-rose-400/10 dark:text-rose-100',
};

export type BillingNoteProps = {
  tone?: BillingNoteTone;
  title?: string;
  children: ReactNode;
  action?: ReactNode;
  /** `alert` for what needs acting on now; `status` for what is good to know; none for what is always there. */
  role?: 'alert' | 'status';
  className?: string;
  'data-testid'?: string;
};

/** A line of billing context above the cards: the provider, a grace period, a failed payment. */
export function BillingNote({
  tone = 'info',
  title,
  children,
  action,
  role,
  className,
  'data-testid': testId,
}: BillingNoteProps) {
  const Icon = tone === 'info' ? Info : AlertTriangle;
  return (
    <div
      role={role}
      data-testid={testId}
      className={cn(
        'flex flex-col gap-3 rounded-xl border px-4 py-3 text-sm sm:flex-row sm:items-center',
        toneClass[tone],
        className,
      )}
    >
      <div className="flex min-w-0 flex-1 gap-3">
        <Icon aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
        <div className="min-w-0">
          {title ? <p className="font-semibold">{title}</p> : null}
          <div className="text-pretty">{children}</div>
        </div>
      </div>
      {action ? <div className="shrink-0 pl-7 sm:pl-0">{action}</div> : null}
    </div>
  );
}
