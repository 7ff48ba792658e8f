import { DEFAULT_CHATBOT_COLOR } from '@courselens/contracts';
import { describe, expect, it } from 'vitest';

import { agentColor, textColorOn } from './color';

describe('agentColor', () => {
  it('keeps a whole #rrggbb, in lower case', () => {
    expect(agentColor('#0EA5E9')).toBe('#0ea5e9');
    expect(agentColor(' #112233 ')).toBe('#112233');
  });

  it('falls back to the default for anything else', () => {
    for (const color of [null, undefined, '', '#12', '#12345', 'red', '#ggg000', 'url(x)']) {
      expect(agentColor(color)).toBe(DEFAULT_CHATBOT_COLOR);
    }
  });
});

describe('textColorOn', () => {
  it('writes white on dark and saturated colours', () => {
    expect(textColorOn('#000000')).toBe('#ffffff');
    expect(textColorOn('#4f46e5')).toBe('#ffffff');
    expect(textColorOn('#be123c')).toBe('#ffffff');
  });

  it('writes near-black on pale colours', () => {
    expect(textColorOn('#ffffff')).toBe('#0f172a');
    expect(textColorOn('#fde68a')).toBe('#0f172a');
    expect(textColorOn('#22d3ee')).toBe('#0f172a');
  });

  it('reads a colour it cannot parse as the default', () => {
    expect(textColorOn('not a colour')).toBe(textColorOn(DEFAULT_CHATBOT_COLOR));
  });
});
