import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';

import { ShareControl } from './share-control';

describe('ShareControl', () => {
  it('switches sharing and, while on, shows the link, its views and a new-link button', () => {
    const onToggle = vi.fn();
    const onRotate = vi.fn();
    const { rerender } = render(
      <ShareControl
        subject="this question"
        enabled={false}
        link={null}
        viewCount={0}
        onToggle={onToggle}
        onRotate={onRotate}
      />,
    );
    const open = screen.getByRole('button', { name: 'Share' });
    expect(open).toHaveAttribute('aria-expanded', 'false');
    fireEvent.click(open);
    expect(screen.getByText('Sharing is off: the link shows “This view is not shared”.')).toBeInTheDocument();
    const toggle = screen.getByRole('switch', { name: 'Share this question' });
    expect(toggle).toHaveAttribute('aria-checked', 'false');
    fireEvent.click(toggle);
    expect(onToggle).toHaveBeenCalledWith(true);

    rerender(
      <ShareControl
        subject="this question"
        enabled
        link="https://app.example/shared/questions/q/leaders?token=abc"
        viewCount={3}
        onToggle={onToggle}
        onRotate={onRotate}
      />,
    );
    expect(screen.getByRole('button', { name: 'Share · on' })).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Share link' })).toHaveValue(
      'https://app.example/shared/questions/q/leaders?token=abc',
    );
    expect(screen.getByText('3 views')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'New link' }));
    expect(onRotate).toHaveBeenCalledTimes(1);
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(screen.queryByRole('group', { name: 'Sharing' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Share · on' })).toHaveFocus();
  });

  it('lets someone who may not share see the link and copy it, with the switch disabled and the reason', () => {
    const onToggle = vi.fn();
    const onRotate = vi.fn();
    render(
      <ShareControl
        subject="this question"
        enabled
        link="https://app.example/shared/questions/q/report?token=abc"
        viewCount={1}
        onToggle={onToggle}
        onRotate={onRotate}
        disabledReason="Only owners can share reports and views publicly"
      />,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Share · on' }));
    const toggle = screen.getByRole('switch', { name: 'Share this question' });
    expect(toggle).toBeDisabled();
    expect(toggle).toHaveAccessibleDescription('Only owners can share reports and views publicly.');
    fireEvent.click(toggle);
    expect(onToggle).not.toHaveBeenCalled();
    expect(screen.getByRole('textbox', { name: 'Share link' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Copy link' })).toBeEnabled();
    expect(screen.queryByRole('button', { name: 'New link' })).not.toBeInTheDocument();
  });
});
