import type { ComponentPropsWithRef } from 'react';

import { cn } from '@/lib/cn';

export type CardProps = ComponentPropsWithRef<'div'>;

export function Card({ className, ...props }: CardProps) {
  return (
    <div
      className={cn(
        'rounded-2xl border border-line bg-surface text-fg shadow-sm shadow-slate-900/5 dark:shadow-black/20',
        className,
      )}
      {...props}
    />
  );
}

export type CardHeaderProps = ComponentPropsWithRef<'div'>;

export function CardHeader({ className, ...props }: CardHeaderProps) {
  return <div className={cn('flex flex-col gap-1.5 p-5 pb-0 sm:p-6 sm:pb-0', className)} {...props} />;
}

export type CardTitleProps = ComponentPropsWithRef<'h2'> & {
  /** Heading level, so a card fits the page's outline. */
  as?: 'h2' | 'h3' | 'h4';
};

export function CardTitle({ as: Heading = 'h2', className, ...props }: CardTitleProps) {
  return <Heading className={cn('text-base font-semibold tracking-tight text-fg', className)} {...props} />;
}

export type CardDescriptionProps = ComponentPropsWithRef<'p'>;

export function CardDescription({ className, ...props }: CardDescriptionProps) {
  return <p className={cn('text-sm text-fg-muted', className)} {...props} />;
}

export type CardContentProps = ComponentPropsWithRef<'div'>;

export function CardContent({ className, ...props }: CardContentProps) {
  return <div className={cn('p-5 sm:p-6', className)} {...props} />;
}

export type CardFooterProps = ComponentPropsWithRef<'div'>;

export function CardFooter({ className, ...props }: CardFooterProps) {
  return (
    <div
      className={cn('flex items-center gap-3 border-t border-line px-5 py-4 sm:px-6', className)}
      {...props}
    />
  );
}
