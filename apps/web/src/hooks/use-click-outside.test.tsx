import { fireEvent, render, screen } from '@testing-library/react';
import { useRef } from 'react';
import { describe, expect, it, vi } from 'vitest';

import { useClickOutside } from './use-click-outside';

function Box({ onOutside, enabled }: { onOutside: () => void; enabled?: boolean }) {
  const ref = useRef<HTMLDivElement>(null);
  useClickOutside(ref, onOutside, enabled);
  return (
    <div>
      <div ref={ref}>
        inside <button type="button">inner</button>
      </div>
      <button type="button">outside</button>
    </div>
  );
}

describe('useClickOutside', () => {
  it('fires for a press outside the element only', () => {
    const onOutside = vi.fn();
    render(<Box onOutside={onOutside} />);
    fireEvent.pointerDown(screen.getByRole('button', { name: 'inner' }));
    fireEvent.pointerDown(screen.getByText(/inside/));
    expect(onOutside).not.toHaveBeenCalled();
    fireEvent.pointerDown(screen.getByRole('button', { name: 'outside' }));
    expect(onOutside).toHaveBeenCalledTimes(1);
    fireEvent.touchStart(document.body);
    expect(onOutside).toHaveBeenCalledTimes(2);
  });

  it('does nothing while disabled, and stops after unmount', () => {
    const onOutside = vi.fn();
    const { rerender, unmount } = render(<Box onOutside={onOutside} enabled={false} />);
    fireEvent.pointerDown(document.body);
    expect(onOutside).not.toHaveBeenCalled();
    rerender(<Box onOutside={onOutside} enabled />);
    fireEvent.pointerDown(document.body);
    expect(onOutside).toHaveBeenCalledTimes(1);
    unmount();
    fireEvent.pointerDown(document.body);
    expect(onOutside).toHaveBeenCalledTimes(1);
  });
});
