import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';

import { Combobox, type ComboboxOption } from './combobox';

const options: ComboboxOption[] = [
  { value: 's1', label: 'Final score', hint: 'number', group: 'Safety' },
  { value: 's2', label: 'Passed', hint: 'boolean', group: 'Safety' },
  { value: 'o1', label: 'Final score', hint: 'number', group: 'Onboarding', disabled: true },
  { value: 'o2', label: 'Department', group: 'Onboarding' },
];

function Picker({ initial = null }: { initial?: string | null }) {
  const [value, setValue] = useState<string | null>(initial);
  return (
    <>
      <Combobox label="Variable" value={value} options={options} onChange={setValue} />
      <output>{value ?? 'none'}</output>
    </>
  );
}

describe('Combobox', () => {
  it('filters as you type, lists options under their groups and picks with the keyboard', async () => {
    const user = userEvent.setup();
    render(<Picker />);
    const input = screen.getByRole('combobox', { name: 'Variable' });
    await user.click(input);
    const list = screen.getByRole('listbox', { name: 'Variable' });
    expect(
      within(list)
        .getAllByRole('group')
        .map((group) => group.getAttribute('aria-labelledby')),
    ).toHaveLength(2);
    expect(
      within(within(list).getByRole('group', { name: 'Onboarding' })).getAllByRole('option'),
    ).toHaveLength(2);

    await user.type(input, 'dep');
    expect(
      within(list)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['Department']);
    await user.keyboard('{Enter}');
    expect(screen.getByRole('status')).toHaveTextContent('o2');
    expect(input).toHaveValue('Department');
    expect(input).toHaveAttribute('aria-expanded', 'false');
  });

  it('skips disabled options with the arrows and restores the choice on Escape', async () => {
    const user = userEvent.setup();
    render(<Picker initial="s2" />);
    const input = screen.getByRole('combobox', { name: 'Variable' });
    await user.click(input);
    expect(screen.getByRole('option', { name: /Passed/ })).toHaveAttribute('aria-selected', 'true');
    await user.keyboard('{ArrowDown}');
    // The disabled Final score of Onboarding is skipped.
    expect(input).toHaveAttribute(
      'aria-activedescendant',
      screen.getByRole('option', { name: 'Department' }).id,
    );
    await user.type(input, 'zzz');
    expect(screen.getByText('Nothing matches')).toBeInTheDocument();
    await user.keyboard('{Escape}');
    expect(input).toHaveValue('Passed');
    expect(screen.getByRole('status')).toHaveTextContent('s2');
  });
});
