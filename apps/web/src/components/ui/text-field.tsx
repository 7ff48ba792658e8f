import { useId, type ComponentPropsWithRef, type ReactNode } from 'react';

import { cn } from '@/lib/cn';

export const inputClassName =
  'block h-10 w-full rounded-lg border border-line-strong bg-surface px-3 text-sm text-fg shadow-xs ' +
  'placeholder:text-fg-subtle transition-colors ' +
  'focus-visible:border-brand-500 focus-visible:outline-2 focus-visible:outline-offset-0 focus-visible:outline-focus ' +
  'disabled:cursor-not-allowed disabled:opacity-60 ' +
  'aria-invalid:border-rose-500 aria-invalid:focus-visible:outline-rose-500 dark:aria-invalid:border-rose-400';

export type TextFieldProps = ComponentPropsWithRef<'input'> & {
  label: string;
  /** The field's validation message, shown under it and announced. */
  error?: string;
  /** Help shown under the field while there is no error. */
  hint?: ReactNode;
  /** Text shown after the label, such as "Optional". */
  labelAside?: ReactNode;
};

/** A labelled input with its hint and inline error, wired for screen readers. */
export function TextField({ label, error, hint, labelAside, id, className, ...props }: TextFieldProps) {
  const generatedId = useId();
  const inputId = id ?? generatedId;
  const hintId = hint && !error ? `${inputId}-hint` : undefined;
  const errorId = error ? `${inputId}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(' ') || undefined;
  return (
    <div className="flex flex-col gap-1.5">
      <div className="flex items-baseline justify-between gap-2">
        <label htmlFor={inputId} className="text-sm font-medium text-fg">
          {label}
        </label>
        {labelAside ? <span className="text-xs text-fg-subtle">{labelAside}</span> : null}
      </div>
      <input
        id={inputId}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        className={cn(inputClassName, className)}
        {...props}
      />
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
