import { Info } from 'lucide-react';
import { useId, useRef, useState, type ReactNode } from 'react';

import { useClickOutside } from '@/hooks/use-click-outside';
import { useEscapeKey } from '@/hooks/use-escape-key';
import { cn } from '@/lib/cn';

export type InfoTipProps = {
  /** Accessible name of the button ("What Learners counts"). */
  label: string;
  /** The explanation, also the button's accessible description. */
  children: ReactNode;
  className?: string;
};

/**
 * A small info button whose explanation shows on hover, on focus and on a
 * tap (touch screens have no hover), and is the button's accessible
 * description, so a screen reader says it without opening anything.
 * Escape or a press elsewhere closes it.
 */
export function InfoTip({ label, children, className }: InfoTipProps) {
  const tipId = useId();
  const rootRef = useRef<HTMLSpanElement>(null);
  const [isOpen, setIsOpen] = useState(false);
  const [alignRight, setAlignRight] = useState(false);

  useEscapeKey(() => setIsOpen(false), isOpen);
  useClickOutside(rootRef, () => setIsOpen(false), isOpen);

  function show() {
    // Opens towards the side with room, so the tip stays on a narrow screen.
    const rect = rootRef.current?.getBoundingClientRect();
    setAlignRight(rect ? rect.left > window.innerWidth / 2 : false);
    setIsOpen(true);
  }

  return (
    <span
      ref={rootRef}
      className={cn('relative inline-flex align-middle', className)}
      onMouseEnter={show}
      onMouseLeave={() => setIsOpen(false)}
    >
      <button
        type="button"
        aria-label={label}
        aria-describedby={tipId}
        aria-expanded={isOpen}
        onFocus={show}
        onBlur={() => setIsOpen(false)}
        onClick={show}
        className="inline-flex size-5 items-center justify-center rounded-full text-fg-subtle hover:text-fg focus-visible:outline-2 focus-visible:outline-focus"
      >
        <Info aria-hidden="true" className="size-3.5" />
      </button>
      <span
        id={tipId}
        role="tooltip"
        hidden={!isOpen}
        className={cn(
          'absolute top-full z-40 mt-1 w-64 max-w-[calc(100vw-2rem)] rounded-lg border border-line bg-surface px-3 py-2 text-left text-xs leading-snug font-normal tracking-normal text-fg normal-case shadow-lg shadow-slate-900/10 dark:shadow-black/40',
          alignRight ? 'right-0' : 'left-0',
        )}
      >
        {children}
      </span>
    </span>
  );
}
