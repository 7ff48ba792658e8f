import {
  renderTemplate,
  SAMPLE_ACTION_EVENT,
  TEMPLATE_FIELDS,
  TEMPLATE_FIELD_NAMES,
  templateContextOf,
  templateProblem,
  type TemplateEscape,
  type TemplateField as TemplateFieldName,
} from '@courselens/contracts';
import { useId, useRef, type ReactNode } from 'react';

import { inputClassName } from '@/components/ui/text-field';
import { cn } from '@/lib/cn';

export type TemplateFieldProps = {
  label: string;
  value: string;
  onChange: (value: string) => void;
  onBlur?: () => void;
  /** The field's validation message (from the form), shown under it. */
  error?: string | undefined;
  hint?: ReactNode;
  multiline?: boolean;
  rows?: number;
  /** `json` previews values escaped for JSON strings (a webhook body). */
  escape?: TemplateEscape;
  organizationName: string | null;
  placeholder?: string;
  /** Monospaced (a JSON body). */
  isCode?: boolean;
  /** How the preview is shown: as typed, or as formatted JSON when it parses. */
  previewAs?: 'text' | 'json';
  name?: string;
};

function formatPreview(text: string, previewAs: 'text' | 'json'): string {
  if (previewAs !== 'json') return text;
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

/**
 * A text field that takes `{{field}}` tags: a list inserts a field where the
 * cursor is, an unknown field is named as you type, and a live preview shows
 * the text filled in with the sample event (the same renderer the server runs).
 */
export function TemplateField({
  label,
  value,
  onChange,
  onBlur,
  error,
  hint,
  multiline = false,
  rows = 4,
  escape = 'text',
  organizationName,
  placeholder,
  isCode = false,
  previewAs = 'text',
  name,
}: TemplateFieldProps) {
  const id = useId();
  const inputRef = useRef<HTMLInputElement & HTMLTextAreaElement>(null);
  const problem = value.trim() === '' ? null : templateProblem(value);
  const shownError = error ?? problem ?? undefined;
  const preview = problem
    ? null
    : formatPreview(
        renderTemplate(value, templateContextOf(SAMPLE_ACTION_EVENT, organizationName), escape),
        previewAs,
      );
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = shownError ? `${id}-error` : undefined;
  const previewId = `${id}-preview`;

  function handleInsert(field: TemplateFieldName) {
    const tag = `{{${field}}}`;
    const input = inputRef.current;
    const start = input?.selectionStart ?? value.length;
    const end = input?.selectionEnd ?? value.length;
    onChange(`${value.slice(0, start)}${tag}${value.slice(end)}`);
    // After React writes the new value: the cursor goes right after the tag.
    requestAnimationFrame(() => {
      input?.focus();
      input?.setSelectionRange(start + tag.length, start + tag.length);
    });
  }

  const fieldProps = {
    id,
    name,
    ref: inputRef,
    value,
    placeholder,
    onChange: (event: { target: { value: string } }) => onChange(event.target.value),
    onBlur,
    'aria-invalid': shownError ? true : undefined,
    'aria-describedby': [hintId, errorId, previewId].filter(Boolean).join(' '),
    className: cn(
      inputClassName,
      isCode ? 'font-mono text-xs' : null,
      multiline ? 'h-auto py-2 leading-relaxed' : null,
    ),
  };

  return (
    <div className="flex min-w-0 flex-col gap-1.5">
      <div className="flex flex-wrap items-end justify-between gap-2">
        <label htmlFor={id} className="text-sm font-medium text-fg">
          {label}
        </label>
        <select
          aria-label={`Insert a field into ${label.toLowerCase()}`}
          value=""
          onChange={(event) => {
            if (event.target.value) handleInsert(event.target.value as TemplateFieldName);
          }}
          className="h-8 max-w-48 rounded-lg border border-line-strong bg-surface px-2 text-xs text-fg-muted focus-visible:outline-2 focus-visible:outline-focus"
        >
          <option value="">Insert a field…</option>
          {TEMPLATE_FIELD_NAMES.map((field) => (
            <option key={field} value={field} title={TEMPLATE_FIELDS[field]}>
              {`{{${field}}}`}
            </option>
          ))}
        </select>
      </div>
      {multiline ? (
        <textarea rows={rows} {...fieldProps} />
      ) : (
        <input type="text" autoComplete="off" {...fieldProps} />
      )}
      {hintId ? (
        <p id={hintId} className="text-xs text-fg-muted">
          {hint}
        </p>
      ) : null}
      {errorId ? (
        <p id={errorId} className="text-sm text-rose-600 dark:text-rose-400">
          {shownError}
        </p>
      ) : null}
      <div
        id={previewId}
        aria-live="polite"
        className="rounded-lg border border-dashed border-line-strong bg-surface-muted/60 px-3 py-2"
      >
        <p className="text-[0.7rem] font-semibold tracking-wide text-fg-subtle uppercase">
          Preview with the sample event
        </p>
        {preview === null ? (
          <p className="mt-1 text-sm text-fg-subtle">Fix the template to see it filled in.</p>
        ) : preview.trim() === '' ? (
          <p className="mt-1 text-sm text-fg-subtle italic">Empty</p>
        ) : (
          <p
            className={cn(
              'mt-1 max-h-60 overflow-auto text-sm break-words whitespace-pre-wrap text-fg',
              isCode ? 'font-mono text-xs' : null,
            )}
          >
            {preview}
          </p>
        )}
      </div>
    </div>
  );
}
