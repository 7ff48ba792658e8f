import { useCallback, useSyncExternalStore } from 'react';

/**
 * Light and dark theme. The visitor's explicit choice is kept in localStorage
 * under `theme`; without one the system preference applies and is followed
 * live. public/theme-init.js applies the same rule before the first paint,
 * this module keeps it right afterwards.
 */
export type Theme = 'light' | 'dark';

export const THEME_STORAGE_KEY = 'theme';
const DARK_QUERY = '(prefers-color-scheme: dark)';

export function isTheme(value: unknown): value is Theme {
  return value === 'light' || value === 'dark';
}

export function getStoredTheme(): Theme | null {
  try {
    const stored = window.localStorage.getItem(THEME_STORAGE_KEY);
    return isTheme(stored) ? stored : null;
  } catch {
    return null;
  }
}

export function getSystemTheme(): Theme {
  if (typeof window.matchMedia !== 'function') return 'light';
  return window.matchMedia(DARK_QUERY).matches ? 'dark' : 'light';
}

export function resolveTheme(): Theme {
  return getStoredTheme() ?? getSystemTheme();
}

export function applyTheme(theme: Theme): void {
  const root = document.documentElement;
  root.classList.toggle('dark', theme === 'dark');
  root.style.colorScheme = theme;
}

const listeners = new Set<() => void>();

function notify(): void {
  for (const listener of listeners) listener();
}

/** Stores the visitor's choice and applies it at once. */
export function setTheme(theme: Theme): void {
  try {
    window.localStorage.setItem(THEME_STORAGE_KEY, theme);
  } catch {
    // Storage blocked: the choice still applies to this page.
  }
  applyTheme(theme);
  notify();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  const handleSystemChange = () => {
    if (getStoredTheme() === null) applyTheme(getSystemTheme());
    listener();
  };
  const handleStorage = (event: StorageEvent) => {
    if (event.key !== THEME_STORAGE_KEY && event.key !== null) return;
    applyTheme(resolveTheme());
    listener();
  };
  const media = typeof window.matchMedia === 'function' ? window.matchMedia(DARK_QUERY) : null;
  media?.addEventListener('change', handleSystemChange);
  window.addEventListener('storage', handleStorage);
  return () => {
    listeners.delete(listener);
    media?.removeEventListener('change', handleSystemChange);
    window.removeEventListener('storage', handleStorage);
  };
}

/** The theme in effect, and setters that persist the visitor's choice. */
export function useTheme(): {
  theme: Theme;
  setTheme: (theme: Theme) => void;
  toggleTheme: () => void;
} {
  const theme = useSyncExternalStore(subscribe, resolveTheme, () => 'light' as const);
  const toggleTheme = useCallback(() => setTheme(resolveTheme() === 'dark' ? 'light' : 'dark'), []);
  return { theme, setTheme, toggleTheme };
}
