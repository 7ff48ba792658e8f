import { Check, ChevronDown } from 'lucide-react';
import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';

import { useClickOutside } from '@/hooks/use-click-outside';
import { cn } from '@/lib/cn';

import { inputClassName } from './text-field';

export type ComboboxOption = {
  value: string;
  label: string;
  /** A second, quieter line (a course, a data type). */
  hint?: string;
  /** The heading the option is listed under; options of a group should be adjacent. */
  group?: string;
  disabled?: boolean;
  /** More words the search matches besides the label, hint and group. */
  keywords?: string;
};

export type ComboboxProps = {
  /** Accessible name of the field ("Variable"). */
  label: string;
  value: string | null;
  options: readonly ComboboxOption[];
  onChange: (value: string) => void;
  placeholder?: string;
  /** Shown when nothing matches what was typed. */
  emptyText?: string;
  id?: string;
  invalid?: boolean;
  describedBy?: string;
  disabled?: boolean;
  className?: string;
  /** Options listed at most; the rest are reached by typing. */
  maxOptions?: number;
};

function matches(option: ComboboxOption, words: readonly string[]): boolean {
  if (words.length === 0) return true;
  const haystack = [option.label, option.hint, option.group, option.keywords]
    .filter(Boolean)
    .join(' ')
    .toLowerCase();
  return words.every((word) => haystack.includes(word));
}

/**
 * A select you can type into (the ARIA 1.2 combobox with a listbox popup):
 * typing filters the options, which may be grouped under headings; arrows,
 * Home and End move, Enter picks, Escape closes and restores the choice.
 * Long lists stay usable because only the first `maxOptions` matches render.
 */
