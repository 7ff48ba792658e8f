import type { Chatbot, ChatSessionListItem } from '@courselens/contracts';
import { Table2 } from 'lucide-react';

import { ExportCsvButton } from '@/components/export-csv-button';
import type { DataTableColumn } from '@/components/ui/data-table';
import { EmptyState } from '@/components/ui/empty-state';
import { formatCapturedValue, formatDateTime } from '@/lib/format';
import type { OrganizationIdInput } from '@/lib/query-keys';

import { chatbotPath } from '../api/get-chatbot';
import type { ChatSessionSortKey } from '../api/get-chat-sessions';

import { SessionFilters, useChatSessionList } from './session-filters';
import { CapturedBadge, SessionsTable } from './sessions-table';
import { learnerLabel } from './transcript-sheet';

/** A file name from the agent's name: "Onboarding coach" → "onboarding-coach-results.csv". */
export function resultsFileName(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
  return `${slug || 'agent'}-results.csv`;
}

export type ResultsTabProps = {
  organizationId: OrganizationIdInput;
  chatbot: Chatbot;
};

/** The Results tab: what each conversation captured, one column per variable, and the CSV of all of it. */
export function ResultsTab({ organizationId, chatbot }: ResultsTabProps) {
  const list = useChatSessionList(organizationId, chatbot.id);

  const columns: DataTableColumn<ChatSessionListItem, ChatSessionSortKey>[] = [
    {
      id: 'learner',
      header: 'Learner',
      isRowHeader: true,
      className: 'min-w-40',
      cell: (session) => (
        <span className="flex flex-col">
          <span className="break-all">{learnerLabel(session)}</span>
          {session.learnerName && session.learnerEmail ? (
            <span className="text-xs font-normal break-all text-fg-subtle">{session.learnerEmail}</span>
          ) : null}
        </span>
      ),
    },
    {
      id: 'started',
      header: 'Started',
      sortKey: 'createdAt',
      className: 'hidden sm:table-cell whitespace-nowrap',
      cell: (session) => <time dateTime={session.createdAt}>{formatDateTime(session.createdAt)}</time>,
    },
    {
      id: 'status',
      header: 'Status',
      className: 'whitespace-nowrap',
      cell: (session) => <CapturedBadge done={session.done} />,
    },
    ...chatbot.variables.map((variable): DataTableColumn<ChatSessionListItem, ChatSessionSortKey> => ({
      id: `variable-${variable.id}`,
      header: <span title={variable.name}>{variable.title}</span>,
      align: variable.type === 'number' ? 'right' : 'left',
      className: 'min-w-32',
      cell: (session) => {
        const value = session.captured[variable.name];
        return value === undefined ? (
          <span className="text-fg-subtle" title="Not captured">
            —
          </span>
        ) : (
          <span className="break-words text-fg">{formatCapturedValue(value, variable.type)}</span>
        );
      },
    })),
  ];

  return (
    <div className="flex flex-col gap-4">
      <SessionFilters
        list={list}
        columns={columns}
        actions={
          <ExportCsvButton
            path={`${chatbotPath(chatbot.id)}/results/export`}
            fileName={resultsFileName(chatbot.name)}
          />
        }
      />
      <p className="text-sm text-fg-muted">
        The export holds every conversation, one row each, with the learner and a column per variable.
      </p>
      {chatbot.variables.length === 0 ? (
        <EmptyState icon={<Table2 />} title="This agent captures no variables">
          Add variables in Settings: each becomes a column here.
        </EmptyState>
      ) : (
        <SessionsTable
          caption="Captured values"
          columns={columns}
          list={list}
          empty={{
            icon: <Table2 />,
            title: 'Nothing captured yet',
            description: 'Values appear here as learners answer the agent’s questions.',
          }}
        />
      )}
    </div>
  );
}
