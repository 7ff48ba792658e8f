import { useId, type ReactNode } from 'react';

import { cn } from '@/lib/cn';

export type FieldProps = {
  label: string;
  /** Renders the control with the ids it must carry. */
  children: (ids: { id: string; describedBy: string | undefined; invalid: boolean }) => ReactNode;
  hint?: ReactNode;
  error?: string | null;
  labelAside?: ReactNode;
  className?: string;
};

/** A labelled control of a node form, with its hint or its problem under it. */
export function Field({ label, children, hint, error, labelAside, className }: FieldProps) {
  const id = useId();
  const hintId = hint && !error ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(' ') || undefined;
  return (
    <div className={cn('flex min-w-0 flex-col gap-1.5', className)}>
      <div className="flex items-baseline justify-between gap-2">
        <label htmlFor={id} className="text-sm font-medium text-fg">
          {label}
        </label>
        {labelAside ? <span className="text-xs text-fg-subtle">{labelAside}</span> : null}
      </div>
      {children({ id, describedBy, invalid: Boolean(error) })}
      {hintId ? (
        <p id={hintId} className="text-xs text-fg-muted">
          {hint}
        </p>
      ) : null}
      {errorId ? (
        <p id={errorId} className="text-sm text-rose-600 dark:text-rose-400">
          {error}
        </p>
      ) : null}
    </div>
  );
}