export function Combobox({
  label,
  value,
  options,
  onChange,
  placeholder = 'Search…',
  emptyText = 'Nothing matches',
  id,
  invalid = false,
  describedBy,
  disabled = false,
  className,
  maxOptions = 100,
}: ComboboxProps) {
  const generatedId = useId();
  const inputId = id ?? generatedId;
  const listId = `${inputId}-listbox`;
  const rootRef = useRef<HTMLDivElement>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const [isOpen, setIsOpen] = useState(false);
  const [query, setQuery] = useState('');
  const [activeIndex, setActiveIndex] = useState(-1);

  const selected = options.find((option) => option.value === value) ?? null;
  const words = useMemo(() => query.trim().toLowerCase().split(/\s+/).filter(Boolean), [query]);
  const allMatches = useMemo(() => options.filter((option) => matches(option, words)), [options, words]);
  const shown = allMatches.slice(0, maxOptions);
  const hidden = allMatches.length - shown.length;

  useClickOutside(rootRef, () => close(), isOpen);

  useEffect(() => {
    if (!isOpen || activeIndex < 0) return;
    // jsdom has no scrollIntoView; browsers keep the active option in sight.
    document.getElementById(`${inputId}-option-${activeIndex}`)?.scrollIntoView?.({ block: 'nearest' });
  }, [activeIndex, inputId, isOpen]);

  function open() {
    if (disabled) return;
    setIsOpen(true);
    const index = shown.findIndex((option) => option.value === value);
    setActiveIndex(index >= 0 ? index : firstEnabled(shown, 0, 1));
  }

  function close() {
    setIsOpen(false);
    setQuery('');
    setActiveIndex(-1);
  }

  function choose(option: ComboboxOption) {
    if (option.disabled) return;
    onChange(option.value);
    close();
  }

  function handleKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    switch (event.key) {
      case 'ArrowDown':
      case 'ArrowUp': {
        event.preventDefault();
        if (!isOpen) return open();
        const step = event.key === 'ArrowDown' ? 1 : -1;
        setActiveIndex((index) => firstEnabled(shown, index + step, step, index));
        return;
      }
      case 'Home':
      case 'End':
        if (!isOpen) return;
        event.preventDefault();
        setActiveIndex(
          event.key === 'Home' ? firstEnabled(shown, 0, 1) : firstEnabled(shown, shown.length - 1, -1),
        );
        return;
      case 'Enter': {
        if (!isOpen) return;
        event.preventDefault();
        const option = shown[activeIndex];
        if (option) choose(option);
        return;
      }
      case 'Escape':
        if (!isOpen) return;
        // Only the combobox closes; a dialog around it stays open.
        event.stopPropagation();
        event.preventDefault();
        close();
        return;
      case 'Tab':
        close();
        return;
    }
  }

  // Options render in order, with a heading before each new group.
  const rendered: { heading: string | null; entries: { option: ComboboxOption; index: number }[] }[] = [];
  shown.forEach((option, index) => {
    const heading = option.group ?? null;
    const last = rendered.at(-1);
    if (last && last.heading === heading) last.entries.push({ option, index });
    else rendered.push({ heading, entries: [{ option, index }] });
  });

  return (
    <div ref={rootRef} className={cn('relative min-w-0', className)}>
      <input
        ref={inputRef}
        id={inputId}
        type="text"
        role="combobox"
        aria-label={label}
        aria-expanded={isOpen}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={isOpen && activeIndex >= 0 ? `${inputId}-option-${activeIndex}` : undefined}
        aria-invalid={invalid || undefined}
        aria-describedby={describedBy}
        autoComplete="off"
        spellCheck={false}
        disabled={disabled}
        placeholder={selected ? selected.label : placeholder}
        value={isOpen ? query : (selected?.label ?? '')}
        title={selected?.label}
        onChange={(event) => {
          setQuery(event.target.value);
          setIsOpen(true);
          setActiveIndex(0);
        }}
        onClick={() => (isOpen ? undefined : open())}
        onKeyDown={handleKeyDown}
        onBlur={(event) => {
          if (!rootRef.current?.contains(event.relatedTarget)) close();
        }}
        className={cn(inputClassName, 'truncate pr-9')}
      />
      <button
        type="button"
        tabIndex={-1}
        aria-hidden="true"
        disabled={disabled}
        onClick={() => {
          if (isOpen) close();
          else {
            open();
            inputRef.current?.focus();
          }
        }}
        className="absolute top-1/2 right-1.5 flex size-7 -translate-y-1/2 items-center justify-center rounded text-fg-subtle hover:text-fg"
      >
        <ChevronDown className={cn('size-4 transition-transform', isOpen && 'rotate-180')} />
      </button>
      {/* The list stays in the DOM while closed so aria-controls always points at something. */}
      <div
        id={listId}
        role="listbox"
        tabIndex={-1}
        aria-label={label}
        hidden={!isOpen}
        // A press on an option must not blur the input first (it would close the list).
        onMouseDown={(event) => event.preventDefault()}
        className="absolute top-full right-0 left-0 z-30 mt-1 max-h-72 min-w-[14rem] overflow-y-auto rounded-xl border border-line bg-surface p-1 shadow-lg shadow-slate-900/10 dark:shadow-black/40"
      >
        {isOpen && shown.length === 0 ? <p className="px-3 py-2 text-sm text-fg-muted">{emptyText}</p> : null}
        {isOpen
          ? rendered.map((block, blockIndex) => {
              const options = block.entries.map(({ option, index }) => (
                <div
                  key={option.value}
                  id={`${inputId}-option-${index}`}
                  role="option"
                  tabIndex={-1}
                  aria-selected={option.value === value}
                  aria-disabled={option.disabled || undefined}
                  onClick={() => choose(option)}
                  onKeyDown={() => undefined}
                  onMouseMove={() => (activeIndex === index ? undefined : setActiveIndex(index))}
                  className={cn(
                    'flex cursor-pointer items-start gap-2 rounded-lg px-2.5 py-1.5 text-sm text-fg',
                    index === activeIndex && 'bg-surface-muted',
                    option.disabled && 'cursor-not-allowed opacity-50',
                  )}
                >
                  <Check
                    aria-hidden="true"
                    className={cn(
                      'mt-0.5 size-4 shrink-0 text-brand-600 dark:text-brand-300',
                      option.value === value ? 'visible' : 'invisible',
                    )}
                  />
                  <span className="min-w-0">
                    <span className="block break-words">{option.label}</span>
                    {option.hint ? (
                      <span className="block text-xs break-words text-fg-muted">{option.hint}</span>
                    ) : null}
                  </span>
                </div>
              ));
              if (block.heading === null) return options;
              const headingId = `${inputId}-group-${blockIndex}`;
              return (
                <div key={`${block.heading}-${blockIndex}`} role="group" aria-labelledby={headingId}>
                  <div
                    id={headingId}
                    role="presentation"
                    className="px-2.5 pt-2 pb-1 text-xs font-semibold tracking-wide text-fg-subtle uppercase"
                  >
                    {block.heading}
                  </div>
                  {options}
                </div>
              );
            })
          : null}
        {isOpen && hidden > 0 ? (
          <p className="px-3 py-2 text-xs text-fg-muted">{hidden} more: type to narrow the list.</p>
        ) : null}
      </div>
    </div>
  );
}

/** The index of the first enabled option from `start` going `step`, else `fallback`. */
function firstEnabled(
  options: readonly ComboboxOption[],
  start: number,
  step: 1 | -1,
  fallback = -1,
): number {
  for (let index = start; index >= 0 && index < options.length; index += step) {
    if (!options[index]?.disabled) return index;
  }
  return fallback;
}
