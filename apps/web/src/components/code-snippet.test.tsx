import { fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { toast } from '@/lib/toast';

import { CodeSnippet } from './code-snippet';

vi.mock('@/lib/toast', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));

function stubClipboard(writeText: (text: string) => Promise<void>) {
  Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
}

afterEach(() => {
  Reflect.deleteProperty(navigator, 'clipboard');
  vi.clearAllMocks();
});

describe('CodeSnippet', () => {
  it('shows the code as a named, focusable region and copies it whole', async () => {
    const writeText = vi.fn(() => Promise.resolve());
    stubClipboard(writeText);
    render(<CodeSnippet label="Tracker snippet" code={'<script src="/t.js"></script>'} />);

    const code = screen.getByLabelText('Tracker snippet');
    expect(code).toHaveTextContent('<script src="/t.js"></script>');
    expect(code).toHaveAttribute('tabindex', '0');
    expect(code).not.toHaveClass('whitespace-pre-wrap');

    fireEvent.click(screen.getByRole('button', { name: 'Copy tracker snippet' }));

    expect(await screen.findByText('Copied')).toBeInTheDocument();
    expect(writeText).toHaveBeenCalledWith('<script src="/t.js"></script>');
    expect(toast.success).toHaveBeenCalledWith('Tracker snippet copied to the clipboard');
  });

  it('says how to copy by hand when the clipboard refuses', async () => {
    stubClipboard(() => Promise.reject(new Error('denied')));
    render(<CodeSnippet label="Chat bubble snippet" code="<script></script>" wrap />);
    expect(screen.getByLabelText('Chat bubble snippet')).toHaveClass('whitespace-pre-wrap');

    fireEvent.click(screen.getByRole('button', { name: 'Copy chat bubble snippet' }));

    await vi.waitFor(() =>
      expect(toast.error).toHaveBeenCalledWith('Could not copy. Select the code and copy it by hand.'),
    );
    expect(screen.queryByText('Copied')).not.toBeInTheDocument();
  });
});
