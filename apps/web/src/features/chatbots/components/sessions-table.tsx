import type { ChatSessionListItem } from '@courselens/contracts';
import type { ReactNode } from 'react';

import { Badge } from '@/components/ui/badge';
import { DataTable, type DataTableColumn } from '@/components/ui/data-table';
import { EmptyState } from '@/components/ui/empty-state';
import { Pagination } from '@/components/ui/pagination';

import { CHAT_SESSIONS_PAGE_SIZE, type ChatSessionSortKey } from '../api/get-chat-sessions';

import type { ChatSessionList } from './session-filters';

export function CapturedBadge({ done }: { done: boolean }) {
  return done ? <Badge variant="success">Complete</Badge> : <Badge variant="warning">Values missing</Badge>;
}

export type SessionsTableProps = {
  caption: string;
  columns: DataTableColumn<ChatSessionListItem, ChatSessionSortKey>[];
  list: ChatSessionList;
  /** The empty list's icon, and what it says before any learner has written. */
  empty: { icon: ReactNode; title: string; description: ReactNode };
};

/** One page of an agent's conversations, as the Conversations and Results tabs both list them, with its pages. */
export function SessionsTable({ caption, columns, list, empty }: SessionsTableProps) {
  const { sessions, params, setList } = list;
  const data = sessions.data;
  const isFiltered = params.q !== '' || params.captured !== null;
  return (
    <>
      <DataTable
        caption={caption}
        columns={columns}
        rows={data?.items}
        rowKey={(session) => session.id}
        isLoading={sessions.isPending}
        isFetching={sessions.isFetching && sessions.isPlaceholderData}
        error={sessions.isError && !data ? sessions.error.message : null}
        sort={{ sort: params.sort, order: params.order }}
        onSortChange={(sort) => setList(sort)}
        empty={
          isFiltered ? (
            <EmptyState icon={empty.icon} title="No conversation matches">
              Try another learner or show all conversations.
            </EmptyState>
          ) : (
            <EmptyState icon={empty.icon} title={empty.title}>
              {empty.description}
            </EmptyState>
          )
        }
      />
      {data && data.total > 0 ? (
        <Pagination
          page={params.page}
          pageSize={data.pageSize || CHAT_SESSIONS_PAGE_SIZE}
          total={data.total}
          onPageChange={(page) => setList({ page })}
          noun="conversations"
        />
      ) : null}
    </>
  );
}
