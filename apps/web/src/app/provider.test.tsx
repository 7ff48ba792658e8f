import { act, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { toast } from '@/lib/toast';

import { AppProvider } from './provider';

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
