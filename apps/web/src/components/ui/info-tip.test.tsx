import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';

import { InfoTip } from './info-tip';

describe('InfoTip', () => {
  it('is described by its text and shows it on focus until Escape', async () => {
    const user = userEvent.setup();
    render(<InfoTip label="What Learners means">Different people counted once.</InfoTip>);
    const button = screen.getByRole('button', { name: 'What Learners means' });
    expect(button).toHaveAccessibleDescription('Different people counted once.');
    expect(screen.queryByRole('tooltip')).not.toBeInTheDocument();
    await user.tab();
    expect(screen.getByRole('tooltip')).toHaveTextContent('Different people counted once.');
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('tooltip')).not.toBeInTheDocument();
  });
});
