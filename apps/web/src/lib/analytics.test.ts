import { afterEach, describe, expect, it, vi } from 'vitest';

import {
  AUTOCAPTURE_SELECTOR,
  initAnalytics,
  resetAnalyticsForTests,
  touchesPasswordElement,
} from './analytics';

describe('touchesPasswordElement', () => {
  it('finds "password" in a class or a name anywhere in the element chain', () => {
    expect(
      touchesPasswordElement({ $elements: [{ tag_name: 'button', classes: ['toggle-password'] }] }),
    ).toBe(true);
    expect(touchesPasswordElement({ $elements: [{ tag_name: 'input', attr__name: 'new_Password' }] })).toBe(
      true,
    );
    expect(
      touchesPasswordElement({
        $elements: [{ tag_name: 'span' }, { tag_name: 'div', attr__class: 'PasswordField' }],
      }),
    ).toBe(true);
    expect(
      touchesPasswordElement({
        $elements_chain: 'button.show-password:attr__data-analytics="x"nth-child="1"',
      }),
    ).toBe(true);
    expect(touchesPasswordElement({ $elements_chain: 'input:attr__name="user_password"' })).toBe(true);
  });

  it('lets ordinary elements through', () => {
    expect(
      touchesPasswordElement({ $elements: [{ tag_name: 'button', classes: ['btn'], attr__name: 'save' }] }),
    ).toBe(false);
    expect(touchesPasswordElement({ $elements_chain: 'button.btn:attr__data-analytics="save"' })).toBe(false);
    expect(touchesPasswordElement(undefined)).toBe(false);
  });
});

describe('AUTOCAPTURE_SELECTOR', () => {
  it('matches allow-listed elements only, never password-like ones', () => {
    document.body.innerHTML = `
      <button id="ok" data-analytics="save" class="btn">Save</button>
      <button id="plain" class="btn">Plain</button>
      <button id="cls" data-analytics="show" class="toggle-PASSWORD">Show</button>
      <input id="name" data-analytics="pw" name="new_password" />`;
    const matched = [...document.querySelectorAll(AUTOCAPTURE_SELECTOR)].map((element) => element.id);
    expect(matched).toEqual(['ok']);
  });
});

describe('initAnalytics', () => {
  afterEach(() => resetAnalyticsForTests());

  it('loads nothing and sends nothing without a key', async () => {
    const fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
    initAnalytics({ key: undefined, host: 'http://127.0.0.1:9' });
    initAnalytics({ key: '', host: undefined });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
