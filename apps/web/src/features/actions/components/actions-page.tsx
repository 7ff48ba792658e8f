import {
  ACTION_SORT_KEYS,
  ACTION_TYPE_LABELS,
  ACTION_TYPES,
  type ActionListItem,
  type ActionSortKey,
} from '@courselens/contracts';
import { Pencil, Plus, Trash2, Workflow, Zap } from 'lucide-react';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';

import { FilterBar } from '@/components/filter-bar';
import { PageHeader } from '@/components/page-header';
import { SortSelect } from '@/components/sort-select';
import { Badge } from '@/components/ui/badge';
import { Button, buttonClassName } from '@/components/ui/button';
import { DataTable, type DataTableColumn } from '@/components/ui/data-table';
import { EmptyState } from '@/components/ui/empty-state';
import { Pagination } from '@/components/ui/pagination';
import { SearchField } from '@/components/ui/search-field';
import { inputClassName } from '@/components/ui/text-field';
import { paths } from '@/config/paths';
import { useSession } from '@/lib/auth';
import { cn } from '@/lib/cn';
import { formatDateTime, formatNumber, formatRelative } from '@/lib/format';
import { useListParams } from '@/lib/use-list-params';

import { ACTIONS_PAGE_SIZE, useActions } from '../api/get-actions';

import { ACTION_LIST_DEFAULTS, readActionType } from './action-list-params';
import { ActionTypeBadge } from './action-type-badge';
import { DeleteActionDialog } from './delete-action-dialog';

