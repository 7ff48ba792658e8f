import type { ChatMessage } from '@courselens/contracts';

import { ChatMessageBubble, CitationNote, ENGINE_LABELS } from '@/components/chat-message';
import { Markdown } from '@/components/markdown';
import { cn } from '@/lib/cn';

/** What a bubble needs: a stored message, the welcome text or the reply being written. */
export type BubbleMessage = Pick<ChatMessage, 'role' | 'content' | 'engine' | 'citation'>;

export type MessageBubbleProps = {
  message: BubbleMessage;
  agentName: string;
  /** The agent's colour, for the learner's own bubbles. */
  color: string;
};

export function MessageBubble({ message, agentName, color }: MessageBubbleProps) {
  if (message.role === 'user') {
    return (
      <div className="flex justify-end">
        <ChatMessageBubble from="learner" speaker="You" color={color} className="max-w-[85%] sm:max-w-[75%]">
          {message.content}
        </ChatMessageBubble>
      </div>
    );
  }
  return (
    <div className="flex flex-col items-start gap-1">
      <ChatMessageBubble from="agent" speaker={agentName} className="max-w-[85%] sm:max-w-[75%]">
        <Markdown text={message.content} />
        {message.citation ? <CitationNote citation={message.citation} reply={message.content} /> : null}
      </ChatMessageBubble>
      {message.engine ? (
        <span className="px-1 text-[0.7rem] text-fg-subtle">{ENGINE_LABELS[message.engine]}</span>
      ) : null}
    </div>
  );
}

export type TypingIndicatorProps = {
  agentName: string;
  className?: string;
};

/** Shown until the first piece of the reply arrives. */
export function TypingIndicator({ agentName, className }: TypingIndicatorProps) {
  return (
    <div className={cn('flex justify-start', className)}>
      <div className="flex items-center gap-1 rounded-2xl rounded-bl-sm bg-surface px-3.5 py-3 shadow-xs ring-1 ring-line">
        <span className="sr-only">{agentName} is typing</span>
        {[0, 150, 300].map((delay) => (
          <span
            key={delay}
            aria-hidden="true"
            className="size-1.5 animate-bounce rounded-full bg-fg-subtle motion-reduce:animate-none"
            style={{ animationDelay: `${delay}ms` }}
          />
        ))}
      </div>
    </div>
  );
}
