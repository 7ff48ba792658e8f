import { Search, X } from 'lucide-react';
import { useEffect, useId, useState } from 'react';

import { cn } from '@/lib/cn';

import { inputClassName } from './text-field';

export type SearchFieldProps = {
  /** Visually hidden label ("Search courses"). */
  label: string;
  value: string;
  /** Called after typing pauses (debounced), or at once on Enter or clear. */
  onChange: (value: string) => void;
  placeholder?: string;
  delayMs?: number;
  className?: string;
};

/** A search box that tells its owner once typing pauses, so each keystroke is not a request. */
export function SearchField({
  label,
  value,
  onChange,
  placeholder,
  delayMs = 300,
  className,
}: SearchFieldProps) {
  const id = useId();
  const [draft, setDraft] = useState(value);
  const [lastValue, setLastValue] = useState(value);

  // The URL may change the value from outside (back button): follow it,
  // adjusting state while rendering rather than in an effect.
  if (value !== lastValue) {
    setLastValue(value);
    setDraft(value);
  }

  useEffect(() => {
    if (draft === value) return;
    const timer = setTimeout(() => onChange(draft), delayMs);
    return () => clearTimeout(timer);
  }, [draft, value, delayMs, onChange]);

  return (
    <div className={cn('relative w-full sm:max-w-xs', className)}>
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      <Search
        aria-hidden="true"
        className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-fg-subtle"
      />
      <input
        id={id}
        type="search"
        value={draft}
        placeholder={placeholder ?? label}
        onChange={(event) => setDraft(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter') onChange(draft);
        }}
        className={cn(inputClassName, 'pr-9 pl-9 [&::-webkit-search-cancel-button]:hidden')}
      />
      {draft ? (
        <button
          type="button"
          aria-label="Clear search"
          onClick={() => {
            setDraft('');
            onChange('');
          }}
          className="absolute top-1/2 right-2 flex size-6 -translate-y-1/2 items-center justify-center rounded text-fg-subtle hover:text-fg focus-visible:outline-2 focus-visible:outline-focus"
        >
          <X aria-hidden="true" className="size-4" />
        </button>
      ) : null}
    </div>
  );
}
