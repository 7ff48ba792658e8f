import type { Chatbot, ChatSessionListItem } from '@courselens/contracts';
import { MessagesSquare } from 'lucide-react';
import { useSearchParams } from 'react-router';

import type { DataTableColumn } from '@/components/ui/data-table';
import { formatDateTime, formatNumber, formatRelative } from '@/lib/format';
import type { OrganizationIdInput } from '@/lib/query-keys';

import type { ChatSessionSortKey } from '../api/get-chat-sessions';

import { SessionFilters, useChatSessionList } from './session-filters';
import { CapturedBadge, SessionsTable } from './sessions-table';
import { learnerLabel, TranscriptSheet } from './transcript-sheet';

/** How many of the agent's variables a conversation captured. */
function capturedCount(session: ChatSessionListItem, chatbot: Chatbot): number {
  return chatbot.variables.filter((variable) => session.captured[variable.name] !== undefined).length;
}

export type ConversationsTabProps = {
  organizationId: OrganizationIdInput;
  chatbot: Chatbot;
};

/** The Conversations tab: every conversation of the agent, searchable by learner; one opens beside the list. */
export function ConversationsTab({ organizationId, chatbot }: ConversationsTabProps) {
  const list = useChatSessionList(organizationId, chatbot.id);
  const [searchParams, setSearchParams] = useSearchParams();
  const openSessionId = searchParams.get('session');

  function openSession(sessionId: string | null) {
    setSearchParams((previous) => {
      const next = new URLSearchParams(previous);
      if (sessionId) next.set('session', sessionId);
      else next.delete('session');
      return next;
    });
  }

  const columns: DataTableColumn<ChatSessionListItem, ChatSessionSortKey>[] = [
    {
      id: 'learner',
      header: 'Learner',
      isRowHeader: true,
      cell: (session) => (
        <button
          type="button"
          onClick={() => openSession(session.id)}
          className="flex max-w-full min-w-0 flex-col items-start rounded text-left hover:underline focus-visible:outline-2 focus-visible:outline-focus"
          aria-label={`Open the conversation with ${learnerLabel(session)}`}
        >
          <span className="font-medium break-all text-fg">{learnerLabel(session)}</span>
          {session.learnerName && session.learnerEmail ? (
            <span className="text-xs font-normal break-all text-fg-subtle">{session.learnerEmail}</span>
          ) : null}
          {/* Phones hide the other columns: what matters moves here. */}
          <span className="mt-1 flex flex-wrap items-center gap-2 text-xs font-normal text-fg-muted md:hidden">
            <CapturedBadge done={session.done} />
            {formatNumber(session.messages)} messages
            {session.lastMessageAt ? ` · ${formatRelative(session.lastMessageAt)}` : ''}
          </span>
        </button>
      ),
    },
    {
      id: 'captured',
      header: 'Captured',
      className: 'hidden md:table-cell whitespace-nowrap',
      cell: (session) => (
        <span className="flex flex-col items-start gap-1">
          <CapturedBadge done={session.done} />
          {chatbot.variables.length > 0 ? (
            <span className="text-xs text-fg-subtle">
              {capturedCount(session, chatbot)} of {chatbot.variables.length} values
            </span>
          ) : null}
        </span>
      ),
    },
    {
      id: 'messages',
      header: 'Messages',
      sortKey: 'messages',
      align: 'right',
      className: 'hidden sm:table-cell',
      cell: (session) => formatNumber(session.messages),
    },
    {
      id: 'lastMessage',
      header: 'Last message',
      sortKey: 'lastMessageAt',
      className: 'hidden md:table-cell max-w-80',
      cell: (session) => (
        <span className="flex min-w-0 flex-col">
          {session.lastMessage ? (
            <span className="truncate text-fg" title={session.lastMessage}>
              {session.lastMessage}
            </span>
          ) : null}
          {session.lastMessageAt ? (
            <time
              dateTime={session.lastMessageAt}
              title={formatDateTime(session.lastMessageAt)}
              className="text-xs text-fg-subtle"
            >
              {formatRelative(session.lastMessageAt)}
            </time>
          ) : (
            <span className="text-xs text-fg-subtle">No message yet</span>
          )}
        </span>
      ),
    },
    {
      id: 'started',
      header: 'Started',
      sortKey: 'createdAt',
      className: 'hidden lg:table-cell whitespace-nowrap',
      cell: (session) => <time dateTime={session.createdAt}>{formatDateTime(session.createdAt)}</time>,
    },
  ];

  return (
    <div className="flex flex-col gap-4">
      <SessionFilters list={list} columns={columns} />
      <SessionsTable
        caption="Conversations"
        columns={columns}
        list={list}
        empty={{
          icon: <MessagesSquare />,
          title: 'No conversations yet',
          description:
            'Conversations appear here as soon as a learner writes to the agent. Put it on a course page from the Embed tab.',
        }}
      />
      <TranscriptSheet
        organizationId={organizationId}
        chatbot={chatbot}
        sessionId={openSessionId}
        onClose={() => openSession(null)}
      />
    </div>
  );
}
