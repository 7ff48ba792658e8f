import { DEFAULT_CHATBOT_COLOR } from '@courselens/contracts';
import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { AgentAvatar, avatarText } from './agent-avatar';

describe('avatarText', () => {
  it('prefers the avatar, else the first character of the name in capitals', () => {
    expect(avatarText(' 🧭 ', 'Coach')).toBe('🧭');
    expect(avatarText(null, '  onboarding coach')).toBe('O');
    expect(avatarText('', '🦊 Fox')).toBe('🦊');
    expect(avatarText(undefined, '   ')).toBe('?');
  });
});

describe('AgentAvatar', () => {
  it('draws the text in the agent’s colour with a readable text colour, hidden from screen readers', () => {
    const { container } = render(<AgentAvatar name="Coach" color="#FDE68A" avatar={null} />);
    const avatar = container.firstElementChild;
    expect(avatar).toHaveAttribute('aria-hidden', 'true');
    expect(avatar).toHaveTextContent('C');
    expect(avatar).toHaveStyle({ backgroundColor: '#fde68a', color: '#0f172a' });
  });

  it('shows the default colour for one it cannot read', () => {
    const { container } = render(<AgentAvatar name="Coach" color="blue-ish" avatar="AB" size="sm" />);
    expect(container.firstElementChild).toHaveStyle({
      backgroundColor: DEFAULT_CHATBOT_COLOR,
      color: '#ffffff',
    });
  });
});
