import { Moon, Sun } from 'lucide-react';

import { useTheme } from '@/lib/theme';

import { Button } from './ui/button';

export type ThemeToggleProps = {
  className?: string;
};

/** Switches between light and dark and remembers the choice (localStorage `theme`). */
export function ThemeToggle({ className }: ThemeToggleProps) {
  const { theme, toggleTheme } = useTheme();
  const nextTheme = theme === 'dark' ? 'light' : 'dark';
  return (
    <Button
      variant="ghost"
      size="icon"
      className={className}
      onClick={toggleTheme}
      aria-label={`Switch to ${nextTheme} theme`}
      title={`Switch to ${nextTheme} theme`}
    >
      {theme === 'dark' ? <Sun aria-hidden="true" /> : <Moon aria-hidden="true" />}
    </Button>
  );
}
