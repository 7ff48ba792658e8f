import { useEffect, useRef, type RefObject } from 'react';

/**
 * Calls `onOutside` when a pointer press or a touch lands outside the element
 * behind `ref` (menus, popovers, the mobile sidebar). Pass `enabled: false` to
 * stop listening while the element is closed.
 */
export function useClickOutside<T extends HTMLElement>(
  ref: RefObject<T | null>,
  onOutside: (event: PointerEvent | TouchEvent) => void,
  enabled = true,
): void {
  const handlerRef = useRef(onOutside);
  useEffect(() => {
    handlerRef.current = onOutside;
  }, [onOutside]);

  useEffect(() => {
    if (!enabled) return;
    const handleEvent = (event: PointerEvent | TouchEvent) => {
      const element = ref.current;
      if (!element || !(event.target instanceof Node) || element.contains(event.target)) return;
      handlerRef.current(event);
    };
    document.addEventListener('pointerdown', handleEvent);
    document.addEventListener('touchstart', handleEvent);
    return () => {
      document.removeEventListener('pointerdown', handleEvent);
      document.removeEventListener('touchstart', handleEvent);
    };
  }, [ref, enabled]);
}
