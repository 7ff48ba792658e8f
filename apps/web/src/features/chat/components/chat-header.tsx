import type { PublicChatbot } from '@courselens/contracts';
import type { ReactNode } from 'react';

import { AgentAvatar } from '@/components/agent-avatar';

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
        <AgentAvatar name={agent.name} color={agent.color} avatar={agent.avatar} />
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
