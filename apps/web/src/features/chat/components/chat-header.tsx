import type { PublicChatbot } from '@courselens/contracts';
import type { ReactNode } from 'react';

import { cn } from '@/lib/cn';

import { agentColor, textColorOn } from '../utils/color';

/** The agent's avatar text, or the first letter of its name (a whole character, emoji included). */
export function avatarText(agent: Pick<PublicChatbot, 'avatar' | 'name'>): string {
  const avatar = agent.avatar?.trim();
  if (avatar) return avatar;
  const [first = '?'] = Array.from(agent.name.trim());
  return first.toLocaleUpperCase();
}

export type AgentAvatarProps = {
  agent: Pick<PublicChatbot, 'avatar' | 'name' | 'color'>;
  className?: string;
};

export function AgentAvatar({ agent, className }: AgentAvatarProps) {
  const color = agentColor(agent.color);
  const text = avatarText(agent);
  return (
    <span
      aria-hidden="true"
      className={cn(
        'flex size-10 shrink-0 items-center justify-center overflow-hidden rounded-full font-semibold select-none',
        text.length > 2 ? 'text-xs' : 'text-base',
        className,
      )}
      style={{ backgroundColor: color, color: textColorOn(color) }}
    >
      {text}
    </span>
  );
}

export type ChatHeaderProps = {
  agent: PublicChatbot;
  /** Buttons on the right (a new conversation). */
  actions?: ReactNode;
};

/** The agent's identity at the top of the chat: avatar, name, description, and who runs the page. */
export function ChatHeader({ agent, actions }: ChatHeaderProps) {
  return (
    <header className="shrink-0 border-b border-line bg-surface px-4 py-3 sm:px-6">
      <div className="mx-auto flex w-full max-w-3xl items-start gap-3">
        <AgentAvatar agent={agent} />
        <div className="min-w-0 flex-1">
          <h1 className="truncate text-base leading-6 font-semibold text-fg">{agent.name}</h1>
          {agent.description ? (
            <p className="line-clamp-2 text-sm text-fg-muted" title={agent.description}>
              {agent.description}
            </p>
          ) : null}
          <p className="mt-0.5 truncate text-xs text-fg-subtle">
            {agent.organization ? `${agent.organization} · ` : null}
            Powered by{' '}
            <a
              href="/"
              target="_blank"
              rel="noopener noreferrer"
              className="font-medium underline-offset-2 hover:text-fg hover:underline"
            >
              CourseLens
            </a>
          </p>
        </div>
        {actions ? <div className="flex shrink-0 items-center gap-1">{actions}</div> : null}
      </div>
    </header>
  );
}
