import { PIPELINE_NODE_DESCRIPTIONS } from '@courselens/contracts';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';

import { NodePalette } from './node-palette';

describe('NodePalette', () => {
  it('offers the chatbot source like the other sources: click or drag it in', async () => {
    const user = userEvent.setup();
    const onAdd = vi.fn();
    render(<NodePalette onAdd={onAdd} addHint={null} isDraggable />);
    const chatbot = screen.getByRole('button', { name: 'Add Chatbot events' });
    expect(chatbot).toBeEnabled();
    expect(chatbot).toHaveAttribute('draggable', 'true');
    expect(chatbot).toHaveAccessibleDescription(PIPELINE_NODE_DESCRIPTIONS.chatbot);
    await user.click(chatbot);
    expect(onAdd).toHaveBeenCalledWith('chatbot');
    // Every node type can be added.
    for (const button of screen.getAllByRole('button')) expect(button).toBeEnabled();
  });
});
