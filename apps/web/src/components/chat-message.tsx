import type { ChatCitation, ChatEngineName } from '@courselens/contracts';
import type { ReactNode } from 'react';

import { cn } from '@/lib/cn';
import { agentColor, textColorOn } from '@/lib/color';

/** The engine that wrote a reply, as people read it. */
export const ENGINE_LABELS: Record<ChatEngineName, string> = {
  builtin: 'Built-in assistant',
  llm: 'AI model',
};

/** "From <document> — <section>", the section left out when it is the document itself. */
export function citationSource({ document, title }: Pick<ChatCitation, 'document' | 'title'>): string {
  const section = title.trim();
  return section && section !== document.trim() ? `From ${document} — ${section}` : `From ${document}`;
}

export type ChatMessageBubbleProps = {
  /** Who wrote it: the learner's bubbles are in the agent's colour, the agent's on the page's surface. */
  from: 'learner' | 'agent';
  /** Read out before the text (only the bubble's side and colour show who wrote it). */
  speaker: string;
  /** The agent's colour, for the learner's bubbles. */
  color?: string | null;
  className?: string;
  children: ReactNode;
};

/**
 * One message of a conversation, drawn the same on the public chat page, in
 * the authors' transcripts and in the editor's preview. The learner's text
 * keeps its line breaks as typed; the agent's is rendered by the caller
 * (markdown).
 */
export function ChatMessageBubble({ from, speaker, color, className, children }: ChatMessageBubbleProps) {
  const isLearner = from === 'learner';
  const background = agentColor(color);
  return (
    <div
      className={cn(
        'min-w-0 rounded-2xl px-3.5 py-2 text-sm leading-relaxed break-words shadow-xs',
        isLearner ? 'rounded-br-sm whitespace-pre-wrap' : 'rounded-bl-sm bg-surface text-fg ring-1 ring-line',
        className,
      )}
      style={isLearner ? { backgroundColor: background, color: textColorOn(background) } : undefined}
    >
      <span className="sr-only">{speaker}: </span>
      {children}
    </div>
  );
}

export type CitationNoteProps = {
  citation: ChatCitation;
  /** The reply the citation belongs to: a quote it already reads out is not shown twice. */
  reply?: string;
  /** The whole quote (an author checking sources); otherwise four lines at most. */
  isFull?: boolean;
};

/** Where a reply's answer came from, under the reply: the quoted passage (unless the reply quotes it) and its document. */
export function CitationNote({ citation, reply, isFull = false }: CitationNoteProps) {
  const quote = citation.quote.trim();
  const isQuotedInReply = Boolean(quote && reply?.includes(quote));
  return (
    <figure className="mt-2 border-l-2 border-line-strong pl-3 text-xs text-fg-muted">
      {quote && !isQuotedInReply ? (
        <blockquote className={cn('break-words italic', isFull ? null : 'line-clamp-4')}>
          {citation.quote}
        </blockquote>
      ) : null}
      <figcaption className="mt-1 font-medium not-italic">{citationSource(citation)}</figcaption>
    </figure>
  );
}
