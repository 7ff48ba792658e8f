import { useEffect, useRef } from 'react';

/**
 * The editor's keyboard shortcuts. Ctrl (Cmd on a Mac) + Z undoes,
 * Ctrl/Cmd + Shift + Z or Ctrl + Y redoes, Ctrl/Cmd + S saves, Delete or
 * Backspace removes the selected nodes and connections. Delete is left to
 * text fields while one has focus, and dialogs over the editor keep every
 * key to themselves.
 */
export type EditorShortcut = 'undo' | 'redo' | 'save' | 'delete';

export type ShortcutEvent = Pick<
  KeyboardEvent,
  'key' | 'ctrlKey' | 'metaKey' | 'shiftKey' | 'altKey' | 'target'
>;

function isEditable(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  if (target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  if (target instanceof HTMLInputElement) {
    return !['checkbox', 'radio', 'button', 'submit', 'reset', 'range', 'color'].includes(target.type);
  }
  return false;
}

function isInDialog(target: EventTarget | null): boolean {
  return target instanceof Element && target.closest('[role="dialog"], [role="alertdialog"]') !== null;
}

/** The shortcut a key press means in the editor, or null. */
export function shortcutFor(event: ShortcutEvent): EditorShortcut | null {
  if (event.altKey || isInDialog(event.target)) return null;
  const key = event.key.toLowerCase();
  const withCommand = event.ctrlKey || event.metaKey;
  if (withCommand) {
    if (key === 's') return 'save';
    if (key === 'z') return event.shiftKey ? 'redo' : 'undo';
    if (key === 'y' && event.ctrlKey && !event.shiftKey) return 'redo';
    return null;
  }
  if ((key === 'delete' || key === 'backspace') && !event.shiftKey && !isEditable(event.target))
    return 'delete';
  return null;
}

export type ShortcutHandlers = Record<EditorShortcut, () => void>;

/** Listens on the window while `isEnabled`; the handlers may change every render. */
export function useEditorShortcuts(handlers: ShortcutHandlers, isEnabled: boolean): void {
  const handlersRef = useRef(handlers);
  useEffect(() => {
    handlersRef.current = handlers;
  });
  useEffect(() => {
    if (!isEnabled) return;
    const handleKeyDown = (event: KeyboardEvent) => {
      const shortcut = shortcutFor(event);
      if (!shortcut) return;
      event.preventDefault();
      handlersRef.current[shortcut]();
    };
    window.addEventListener('keydown', handleKeyDown);
    return () => window.removeEventListener('keydown', handleKeyDown);
  }, [isEnabled]);
}
