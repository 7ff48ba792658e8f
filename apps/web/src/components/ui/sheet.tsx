import { X } from 'lucide-react';
import { useId, useRef, type ReactNode } from 'react';
import { createPortal } from 'react-dom';

import { useEscapeKey } from '@/hooks/use-escape-key';
import { useModalFocus } from '@/hooks/use-modal-focus';
import { cn } from '@/lib/cn';

export type SheetProps = {
  open: boolean;
  onClose: () => void;
  title: string;
  description?: ReactNode;
  children: ReactNode;
  /** Buttons kept in view under the scrolling content. */
  footer?: ReactNode;
  /** Extra classes for the panel (its width from 640 px). */
  className?: string;
};

/**
 * A modal panel that slides over the page: from the right from 640 px, from
 * the bottom on a phone (a bottom sheet, at most 85 % of the screen high).
 * Like the dialog it is labelled by its title, keeps focus inside, closes on
 * Escape or a press on the backdrop, and gives focus back where it was.
 */
export function Sheet({ open, onClose, title, description, children, footer, className }: SheetProps) {
  const titleId = useId();
  const descriptionId = useId();
  const panelRef = useRef<HTMLDivElement>(null);
  useEscapeKey(onClose, open);

  useModalFocus(panelRef, open, 'panel');

  if (!open) return null;
  return createPortal(
    <div className="fixed inset-0 z-50 flex items-end sm:items-stretch sm:justify-end">
      <div
        className="absolute inset-0 bg-slate-950/40 backdrop-blur-[1px] dark:bg-black/60"
        aria-hidden="true"
        onClick={onClose}
      />
      <div
        ref={panelRef}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={description ? descriptionId : undefined}
        tabIndex={-1}
        className={cn(
          'relative flex max-h-[85dvh] w-full flex-col rounded-t-2xl border border-line bg-surface text-fg shadow-2xl shadow-slate-950/20 focus:outline-none',
          'sm:max-h-none sm:w-[28rem] sm:max-w-[calc(100vw-3rem)] sm:rounded-none sm:rounded-l-2xl sm:border-y-0 sm:border-r-0',
          className,
        )}
      >
        <div className="flex items-start justify-between gap-4 border-b border-line px-5 py-4">
          <div className="min-w-0">
            <h2 id={titleId} className="text-lg font-semibold tracking-tight text-fg">
              {title}
            </h2>
            {description ? (
              <div id={descriptionId} className="mt-0.5 text-sm text-fg-muted">
                {description}
              </div>
            ) : null}
          </div>
          <button
            type="button"
            onClick={onClose}
            aria-label="Close"
            className="-m-1.5 rounded-lg p-1.5 text-fg-muted hover:bg-surface-muted hover:text-fg focus-visible:outline-2 focus-visible:outline-focus [&_svg]:size-5"
          >
            <X aria-hidden="true" />
          </button>
        </div>
        <div className="min-h-0 flex-1 overflow-y-auto px-5 py-4">{children}</div>
        {footer ? <div className="flex flex-wrap gap-2 border-t border-line px-5 py-3">{footer}</div> : null}
      </div>
    </div>,
    document.body,
  );
}
