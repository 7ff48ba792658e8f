import { fireEvent, render } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';

import { shortcutFor, useEditorShortcuts, type ShortcutEvent } from './shortcuts';

function key(key: string, options: Partial<ShortcutEvent> = {}): ShortcutEvent {
  return {
    key,
    ctrlKey: false,
    metaKey: false,
    shiftKey: false,
    altKey: false,
    target: document.body,
    ...options,
  };
}

describe('shortcutFor', () => {
  it('reads Ctrl and Cmd alike for undo, redo and save', () => {
    expect(shortcutFor(key('z', { ctrlKey: true }))).toBe('undo');
    expect(shortcutFor(key('z', { metaKey: true }))).toBe('undo');
    expect(shortcutFor(key('Z', { ctrlKey: true, shiftKey: true }))).toBe('redo');
    expect(shortcutFor(key('z', { metaKey: true, shiftKey: true }))).toBe('redo');
    expect(shortcutFor(key('y', { ctrlKey: true }))).toBe('redo');
    expect(shortcutFor(key('s', { ctrlKey: true }))).toBe('save');
    expect(shortcutFor(key('s', { metaKey: true }))).toBe('save');
  });

  it('removes the selection with Delete or Backspace, but not while typing', () => {
    expect(shortcutFor(key('Delete'))).toBe('delete');
    expect(shortcutFor(key('Backspace'))).toBe('delete');
    const input = document.createElement('input');
    expect(shortcutFor(key('Backspace', { target: input }))).toBeNull();
    expect(shortcutFor(key('Delete', { target: document.createElement('textarea') }))).toBeNull();
    const checkbox = document.createElement('input');
    checkbox.type = 'checkbox';
    expect(shortcutFor(key('Delete', { target: checkbox }))).toBe('delete');
  });

  it('leaves plain keys, Alt combinations and keys pressed in a dialog alone', () => {
    expect(shortcutFor(key('z'))).toBeNull();
    expect(shortcutFor(key('s'))).toBeNull();
    expect(shortcutFor(key('z', { ctrlKey: true, altKey: true }))).toBeNull();
    const dialog = document.createElement('div');
    dialog.setAttribute('role', 'dialog');
    const button = document.createElement('button');
    dialog.append(button);
    expect(shortcutFor(key('s', { ctrlKey: true, target: button }))).toBeNull();
    expect(shortcutFor(key('Delete', { target: button }))).toBeNull();
  });
});

function Harness({
  handlers,
  isEnabled,
}: {
  handlers: Parameters<typeof useEditorShortcuts>[0];
  isEnabled: boolean;
}) {
  useEditorShortcuts(handlers, isEnabled);
  return <input aria-label="Name" />;
}

describe('useEditorShortcuts', () => {
  it('calls the handler and keeps the browser from acting (Ctrl+S does not save the page)', () => {
    const handlers = { undo: vi.fn(), redo: vi.fn(), save: vi.fn(), delete: vi.fn() };
    render(<Harness handlers={handlers} isEnabled />);
    const event = new KeyboardEvent('keydown', { key: 's', ctrlKey: true, cancelable: true, bubbles: true });
    window.dispatchEvent(event);
    expect(handlers.save).toHaveBeenCalledTimes(1);
    expect(event.defaultPrevented).toBe(true);
    fireEvent.keyDown(document.body, { key: 'Delete' });
    expect(handlers.delete).toHaveBeenCalledTimes(1);
  });

  it('listens to nothing while disabled (the Runs tab)', () => {
    const handlers = { undo: vi.fn(), redo: vi.fn(), save: vi.fn(), delete: vi.fn() };
    render(<Harness handlers={handlers} isEnabled={false} />);
    fireEvent.keyDown(document.body, { key: 'z', ctrlKey: true });
    expect(handlers.undo).not.toHaveBeenCalled();
  });
});
