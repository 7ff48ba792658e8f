import { ChevronRight } from 'lucide-react';

import { cn } from '@/lib/cn';

export type JsonViewProps = {
  label: string;
  value: unknown;
  /** Open from the start (a short value, or the one that matters). */
  defaultOpen?: boolean;
  className?: string;
};

/**
 * A value shown as indented JSON inside a disclosure. It is rendered as
 * text, never as markup, so whatever a webhook answered stays inert; long
 * values scroll inside their box.
 */
export function JsonView({ label, value, defaultOpen = false, className }: JsonViewProps) {
  const text = value === undefined ? 'Nothing' : safeStringify(value);
  return (
    <details open={defaultOpen} className={cn('group min-w-0', className)}>
      <summary className="inline-flex cursor-pointer items-center gap-1 rounded text-xs font-medium text-fg-muted select-none hover:text-fg focus-visible:outline-2 focus-visible:outline-focus [&_svg]:size-3.5">
        <ChevronRight aria-hidden="true" className="transition-transform group-open:rotate-90" />
        {label}
      </summary>
      <pre
        // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a scrollable region must take focus
        tabIndex={0}
        aria-label={label}
        className="mt-1.5 max-h-72 overflow-auto rounded-lg bg-surface-muted px-3 py-2 font-mono text-xs whitespace-pre-wrap break-words text-fg focus-visible:outline-2 focus-visible:outline-focus"
      >
        {text}
      </pre>
    </details>
  );
}

function safeStringify(value: unknown): string {
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    return String(value);
  }
}
