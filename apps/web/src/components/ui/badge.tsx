import type { ComponentPropsWithRef } from 'react';

import { cn } from '@/lib/cn';

export type BadgeVariant = 'neutral' | 'brand' | 'success' | 'warning' | 'danger';

const variants: Record<BadgeVariant, { badge: string; dot: string }> = {
  neutral: {
    badge: 'bg-surface-muted text-fg-muted ring-line-strong',
    dot: 'bg-slate-400',
  },
  brand: {
    badge:
      'bg-brand-50 text-brand-700 ring-brand-600/20 dark:bg-brand-400/10 dark:text-brand-200 dark:ring-brand-300/25',
    dot: 'bg-brand-500 dark:bg-brand-300',
  },
  success: {
    badge:
      'bg-emerald-50 text-emerald-700 ring-emerald-600/20 dark:bg-emerald-400/10 dark:text-emerald-300 dark:ring-emerald-400/25',
    dot: 'bg-emerald-500 dark:bg-emerald-400',
  },
  warning: {
    badge:
      'bg-amber-50 text-amber-800 ring-amber-600/25 dark:bg-amber-400/10 dark:text-amber-200 dark:ring-amber-400/25',
    dot: 'bg-amber-500 dark:bg-amber-400',
  },
  danger: {
    badge:
      'bg-rose-50 text-rose-700 ring-rose-600/20 dark:bg-rose-400/10 dark:text-rose-300 dark:ring-rose-400/25',
    dot: 'bg-rose-500 dark:bg-rose-400',
  },
};

export type BadgeProps = ComponentPropsWithRef<'span'> & {
  variant?: BadgeVariant;
  /** A small coloured dot before the text; `pulse` animates it (live state). */
  dot?: boolean | 'pulse';
};

export function Badge({ variant = 'neutral', dot = false, className, children, ...props }: BadgeProps) {
  const styles = variants[variant];
  return (
    <span
      className={cn(
        'inline-flex items-center gap-1.5 rounded-full px-2.5 py-0.5 text-xs font-medium whitespace-nowrap ring-1 ring-inset',
        styles.badge,
        className,
      )}
      {...props}
    >
      {dot ? (
        <span className="relative inline-flex size-1.5" aria-hidden="true">
          {dot === 'pulse' ? (
            <span className={cn('absolute inset-0 rounded-full motion-safe:animate-pulse-dot', styles.dot)} />
          ) : null}
          <span className={cn('relative inline-flex size-1.5 rounded-full', styles.dot)} />
        </span>
      ) : null}
      {children}
    </span>
  );
}
