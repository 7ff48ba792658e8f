import { useId, type ComponentPropsWithRef, type ReactNode } from 'react';

import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { inputClassName } from '@/components/ui/text-field';
import { cn } from '@/lib/cn';
import { formatNumber } from '@/lib/format';

export const errorClassName = 'text-sm text-rose-600 dark:text-rose-400';

export function FieldError({ id, message }: { id?: string; message: string | undefined }) {
  return message ? (
    <p id={id} className={errorClassName}>
      {message}
    </p>
  ) : null;
}

export type TextAreaFieldProps = ComponentPropsWithRef<'textarea'> & {
  label: string;
  error?: string;
  hint?: ReactNode;
  labelAside?: ReactNode;
  /** Shows "n / max characters" under the field (the value's length as typed). */
  counter?: { length: number; max: number };
};

/** A labelled textarea with its hint, inline error and an optional character count, wired like `TextField`. */
export function TextAreaField({
  label,
  error,
  hint,
  labelAside,
  counter,
  id,
  className,
  ...props
}: TextAreaFieldProps) {
  const generatedId = useId();
  const fieldId = id ?? generatedId;
  const hintId = hint && !error ? `${fieldId}-hint` : undefined;
  const errorId = error ? `${fieldId}-error` : undefined;
  const counterId = counter ? `${fieldId}-counter` : undefined;
  return (
    <div className="flex flex-col gap-1.5">
      <div className="flex items-baseline justify-between gap-2">
        <label htmlFor={fieldId} className="text-sm font-medium text-fg">
          {label}
        </label>
        {labelAside ? <span className="text-xs text-fg-subtle">{labelAside}</span> : null}
      </div>
      <textarea
        id={fieldId}
        aria-invalid={error ? true : undefined}
        aria-describedby={[hintId, errorId, counterId].filter(Boolean).join(' ') || undefined}
        className={cn(inputClassName, 'h-auto py-2 leading-relaxed', className)}
        {...props}
      />
      <div className="flex items-start justify-between gap-3">
        <div className="min-w-0">
          {hintId ? (
            <p id={hintId} className="text-xs text-fg-muted">
              {hint}
            </p>
          ) : null}
          <FieldError id={errorId} message={error} />
        </div>
        {counter ? (
          <p
            id={counterId}
            className={cn(
              'shrink-0 text-xs tabular-nums',
              counter.length > counter.max ? 'text-rose-600 dark:text-rose-400' : 'text-fg-subtle',
            )}
          >
            {formatNumber(counter.length)} / {formatNumber(counter.max)}
          </p>
        ) : null}
      </div>
    </div>
  );
}

export type SelectFieldProps = ComponentPropsWithRef<'select'> & {
  label: string;
  error?: string;
  children: ReactNode;
};

/** A labelled select with its inline error. */
export function SelectField({ label, error, id, className, children, ...props }: SelectFieldProps) {
  const generatedId = useId();
  const fieldId = id ?? generatedId;
  const errorId = error ? `${fieldId}-error` : undefined;
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={fieldId} className="text-sm font-medium text-fg">
        {label}
      </label>
      <select
        id={fieldId}
        aria-invalid={error ? true : undefined}
        aria-describedby={errorId}
        className={cn(inputClassName, className)}
        {...props}
      >
        {children}
      </select>
      <FieldError id={errorId} message={error} />
    </div>
  );
}

export type FormSectionProps = {
  title: string;
  description?: ReactNode;
  /** Beside the title (an "Add" button). */
  actions?: ReactNode;
  children: ReactNode;
};

/** One titled card of a long form (a group of related fields). */
export function FormSection({ title, description, actions, children }: FormSectionProps) {
  return (
    <Card>
      <CardHeader className="flex-row flex-wrap items-start justify-between gap-3">
        <div className="flex min-w-0 flex-col gap-1.5">
          <CardTitle>{title}</CardTitle>
          {description ? <CardDescription>{description}</CardDescription> : null}
        </div>
        {actions ? <div className="flex shrink-0 flex-wrap gap-2">{actions}</div> : null}
      </CardHeader>
      <CardContent className="flex flex-col gap-5">{children}</CardContent>
    </Card>
  );
}
