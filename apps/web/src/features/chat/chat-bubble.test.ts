import { afterEach, describe, expect, it, vi } from 'vitest';

import source from '../../../public/chat-bubble.js?raw';

import { CHAT_CLOSE_MESSAGE } from './utils/embed';

const AGENT = '22222222-2222-4222-8222-222222222222';

/** Runs public/chat-bubble.js as a course page would load it, from a script tag on another origin. */
function loadBubble(attributes: Record<string, string>) {
  const script = document.createElement('script');
  script.setAttribute('src', 'https://app.courselens.test/chat-bubble.js');
  for (const [name, value] of Object.entries(attributes)) script.setAttribute(name, value);
  document.head.appendChild(script);
  Object.defineProperty(document, 'currentScript', { value: script, configurable: true });
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- the test runs the public script as the browser would
  (new Function(source) as () => void)();
  Reflect.deleteProperty(document, 'currentScript');
}

function globalNames(): Set<string> {
  return new Set(Object.getOwnPropertyNames(window));
}

afterEach(() => {
  document.head.innerHTML = '';
  document.body.innerHTML = '';
});

describe('chat-bubble.js', () => {
  it('adds a 56 px round button that opens the chat of the agent in a frame, and leaks no global', () => {
    const before = globalNames();
    loadBubble({ 'data-chatbot': AGENT, 'data-email': 'ada@example.com', 'data-name': 'Ada L' });
    expect([...globalNames()].filter((name) => !before.has(name))).toEqual([]);

    const button = document.querySelector<HTMLButtonElement>('button[aria-label="Open chat"]')!;
    expect(button).not.toBeNull();
    expect(button.style.width).toBe('56px');
    expect(button.style.borderRadius).toBe('50%');
    expect(button.style.position).toBe('fixed');
    expect(button).toHaveAttribute('aria-expanded', 'false');
    // The frame is made on the first open only.
    expect(document.querySelector('iframe')).toBeNull();

    button.click();
    const frame = document.querySelector('iframe')!;
    const url = new URL(frame.src);
    expect(url.origin).toBe('https://app.courselens.test');
    expect(url.pathname).toBe(`/chat/${AGENT}`);
    expect(url.searchParams.get('email')).toBe('ada@example.com');
    expect(url.searchParams.get('name')).toBe('Ada L');
    expect(url.searchParams.get('embed')).toBe('1');
    const panel = frame.parentElement!;
    expect(panel.style.display).toBe('flex');
    expect(panel.style.width).toBe('380px');
    expect(panel.style.height).toBe('600px');
    expect(button).toHaveAttribute('aria-expanded', 'true');
    expect(button).toHaveAttribute('aria-label', 'Close chat');

    button.click();
    expect(panel.style.display).toBe('none');
    expect(button).toHaveAttribute('aria-label', 'Open chat');
  });

  it('closes on Escape, on the course page or forwarded by the chat in the frame', () => {
    loadBubble({ 'data-chatbot': AGENT, 'data-email': 'LEARNER_EMAIL' });
    const button = document.querySelector<HTMLButtonElement>('button[aria-label="Open chat"]')!;
    button.click();
    const frame = document.querySelector('iframe')!;
    // An unfilled placeholder is not sent as an address: the chat page will ask.
    expect(new URL(frame.src).searchParams.has('email')).toBe(false);

    document.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape' }));
    expect(frame.parentElement!.style.display).toBe('none');
    expect(button).toHaveFocus();

    button.click();
    window.dispatchEvent(
      new MessageEvent('message', {
        data: { type: CHAT_CLOSE_MESSAGE },
        origin: 'https://elsewhere.test',
        source: frame.contentWindow,
      }),
    );
    expect(frame.parentElement!.style.display).toBe('flex');
    window.dispatchEvent(
      new MessageEvent('message', {
        data: { type: CHAT_CLOSE_MESSAGE },
        origin: 'https://app.courselens.test',
        source: frame.contentWindow,
      }),
    );
    expect(frame.parentElement!.style.display).toBe('none');
  });

  it('fills the screen below 480 px wide, with its own close button', () => {
    vi.stubGlobal(
      'matchMedia',
      vi.fn(() => ({ matches: true, addEventListener: vi.fn(), removeEventListener: vi.fn() })),
    );
    loadBubble({ 'data-chatbot': AGENT });
    const button = document.querySelector<HTMLButtonElement>('button[aria-label="Open chat"]')!;
    button.click();
    const panel = document.querySelector('iframe')!.parentElement!;
    expect(panel.style.width).toBe('100%');
    expect(panel.style.height).toBe('100%');
    expect(button.style.display).toBe('none');
    const close = [...panel.querySelectorAll('button')].find(
      (element) => element.getAttribute('aria-label') === 'Close chat',
    )!;
    close.click();
    expect(panel.style.display).toBe('none');
    expect(button.style.display).toBe('flex');
  });

  it('makes one bubble when the tag is included twice', () => {
    loadBubble({ 'data-chatbot': AGENT });
    loadBubble({ 'data-chatbot': AGENT });
    expect(document.querySelectorAll('button[aria-label="Open chat"]')).toHaveLength(1);
  });
});
