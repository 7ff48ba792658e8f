import { CHATBOT_MESSAGES, type ChatbotVariable, type ChatMessage } from '@courselens/contracts';
import { useId } from 'react';
import { Link } from 'react-router';

import { AgentAvatar } from '@/components/agent-avatar';
import { ChatMessageBubble, CitationNote, ENGINE_LABELS } from '@/components/chat-message';
import { Markdown } from '@/components/markdown';
import { Badge } from '@/components/ui/badge';
import { buttonClassName } from '@/components/ui/button';
import { Sheet } from '@/components/ui/sheet';
import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { isApiError } from '@/lib/api-client';
import { cn } from '@/lib/cn';
import { formatCapturedValue, formatDateTime } from '@/lib/format';
import type { OrganizationIdInput } from '@/lib/query-keys';

import { useChatSession } from '../api/get-chat-sessions';

/** A learner as a list names them: their name, else their e-mail. */
export function learnerLabel(session: { learnerName: string | null; learnerEmail: string | null }): string {
  return session.learnerName?.trim() || session.learnerEmail || 'Unknown learner';
}

type Agent = { name: string; color: string; avatar: string | null; variables: ChatbotVariable[] };

function MessageItem({ message, agent }: { message: ChatMessage; agent: Agent }) {
  const isLearner = message.role === 'user';
  return (
    <li className={cn('flex gap-2', isLearner ? 'flex-row-reverse' : null)}>
      {isLearner ? null : (
        <AgentAvatar name={agent.name} color={agent.color} avatar={agent.avatar} size="sm" />
      )}
      <div className={cn('flex max-w-[85%] min-w-0 flex-col gap-1', isLearner ? 'items-end' : 'items-start')}>
        {isLearner ? (
          <ChatMessageBubble from="learner" speaker="Learner" color={agent.color}>
            {message.content}
          </ChatMessageBubble>
        ) : (
          <ChatMessageBubble from="agent" speaker={agent.name}>
            <Markdown text={message.content} />
            {message.citation ? (
              <CitationNote citation={message.citation} reply={message.content} isFull />
            ) : null}
          </ChatMessageBubble>
        )}
        <span className="flex flex-wrap items-center gap-2 px-1 text-xs text-fg-subtle">
          <time dateTime={message.createdAt}>{formatDateTime(message.createdAt)}</time>
          {!isLearner && message.engine ? <Badge>{ENGINE_LABELS[message.engine]}</Badge> : null}
        </span>
      </div>
    </li>
  );
}

export type TranscriptSheetProps = {
  organizationId: OrganizationIdInput;
  chatbot: Agent & { id: string };
  sessionId: string | null;
  onClose: () => void;
};

/** One conversation: who, what was captured, and every message with the engine that wrote it and its sources. */
export function TranscriptSheet({ organizationId, chatbot, sessionId, onClose }: TranscriptSheetProps) {
  const session = useChatSession(organizationId, chatbot.id, sessionId);
  const data = session.data;
  const capturedId = useId();
  const messagesId = useId();
  return (
    <Sheet
      open={sessionId !== null}
      onClose={onClose}
      title={data ? learnerLabel(data) : 'Conversation'}
      className="sm:w-[36rem]"
      description={
        data ? (
          <>
            {data.learnerName && data.learnerEmail ? (
              <span className="break-all">{data.learnerEmail} · </span>
            ) : null}
            Started {formatDateTime(data.createdAt)}
          </>
        ) : undefined
      }
      footer={
        data?.learnerId ? (
          <Link
            to={paths.learners.variables.href(data.learnerId)}
            className={buttonClassName({ variant: 'outline', size: 'sm' })}
          >
            Open the learner
          </Link>
        ) : undefined
      }
    >
      {session.isPending ? (
        <div className="flex justify-center py-10 text-fg-muted">
          <Spinner label="Loading the conversation" />
        </div>
      ) : session.isError ? (
        <p role="alert" className="text-sm text-rose-600 dark:text-rose-400">
          {isApiError(session.error) && session.error.status === 404
            ? CHATBOT_MESSAGES.sessionNotFound
            : session.error.message}
        </p>
      ) : data ? (
        <div className="flex flex-col gap-5">
          <section aria-labelledby={capturedId} className="flex flex-col gap-2">
            <h3 id={capturedId} className="flex items-center gap-2 text-sm font-semibold text-fg">
              Captured values
              {data.done ? (
                <Badge variant="success">Complete</Badge>
              ) : (
                <Badge variant="warning">Values missing</Badge>
              )}
            </h3>
            {chatbot.variables.length === 0 ? (
              <p className="text-sm text-fg-muted">This agent captures no variables.</p>
            ) : (
              <dl className="grid grid-cols-[minmax(0,auto)_minmax(0,1fr)] gap-x-4 gap-y-1.5 text-sm">
                {chatbot.variables.map((variable) => (
                  <div key={variable.id} className="contents">
                    <dt className="text-fg-muted">{variable.title}</dt>
                    <dd className="break-words text-fg">
                      {formatCapturedValue(data.captured[variable.name], variable.type)}
                    </dd>
                  </div>
                ))}
              </dl>
            )}
          </section>
          <section aria-labelledby={messagesId} className="flex flex-col gap-3">
            <h3 id={messagesId} className="text-sm font-semibold text-fg">
              Transcript{' '}
              <span className="font-normal text-fg-subtle">({data.transcript.length} messages)</span>
            </h3>
            {data.transcript.length === 0 ? (
              <p className="text-sm text-fg-muted">No message yet.</p>
            ) : (
              <ol className="flex flex-col gap-4">
                {data.transcript.map((message) => (
                  <MessageItem key={message.id} message={message} agent={chatbot} />
                ))}
              </ol>
            )}
          </section>
        </div>
      ) : null}
    </Sheet>
  );
}
