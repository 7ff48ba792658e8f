import { cn } from '@/lib/cn';
import { agentColor, textColorOn } from '@/lib/color';

/** The avatar's text, else the name's first character (a whole one, emoji included), in capitals. */
export function avatarText(avatar: string | null | undefined, name: string): string {
  const text = avatar?.trim();
  if (text) return text;
  const [first = '?'] = Array.from(name.trim());
  return first.toLocaleUpperCase();
}

export type AgentAvatarProps = {
  name: string;
  /** The agent's colour; anything but a whole `#rrggbb` shows the default. */
  color: string | null | undefined;
  avatar: string | null | undefined;
  size?: 'sm' | 'md' | 'lg';
  className?: string;
};

const sizes = { sm: 'size-8 text-sm', md: 'size-10 text-base', lg: 'size-12 text-lg' } as const;

/**
 * The round bubble that stands for an agent, in its colour, on the chat page
 * and in the authors' screens alike (decorative: the name is always written
 * beside it).
 */
export function AgentAvatar({ name, color, avatar, size = 'md', className }: AgentAvatarProps) {
  const background = agentColor(color);
  const text = avatarText(avatar, name);
  return (
    <span
      aria-hidden="true"
      className={cn(
        'inline-flex shrink-0 items-center justify-center overflow-hidden rounded-full leading-none font-semibold shadow-sm ring-1 ring-black/5 select-none dark:ring-white/10',
        sizes[size],
        // Initials or several emoji need a smaller type to fit the circle.
        text.length > 2 ? 'text-xs' : null,
        className,
      )}
      style={{ backgroundColor: background, color: textColorOn(background) }}
    >
      {text}
    </span>
  );
}
