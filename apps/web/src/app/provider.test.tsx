import { act, render, screen } from '@testing-library/react';
import { createRef } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { toast } from '@/lib/toast';

import { AppProvider, SettlingBounce } from './provider';

describe('AppProvider toasts', () => {
  it('shows toasts top-right with a close button and a progress bar', async () => {
    render(<AppProvider>content</AppProvider>);

    act(() => {
      toast.success('Report saved');
    });

    const message = await screen.findByText('Report saved');
    const toastElement = message.closest('.Toastify__toast');
    expect(toastElement).not.toBeNull();
    expect(toastElement?.closest('.Toastify__toast-container')).toHaveClass(
      'Toastify__toast-container--top-right',
    );
    expect(toastElement?.querySelector('button[aria-label="close"]')).not.toBeNull();
    expect(toastElement?.querySelector('[role="progressbar"]')).not.toBeNull();
    // The progress bar runs for the spec's 3000 ms.
    expect(toastElement?.querySelector<HTMLElement>('[role="progressbar"]')?.style.animationDuration).toBe(
      '3000ms',
    );
    expect(toastElement?.querySelector('.Toastify__toast-icon')).not.toBeNull();
  });
});

describe('the toast entrance', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  function enter() {
    const nodeRef = createRef<HTMLDivElement>();
    const playToast = vi.fn();
    render(
      <SettlingBounce
        isIn
        done={() => {}}
        position="top-right"
        preventExitTransition={false}
        nodeRef={nodeRef}
        playToast={playToast}
      >
        <div ref={nodeRef}>Saved</div>
      </SettlingBounce>,
    );
    const node = nodeRef.current!;
    return {
      playToast,
      node,
      finish: () => act(() => void node.dispatchEvent(new Event('animationend'))),
    };
  }

  it('starts the timer when it ends in a focused window without the pointer on the toast', () => {
    vi.spyOn(document, 'hasFocus').mockReturnValue(true);
    const { playToast, finish } = enter();
    finish();
    expect(playToast).toHaveBeenCalledTimes(1);
  });

  it('leaves the toast paused when the window lost focus during the entrance', () => {
    vi.spyOn(document, 'hasFocus').mockReturnValue(false);
    const { playToast, finish } = enter();
    finish();
    expect(playToast).not.toHaveBeenCalled();
  });

  it('leaves the toast paused when the pointer is on it as the entrance ends', () => {
    vi.spyOn(document, 'hasFocus').mockReturnValue(true);
    const { playToast, node, finish } = enter();
    const matches = node.matches.bind(node);
    vi.spyOn(node, 'matches').mockImplementation((selector) => selector === ':hover' || matches(selector));
    finish();
    expect(playToast).not.toHaveBeenCalled();
  });
});
