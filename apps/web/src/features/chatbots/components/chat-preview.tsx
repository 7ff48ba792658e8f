import { SendHorizontal } from 'lucide-react';

import { AgentAvatar } from '@/components/agent-avatar';
import { ChatMessageBubble } from '@/components/chat-message';
import { Markdown } from '@/components/markdown';
import { agentColor, textColorOn } from '@/lib/color';

export type ChatPreviewProps = {
  name: string;
  description: string;
  welcomeMessage: string;
  color: string;
  avatar: string;
  active: boolean;
};

/**
 * How the chat page will look to a learner, drawn from the form as it is
 * typed: the header with the agent's bubble, its welcome message, a
 * learner's message in the agent's colour and the message box (inert: this
 * is a picture, not a chat).
 */
export function ChatPreview({ name, description, welcomeMessage, color, avatar, active }: ChatPreviewProps) {
  const background = agentColor(color);
  const foreground = textColorOn(background);
  const title = name.trim() || 'Your agent';
  return (
    <figure className="flex flex-col gap-2">
      <figcaption className="text-xs font-medium tracking-wide text-fg-subtle uppercase">Preview</figcaption>
      <div
        className="overflow-hidden rounded-2xl border border-line bg-surface shadow-sm"
        data-testid="chat-preview"
      >
        <div className="flex items-start gap-3 border-b border-line px-4 py-3">
          <AgentAvatar name={title} color={background} avatar={avatar} />
          <div className="min-w-0">
            <p className="truncate text-sm font-semibold text-fg">{title}</p>
            {description.trim() ? (
              <p className="line-clamp-2 text-xs break-words text-fg-muted">{description.trim()}</p>
            ) : null}
          </div>
        </div>
        <div className="flex min-h-28 flex-col gap-2 bg-surface-muted/50 p-4">
          {!active ? (
            <p className="rounded-lg bg-surface px-3 py-2 text-xs text-fg-muted ring-1 ring-line">
              Switched off: learners see a notice and cannot write.
            </p>
          ) : welcomeMessage.trim() ? (
            <ChatMessageBubble from="agent" speaker={title} className="max-w-[85%] self-start">
              <Markdown text={welcomeMessage} />
            </ChatMessageBubble>
          ) : (
            <p className="text-xs text-fg-subtle">
              No welcome message: the agent opens with its first question.
            </p>
          )}
          {active ? (
            <ChatMessageBubble
              from="learner"
              speaker="Learner"
              color={background}
              className="max-w-[85%] self-end"
            >
              Hi! I have a question.
            </ChatMessageBubble>
          ) : null}
        </div>
        <div className="flex items-center gap-2 border-t border-line p-3">
          <span className="flex h-9 min-w-0 flex-1 items-center rounded-lg border border-line px-3 text-sm text-fg-subtle">
            Type a message…
          </span>
          <span
            className="flex size-9 shrink-0 items-center justify-center rounded-lg [&_svg]:size-4"
            style={{ backgroundColor: background, color: foreground }}
          >
            <SendHorizontal aria-hidden="true" />
          </span>
        </div>
      </div>
    </figure>
  );
}