/** `/actions`: the organization's actions (the steps pipelines run), newest first. */
export function ActionsPage() {
  const organizationId = useSession().currentOrganization?.id;
  const [params, setParams] = useListParams(ACTION_SORT_KEYS, ACTION_LIST_DEFAULTS);
  const [searchParams, setSearchParams] = useSearchParams();
  const type = readActionType(searchParams);
  const actions = useActions(organizationId, { ...params, type });
  const [toDelete, setToDelete] = useState<ActionListItem | null>(null);

  function handleTypeChange(value: string) {
    setSearchParams(
      (previous) => {
        const next = new URLSearchParams(previous);
        if (value) next.set('type', value);
        else next.delete('type');
        next.delete('page');
        return next;
      },
      { replace: true },
    );
  }

  const columns: DataTableColumn<ActionListItem, ActionSortKey>[] = [
    {
      id: 'name',
      header: 'Name',
      sortKey: 'name',
      isRowHeader: true,
      cell: (action) => (
        <div className="flex min-w-0 flex-col gap-1">
          <span className="flex flex-wrap items-center gap-2">
            <Link
              to={paths.actions.edit.href(action.id)}
              className="rounded font-medium break-words hover:underline focus-visible:outline-2 focus-visible:outline-focus"
            >
              {action.name}
            </Link>
            {action.active ? null : <Badge>Paused</Badge>}
          </span>
          {action.description ? (
            <span className="line-clamp-2 text-xs font-normal break-words text-fg-muted">
              {action.description}
            </span>
          ) : null}
          {/* Phones hide the type and target columns: their content moves here. */}
          <span className="flex min-w-0 flex-col gap-1 font-normal md:hidden">
            <span>
              <ActionTypeBadge type={action.type} />
            </span>
            {/* Wraps (a URL anywhere) instead of widening the table past the screen. */}
            <span className="line-clamp-2 text-xs break-all text-fg-muted" title={action.target}>
              {action.target}
            </span>
          </span>
        </div>
      ),
    },
    {
      id: 'type',
      header: 'Type',
      sortKey: 'type',
      className: 'hidden md:table-cell whitespace-nowrap',
      cell: (action) => <ActionTypeBadge type={action.type} />,
    },
    {
      id: 'target',
      header: 'Target',
      className: 'hidden md:table-cell max-w-72',
      cell: (action) => (
        <span
          className={cn(
            'block truncate text-sm text-fg-muted',
            action.type === 'webhook' ? 'font-mono text-xs' : null,
          )}
          title={action.target}
        >
          {action.target}
        </span>
      ),
    },
    {
      id: 'usedBy',
      header: 'Used by',
      align: 'right',
      className: 'hidden lg:table-cell whitespace-nowrap',
      cell: (action) => (
        <span title="Pipelines with a step that runs this action">
          {formatNumber(action.usedByPipelines)} {action.usedByPipelines === 1 ? 'pipeline' : 'pipelines'}
        </span>
      ),
    },
    {
      id: 'created',
      header: 'Created',
      sortKey: 'createdAt',
      className: 'hidden sm:table-cell whitespace-nowrap',
      cell: (action) => (
        <span className="flex flex-col">
          <time dateTime={action.createdAt} title={formatDateTime(action.createdAt)}>
            {formatRelative(action.createdAt)}
          </time>
          {action.createdByName ? (
            <span className="text-xs text-fg-subtle">by {action.createdByName}</span>
          ) : null}
        </span>
      ),
    },
    {
      id: 'row-actions',
      header: <span className="sr-only">Row actions</span>,
      align: 'right',
      cell: (action) => (
        <div className="flex justify-end gap-1">
          <Link
            to={paths.actions.edit.href(action.id)}
            className={buttonClassName({ variant: 'ghost', size: 'icon' })}
            aria-label={`Edit ${action.name}`}
            title="Edit"
          >
            <Pencil aria-hidden="true" />
          </Link>
          <Button
            variant="ghost"
            size="icon"
            aria-label={`Delete ${action.name}`}
            title="Delete"
            onClick={() => setToDelete(action)}
          >
            <Trash2 aria-hidden="true" />
          </Button>
        </div>
      ),
    },
  ];

  const data = actions.data;
  const newAction = (
    <Link to={paths.actions.create.href()} className={buttonClassName()}>
      <Plus aria-hidden="true" />
      New action
    </Link>
  );
  const isFiltered = params.q !== '' || type !== null;

  return (
    <div className="mx-auto flex w-full max-w-6xl min-w-0 flex-col gap-6 px-4 py-8 sm:px-6 lg:px-8">
      <title>Actions · CourseLens</title>
      <PageHeader
        title="Actions"
        description="Reusable steps your pipelines run: send a signed webhook or an e-mail, set a broadcast or a variable, notify the team."
        actions={
          <>
            <Link to={paths.pipelines.list.href()} className={buttonClassName({ variant: 'outline' })}>
              <Workflow aria-hidden="true" />
              Pipelines
            </Link>
            {newAction}
          </>
        }
      />
      <FilterBar
        activeCount={type === null ? 0 : 1}
        search={
          <SearchField
            label="Search actions"
            placeholder="Search by name"
            value={params.q}
            onChange={(q) => setParams({ q })}
          />
        }
      >
        <label className="flex items-center gap-2 text-sm whitespace-nowrap text-fg-muted">
          Type
          <select
            value={type ?? ''}
            onChange={(event) => handleTypeChange(event.target.value)}
            className={cn(inputClassName, 'min-w-0 flex-1 md:w-48')}
          >
            <option value="">All types</option>
            {ACTION_TYPES.map((option) => (
              <option key={option} value={option}>
                {ACTION_TYPE_LABELS[option]}
              </option>
            ))}
          </select>
        </label>
        <SortSelect
          columns={columns}
          sort={params.sort}
          order={params.order}
          onChange={(sort) => setParams(sort)}
          className="md:hidden"
        />
      </FilterBar>
      <DataTable
        caption="Actions"
        columns={columns}
        rows={data?.items}
        rowKey={(action) => action.id}
        isLoading={actions.isPending}
        isFetching={actions.isFetching && actions.isPlaceholderData}
        error={actions.isError && !data ? actions.error.message : null}
        sort={{ sort: params.sort, order: params.order }}
        onSortChange={(sort) => setParams(sort)}
        empty={
          isFiltered ? (
            <EmptyState icon={<Zap />} title="No actions match">
              Try another name or type.
            </EmptyState>
          ) : (
            <EmptyState icon={<Zap />} title="No actions yet" action={newAction}>
              An action is a step a pipeline runs when something happens in a course: tell another system with
              a signed webhook, e-mail the learner, or post a message for your team.
            </EmptyState>
          )
        }
      />
      {data && data.total > 0 ? (
        <Pagination
          page={params.page}
          pageSize={data.pageSize || ACTIONS_PAGE_SIZE}
          total={data.total}
          onPageChange={(page) => setParams({ page })}
          noun="actions"
        />
      ) : null}
      <DeleteActionDialog
        action={toDelete}
        organizationId={organizationId}
        onClose={() => setToDelete(null)}
      />
    </div>
  );
}
