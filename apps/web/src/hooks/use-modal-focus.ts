import { useEffect, type RefObject } from 'react';

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/**
 * Focus for a modal panel (dialog, sheet) while `open`: moved inside when it
 * opens (to `[data-autofocus]`, else the first control when
 * `initialFocus` is `'first-control'`, else the panel itself), kept inside
 * on Tab and Shift+Tab, and given back to where it was when it closes.
 */
export function useModalFocus(
  panelRef: RefObject<HTMLElement | null>,
  open: boolean,
  initialFocus: 'first-control' | 'panel',
): void {
  useEffect(() => {
    if (!open) return;
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const panel = panelRef.current;
    const selector = initialFocus === 'first-control' ? `[data-autofocus], ${FOCUSABLE}` : '[data-autofocus]';
    const first = panel?.querySelector<HTMLElement>(selector);
    (first ?? panel)?.focus();
    const handleKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Tab' || !panel) return;
      const focusable = [...panel.querySelectorAll<HTMLElement>(FOCUSABLE)];
      const firstFocusable = focusable[0];
      const lastFocusable = focusable[focusable.length - 1];
      if (!firstFocusable || !lastFocusable) return;
      const active = document.activeElement;
      if (event.shiftKey && (active === firstFocusable || active === panel)) {
        event.preventDefault();
        lastFocusable.focus();
      } else if (!event.shiftKey && active === lastFocusable) {
        event.preventDefault();
        firstFocusable.focus();
      }
    };
    document.addEventListener('keydown', handleKeyDown);
    return () => {
      document.removeEventListener('keydown', handleKeyDown);
      previous?.focus();
    };
  }, [open, panelRef, initialFocus]);
}
