import { act, renderHook } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';

import { THEME_STORAGE_KEY, resolveTheme, setTheme, useTheme } from './theme';

function stubSystemTheme(theme: 'light' | 'dark') {
  const listeners = new Set<() => void>();
  const media = {
    matches: theme === 'dark',
    addEventListener: (_type: string, listener: () => void) => listeners.add(listener),
    removeEventListener: (_type: string, listener: () => void) => listeners.delete(listener),
  };
  vi.stubGlobal('matchMedia', (query: string) => {
    expect(query).toBe('(prefers-color-scheme: dark)');
    return media;
  });
  return {
    change(next: 'light' | 'dark') {
      media.matches = next === 'dark';
      for (const listener of listeners) listener();
    },
  };
}

describe('theme', () => {
  it('follows the system preference when the visitor has not chosen', () => {
    stubSystemTheme('dark');
    expect(resolveTheme()).toBe('dark');
  });

  it("prefers the visitor's stored choice over the system", () => {
    stubSystemTheme('dark');
    window.localStorage.setItem(THEME_STORAGE_KEY, 'light');
    expect(resolveTheme()).toBe('light');
  });

  it('ignores a stored value that is not a theme', () => {
    stubSystemTheme('dark');
    window.localStorage.setItem(THEME_STORAGE_KEY, 'sepia');
    expect(resolveTheme()).toBe('dark');
  });

  it('stores the choice and toggles the dark class on <html>', () => {
    stubSystemTheme('light');
    setTheme('dark');
    expect(window.localStorage.getItem(THEME_STORAGE_KEY)).toBe('dark');
    expect(document.documentElement).toHaveClass('dark');
    setTheme('light');
    expect(document.documentElement).not.toHaveClass('dark');
  });

  it('useTheme toggles, and follows live system changes until a choice is made', () => {
    const system = stubSystemTheme('light');
    const { result } = renderHook(() => useTheme());
    expect(result.current.theme).toBe('light');

    act(() => system.change('dark'));
    expect(result.current.theme).toBe('dark');
    expect(document.documentElement).toHaveClass('dark');

    act(() => result.current.toggleTheme());
    expect(result.current.theme).toBe('light');
    expect(window.localStorage.getItem(THEME_STORAGE_KEY)).toBe('light');

    act(() => system.change('dark'));
    expect(result.current.theme).toBe('light');
  });
});
