import { cn } from '@/lib/cn';

/** Relative luminance of a `#rrggbb` colour (WCAG 2), or null when it is not one. */
function luminance(hex: string): number | null {
  const match = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex.trim());
  if (!match) return null;
  const [r, g, b] = match.slice(1).map((part) => {
    const channel = parseInt(part, 16) / 255;
    return channel <= 0.03928 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/**
 * White or near-black, whichever reads better on `background`: an author may
 * pick any colour, and a pale one with white text would be unreadable.
 */
export function textColorOn(background: string): '#ffffff' | '#0f172a' {
  const value = luminance(background);
  if (value === null) return '#ffffff';
  // Contrast with white (1.05 / (L + 0.05)) against contrast with slate-900 (L + 0.05) / 0.0611.
  return 1.05 / (value + 0.05) >= (value + 0.05) / 0.0611 ? '#ffffff' : '#0f172a';
}

/** A colour the form may still be typing: the default stands in until it is a whole `#rrggbb`. */
export function displayColor(color: string, fallback: string): string {
  return luminance(color) === null ? fallback : color;
}

/** The avatar's text, else the name's first character (a whole one, emoji included), as the chat page shows it. */
export function avatarText(avatar: string | null | undefined, name: string): string {
  const text = avatar?.trim();
  if (text) return text;
  const [first = '?'] = Array.from(name.trim());
  return first.toLocaleUpperCase();
}

export type AgentAvatarProps = {
  name: string;
  color: string;
  avatar: string | null | undefined;
  size?: 'sm' | 'md' | 'lg';
  className?: string;
};

const sizes = { sm: 'size-8 text-sm', md: 'size-10 text-base', lg: 'size-12 text-lg' } as const;

/** The round bubble that stands for an agent, in its colour (decorative: the name is always written beside it). */
export function AgentAvatar({ name, color, avatar, size = 'md', className }: AgentAvatarProps) {
  const text = avatarText(avatar, name);
  return (
    <span
      aria-hidden="true"
      className={cn(
        'inline-flex shrink-0 items-center justify-center overflow-hidden rounded-full font-semibold leading-none shadow-sm ring-1 ring-black/5 select-none dark:ring-white/10',
        sizes[size],
        // Initials or several emoji need a smaller type to fit the circle.
        text.length > 2 ? 'text-xs' : null,
        className,
      )}
      style={{ backgroundColor: color, color: textColorOn(color) }}
    >
      {text}
    </span>
  );
}
