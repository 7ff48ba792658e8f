import type { ChatCitation, ChatEngineName, ChatMessage } from '@courselens/contracts';

import { cn } from '@/lib/cn';

import { textColorOn } from '../utils/color';
import { Markdown } from '../utils/markdown';

export const ENGINE_LABELS: Record<ChatEngineName, string> = {
  builtin: 'Built-in assistant',
  llm: 'AI model',
};

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
        <div
          className="max-w-[85%] rounded-2xl rounded-br-sm px-3.5 py-2 text-sm leading-relaxed break-words whitespace-pre-wrap shadow-xs sm:max-w-[75%]"
          style={{ backgroundColor: color, color: textColorOn(color) }}
        >
          <span className="sr-only">You: </span>
          {message.content}
        </div>
      </div>
    );
  }
  return (
    <div className="flex flex-col items-start gap-1">
      <div className="max-w-[85%] rounded-2xl rounded-bl-sm bg-surface px-3.5 py-2 text-sm leading-relaxed text-fg shadow-xs ring-1 ring-line sm:max-w-[75%]">
        <span className="sr-only">{agentName}: </span>
        <Markdown text={message.content} />
        {message.citation ? <Citation citation={message.citation} /> : null}
      </div>
      {message.engine ? (
        <span className="px-1 text-[0.7rem] text-fg-subtle">{ENGINE_LABELS[message.engine]}</span>
      ) : null}
    </div>
  );
}

/** "From <document> — <title>", left out when the section is the document itself. */
export function citationSource({ document, title }: Pick<ChatCitation, 'document' | 'title'>): string {
  const section = title.trim();
  return section && section !== document.trim() ? `From ${document} — ${section}` : `From ${document}`;
}

function Citation({ citation }: { citation: ChatCitation }) {
  return (
    <figure className="mt-2 border-l-2 border-line-strong pl-3 text-xs text-fg-muted">
      {citation.quote.trim() ? (
        <blockquote className="line-clamp-4 italic">{citation.quote}</blockquote>
      ) : null}
      <figcaption className="mt-1 font-medium not-italic">{citationSource(citation)}</figcaption>
    </figure>
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
