import { CHAT_SESSION_SORT_KEYS } from '@courselens/contracts';
import { useCallback, useMemo, type ReactNode } from 'react';
import { useSearchParams } from 'react-router';

import { FilterBar } from '@/components/filter-bar';
import { SortSelect } from '@/components/sort-select';
import type { DataTableColumn } from '@/components/ui/data-table';
import { SearchField } from '@/components/ui/search-field';
import { inputClassName } from '@/components/ui/text-field';
import { cn } from '@/lib/cn';
import type { OrganizationIdInput } from '@/lib/query-keys';
import { useListParams } from '@/lib/use-list-params';

import {
  useChatSessions,
  type ChatSessionListParams,
  type ChatSessionSortKey,
} from '../api/get-chat-sessions';

import { CHAT_SESSION_LIST_DEFAULTS, readCaptured } from './session-list-params';

/** An agent's conversation list as the URL holds it, with its setters (the other parameters, such as the tab, stay). */
function useChatSessionListParams() {
  const [list, setList] = useListParams(CHAT_SESSION_SORT_KEYS, CHAT_SESSION_LIST_DEFAULTS);
  const [searchParams, setSearchParams] = useSearchParams();
  const captured = readCaptured(searchParams);
  const params = useMemo<ChatSessionListParams>(() => ({ ...list, captured }), [list, captured]);

  const setCaptured = useCallback(
    (value: boolean | null) => {
      setSearchParams(
        (previous) => {
          const next = new URLSearchParams(previous);
          if (value === null) next.delete('captured');
          else next.set('captured', String(value));
          next.delete('page');
          return next;
        },
        { replace: true },
      );
    },
    [setSearchParams],
  );

  return { params, setList, setCaptured };
}

/** One page of an agent's conversations as the URL asks for it, with what changes the URL. */
export function useChatSessionList(organizationId: OrganizationIdInput, chatbotId: string) {
  const { params, setList, setCaptured } = useChatSessionListParams();
  const sessions = useChatSessions(organizationId, chatbotId, params);
  return { params, setList, setCaptured, sessions };
}

export type ChatSessionList = ReturnType<typeof useChatSessionList>;

export type SessionFiltersProps<Row> = {
  list: ChatSessionList;
  /** The table's columns, for the sort menu phones get in place of the column headers. */
  columns: readonly DataTableColumn<Row, ChatSessionSortKey>[];
  actions?: ReactNode;
};

/** Search by learner, "captured or not", and every sort, above a list of conversations. */
export function SessionFilters<Row>({ list, columns, actions }: SessionFiltersProps<Row>) {
  const { params, setList, setCaptured } = list;
  return (
    <FilterBar
      activeCount={params.captured === null ? 0 : 1}
      actions={actions}
      search={
        <SearchField
          label="Search conversations by learner"
          placeholder="Search by learner"
          value={params.q}
          onChange={(q) => setList({ q })}
        />
      }
    >
      <label className="flex items-center gap-2 text-sm whitespace-nowrap text-fg-muted">
        Captured
        <select
          value={params.captured === null ? '' : String(params.captured)}
          onChange={(event) => setCaptured(event.target.value === '' ? null : event.target.value === 'true')}
          className={cn(inputClassName, 'min-w-0 flex-1 md:w-52')}
        >
          <option value="">All conversations</option>
          <option value="true">Every required value</option>
          <option value="false">Values still missing</option>
        </select>
      </label>
      <SortSelect
        columns={columns}
        sort={params.sort}
        order={params.order}
        onChange={(sort) => setList(sort)}
        className="md:hidden"
      />
    </FilterBar>
  );
}
