import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';

import { Button, buttonClassName } from './button';

describe('Button', () => {
  it('is a non-submitting button by default and calls onClick', async () => {
    const handleClick = vi.fn();
    render(<Button onClick={handleClick}>Save</Button>);

    const button = screen.getByRole('button', { name: 'Save' });
    expect(button).toHaveAttribute('type', 'button');
    await userEvent.click(button);
    expect(handleClick).toHaveBeenCalledTimes(1);
  });

  it('is disabled and announced busy while loading', async () => {
    const handleClick = vi.fn();
    render(
      <Button isLoading onClick={handleClick}>
        Save
      </Button>,
    );

    const button = screen.getByRole('button', { name: 'Save' });
    expect(button).toBeDisabled();
    expect(button).toHaveAttribute('aria-busy', 'true');
    await userEvent.click(button);
    expect(handleClick).not.toHaveBeenCalled();
  });

  it("lets the caller's classes override the defaults", () => {
    expect(buttonClassName({ size: 'sm', className: 'px-8' })).toContain('px-8');
    expect(buttonClassName({ size: 'sm', className: 'px-8' })).not.toContain('px-3');
  });
});
