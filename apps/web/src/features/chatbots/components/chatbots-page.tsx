import { CHATBOT_SORT_KEYS, type ChatbotListItem, type ChatbotSortKey } from '@courselens/contracts';
import { Bot, ExternalLink, Pencil, Plus, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';

import { AgentAvatar } from '@/components/agent-avatar';
import { FilterBar } from '@/components/filter-bar';
import { PageHeader } from '@/components/page-header';
import { SortSelect } from '@/components/sort-select';
import { Badge } from '@/components/ui/badge';
import { Button, buttonClassName } from '@/components/ui/button';
import { DataTable, type DataTableColumn } from '@/components/ui/data-table';
import { EmptyState } from '@/components/ui/empty-state';
import { Pagination } from '@/components/ui/pagination';
import { SearchField } from '@/components/ui/search-field';
import { paths } from '@/config/paths';
import { useSession } from '@/lib/auth';
import { formatDateTime, formatNumber, formatPercent, formatRelative } from '@/lib/format';
import { useListParams } from '@/lib/use-list-params';

import { CHATBOTS_PAGE_SIZE, useChatbots } from '../api/get-chatbots';

import { CHATBOT_LIST_DEFAULTS } from './chatbot-list-params';
import { DeleteChatbotDialog } from './delete-chatbot-dialog';

const linkClassName =
  'rounded font-medium break-words hover:underline focus-visible:outline-2 focus-visible:outline-focus';

function ActiveBadge({ active }: { active: boolean }) {
  return active ? (
    <Badge variant="success" dot>
      Active
    </Badge>
  ) : (
    <Badge dot>Inactive</Badge>
  );
}

function LastMessage({ at }: { at: string | null }) {
  return at ? (
    <time dateTime={at} title={formatDateTime(at)}>
      {formatRelative(at)}
    </time>
  ) : (
    <span className="text-fg-subtle">Never</span>
  );
}

/** While the first page loads: the shape of the table to come, so the page does not jump. */
function ChatbotsSkeleton() {
  return (
    <div
      role="status"
      aria-label="Loading agents"
      className="overflow-hidden rounded-2xl border border-line bg-surface shadow-xs"
    >
      <div className="h-9 border-b border-line bg-surface-muted/50" />
      <ul className="divide-y divide-line">
        {[0, 1, 2, 3].map((row) => (
          <li key={row} className="flex items-center gap-3 px-4 py-4 motion-safe:animate-pulse">
            <span className="size-10 shrink-0 rounded-full bg-surface-muted" />
            <span className="flex min-w-0 flex-1 flex-col gap-2">
              <span className="h-3.5 w-40 max-w-full rounded bg-surface-muted" />
              <span className="h-3 w-64 max-w-full rounded bg-surface-muted" />
            </span>
            <span className="hidden h-3.5 w-16 rounded bg-surface-muted sm:block" />
            <span className="hidden h-3.5 w-16 rounded bg-surface-muted md:block" />
            <span className="hidden h-3.5 w-20 rounded bg-surface-muted lg:block" />
          </li>
        ))}
      </ul>
    </div>
  );
}

/** `/chatbots`: the organization's custom AI agents with their conversations and capture rates. */
export function ChatbotsPage() {
  const organizationId = useSession().currentOrganization?.id;
  const [params, setParams] = useListParams(CHATBOT_SORT_KEYS, CHATBOT_LIST_DEFAULTS);
  const chatbots = useChatbots(organizationId, params);
  const [toDelete, setToDelete] = useState<ChatbotListItem | null>(null);

  const columns: DataTableColumn<ChatbotListItem, ChatbotSortKey>[] = [
    {
      id: 'name',
      header: 'Name',
      sortKey: 'name',
      isRowHeader: true,
      cell: (chatbot) => (
        <div className="flex min-w-0 items-start gap-3">
          <AgentAvatar name={chatbot.name} color={chatbot.color} avatar={chatbot.avatar} />
          <div className="flex min-w-0 flex-col gap-1">
            <span className="flex flex-wrap items-center gap-2">
              <Link to={paths.chatbots.edit.href(chatbot.id)} className={linkClassName}>
                {chatbot.name}
              </Link>
              <ActiveBadge active={chatbot.active} />
            </span>
            {chatbot.description ? (
              <span className="line-clamp-2 text-xs font-normal break-words text-fg-muted">
                {chatbot.description}
              </span>
            ) : null}
            {/* Phones hide the figure columns: the figures that matter move here. */}
            <span className="text-xs font-normal text-fg-subtle lg:hidden">
              {formatNumber(chatbot.conversations)}{' '}
              {chatbot.conversations === 1 ? 'conversation' : 'conversations'} · captured{' '}
              {formatPercent(chatbot.captureRate)}
              <span className="sm:hidden">
                {' '}
                · last message {chatbot.lastMessageAt ? formatRelative(chatbot.lastMessageAt) : 'never'}
              </span>
            </span>
          </div>
        </div>
      ),
    },
    {
      id: 'variables',
      header: 'Variables',
      align: 'right',
      className: 'hidden md:table-cell',
      cell: (chatbot) => formatNumber(chatbot.variables),
    },
    {
      id: 'conversations',
      header: 'Conversations',
      sortKey: 'conversations',
      align: 'right',
      className: 'hidden lg:table-cell',
      cell: (chatbot) => formatNumber(chatbot.conversations),
    },
    {
      id: 'learners',
      header: 'Learners',
      align: 'right',
      className: 'hidden lg:table-cell',
      cell: (chatbot) => formatNumber(chatbot.learners),
    },
    {
      id: 'captureRate',
      header: 'Capture rate',
      align: 'right',
      className: 'hidden lg:table-cell',
      cell: (chatbot) => (
        <span title="Conversations in which every required variable was captured">
          {formatPercent(chatbot.captureRate)}
        </span>
      ),
    },
    {
      id: 'lastMessage',
      header: 'Last message',
      sortKey: 'lastMessageAt',
      className: 'hidden sm:table-cell whitespace-nowrap',
      cell: (chatbot) => <LastMessage at={chatbot.lastMessageAt} />,
    },
    {
      id: 'row-actions',
      header: <span className="sr-only">Row actions</span>,
      align: 'right',
      cell: (chatbot) => (
        // Stacked on phones, so the three fit beside the name without a sideways scroll.
        <div className="flex flex-col items-end gap-1 sm:flex-row sm:justify-end">
          <Link
            to={paths.chatbots.edit.href(chatbot.id)}
            className={buttonClassName({ variant: 'ghost', size: 'icon' })}
            aria-label={`Edit ${chatbot.name}`}
            title="Edit"
          >
            <Pencil aria-hidden="true" />
          </Link>
          <a
            href={paths.chatbots.chat.href(chatbot.id)}
            target="_blank"
            rel="noopener noreferrer"
            className={buttonClassName({ variant: 'ghost', size: 'icon' })}
            aria-label={`Open the chat of ${chatbot.name} (opens in a new tab)`}
            title="Open chat"
          >
            <ExternalLink aria-hidden="true" />
          </a>
          <Button
            variant="ghost"
            size="icon"
            aria-label={`Delete ${chatbot.name}`}
            title="Delete"
            onClick={() => setToDelete(chatbot)}
          >
            <Trash2 aria-hidden="true" />
          </Button>
        </div>
      ),
    },
  ];

  const data = chatbots.data;
  const createAgent = (
    <Link to={paths.chatbots.create.href()} className={buttonClassName()}>
      <Plus aria-hidden="true" />
      Create an agent
    </Link>
  );

  return (
    <div className="mx-auto flex w-full max-w-6xl min-w-0 flex-col gap-6 px-4 py-8 sm:px-6 lg:px-8">
      <title>Custom AI Agents · CourseLens</title>
      <PageHeader
        title="Custom AI Agents"
        description="Chat agents grounded in your instructions that collect answers into variables."
        actions={createAgent}
      />
      <FilterBar
        search={
          <SearchField
            label="Search agents"
            placeholder="Search by name"
            value={params.q}
            onChange={(q) => setParams({ q })}
          />
        }
      >
        <SortSelect
          columns={[...columns, { id: 'created', header: 'Created', sortKey: 'createdAt', cell: () => null }]}
          sort={params.sort}
          order={params.order}
          onChange={(sort) => setParams(sort)}
        />
      </FilterBar>
      {chatbots.isPending ? (
        <ChatbotsSkeleton />
      ) : (
        <DataTable
          caption="Custom AI agents"
          columns={columns}
          rows={data?.items}
          rowKey={(chatbot) => chatbot.id}
          isFetching={chatbots.isFetching && chatbots.isPlaceholderData}
          error={chatbots.isError && !data ? chatbots.error.message : null}
          sort={{ sort: params.sort, order: params.order }}
          onSortChange={(sort) => setParams(sort)}
          empty={
            params.q ? (
              <EmptyState icon={<Bot />} title={`No agent matches “${params.q}”`}>
                Try another name.
              </EmptyState>
            ) : (
              <EmptyState icon={<Bot />} title="No agents yet" action={createAgent}>
                An agent answers learners from your instructions and knowledge, and asks them for what you
                want to know, such as their team size or their goal, storing each answer as a variable.
              </EmptyState>
            )
          }
        />
      )}
      {data && data.total > 0 ? (
        <Pagination
          page={params.page}
          pageSize={data.pageSize || CHATBOTS_PAGE_SIZE}
          total={data.total}
          onPageChange={(page) => setParams({ page })}
          noun="agents"
        />
      ) : null}
      <DeleteChatbotDialog
        chatbot={toDelete}
        organizationId={organizationId}
        onClose={() => setToDelete(null)}
      />
    </div>
  );
}
