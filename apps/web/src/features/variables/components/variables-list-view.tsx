import type { ListVariablesResponse, VariableListItem, VariableSortKey } from '@courselens/contracts';
import { Pencil, Variable as VariableIcon } from 'lucide-react';
import { useId, useState } from 'react';
import { Link } from 'react-router';

import { FilterBar } from '@/components/filter-bar';
import { Badge, type BadgeVariant } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { DataTable, type DataTableColumn } from '@/components/ui/data-table';
import { EmptyState } from '@/components/ui/empty-state';
import { Pagination } from '@/components/ui/pagination';
import { SearchField } from '@/components/ui/search-field';
import { Switch } from '@/components/ui/switch';
import { inputClassName } from '@/components/ui/text-field';
import { paths } from '@/config/paths';
import { isApiError } from '@/lib/api-client';
import { cn } from '@/lib/cn';
import { formatDateTime, formatNumber, formatRelative } from '@/lib/format';
import { toast } from '@/lib/toast';
import type { ListParams } from '@/lib/use-list-params';

import { VARIABLES_PAGE_SIZE, type VariableListParams } from '../api/get-variables';
import { useVariableCourses } from '../api/get-variable-courses';
import { useUpdateVariable } from '../api/update-variable';

import { EditDescriptionDialog } from './edit-description-dialog';
import type { VariableStatusFilter } from './use-variable-filters';

const dataTypeBadge: Record<VariableListItem['dataType'], BadgeVariant> = {
  number: 'brand',
  text: 'neutral',
  boolean: 'success',
  date: 'warning',
};

export type VariablesListViewProps = {
  organizationId: string | null | undefined;
  params: VariableListParams;
  status: VariableStatusFilter;
  updateList: (changes: Partial<ListParams<VariableSortKey>>) => void;
  setFilter: (name: 'course' | 'status', value: string | undefined) => void;
  data: ListVariablesResponse | undefined;
  isPending: boolean;
  isFetching: boolean;
  error: unknown;
  /** The organization-wide list shows each variable's course and filters by course. */
  isOrganizationWide: boolean;
};

/** Toolbar, table, pagination and description dialog of a variables list. */
export function VariablesListView({
  organizationId,
  params,
  status,
  updateList,
  setFilter,
  data,
  isPending,
  isFetching,
  error,
  isOrganizationWide,
}: VariablesListViewProps) {
  const [editing, setEditing] = useState<VariableListItem | null>(null);
  const updateVariable = useUpdateVariable(organizationId);
  const courseSelectId = useId();
  const statusSelectId = useId();
  const courses = useVariableCourses(isOrganizationWide ? organizationId : null);

  function handleToggle(variable: VariableListItem, active: boolean) {
    updateVariable.mutate(
      { variableId: variable.id, active },
      {
        onError: (cause) =>
          toast.error(
            isApiError(cause)
              ? cause.message
              : `${variable.name} could not be turned ${active ? 'on' : 'off'}. Please try again.`,
          ),
      },
    );
  }

  const columns: DataTableColumn<VariableListItem, VariableSortKey>[] = [
    {
      id: 'name',
      header: 'Variable',
      sortKey: 'name',
      isRowHeader: true,
      cell: (row) => (
        <div className="sm:min-w-36">
          <Link
            to={
              isOrganizationWide
                ? paths.variables.report.href(row.name)
                : paths.variables.courseReport.href(row.courseId, row.name)
            }
            className="font-mono text-[13px] break-all text-fg hover:text-brand-700 hover:underline dark:hover:text-brand-300"
          >
            {row.name}
          </Link>
          {row.title && row.title !== row.name ? (
            <div className="mt-0.5 text-xs font-normal text-fg-muted">{row.title}</div>
          ) : null}
          {/* Phones show one readable column: the hidden columns' essentials go here. */}
          <div className="mt-1 text-xs font-normal text-fg-subtle sm:hidden">
            {formatNumber(row.usageCount)} values{isOrganizationWide ? ` · ${row.courseTitle}` : ''}
          </div>
        </div>
      ),
    },
    ...(isOrganizationWide
      ? [
          {
            id: 'course',
            header: 'Course',
            sortKey: 'course',
            className: 'hidden sm:table-cell',
            cell: (row: VariableListItem) => (
              <Link
                to={paths.courses.variables.href(row.courseId)}
                className="font-medium text-fg hover:text-brand-700 hover:underline dark:hover:text-brand-300"
              >
                {row.courseTitle}
              </Link>
            ),
          } satisfies DataTableColumn<VariableListItem, VariableSortKey>,
        ]
      : []),
    {
      id: 'dataType',
      header: 'Type',
      sortKey: 'dataType',
      className: 'hidden md:table-cell',
      cell: (row) => <Badge variant={dataTypeBadge[row.dataType]}>{row.dataType}</Badge>,
    },
    {
      id: 'usageCount',
      header: 'Values',
      sortKey: 'usageCount',
      align: 'right',
      className: 'hidden sm:table-cell',
      cell: (row) => <span className="font-medium text-fg">{formatNumber(row.usageCount)}</span>,
    },
    {
      id: 'learnerCount',
      header: 'Learners',
      sortKey: 'learnerCount',
      align: 'right',
      className: 'hidden md:table-cell',
      cell: (row) => formatNumber(row.learnerCount),
    },
    {
      id: 'lastRecordedAt',
      header: 'Last value',
      sortKey: 'lastRecordedAt',
      className: 'hidden xl:table-cell',
      cell: (row) =>
        row.lastRecordedAt ? (
          <time
            dateTime={row.lastRecordedAt}
            title={formatDateTime(row.lastRecordedAt)}
            className="whitespace-nowrap"
          >
            {formatRelative(row.lastRecordedAt)}
          </time>
        ) : (
          'Never'
        ),
    },
    {
      id: 'description',
      header: 'Description',
      className: 'hidden lg:table-cell',
      cell: (row) =>
        row.description ? (
          <p className="line-clamp-2 max-w-xs text-sm">{row.description}</p>
        ) : (
          <span className="text-fg-subtle">No description</span>
        ),
    },
    {
      id: 'active',
      header: 'Active',
      sortKey: 'active',
      cell: (row) => (
        <Switch
          checked={row.active}
          onChange={(active) => handleToggle(row, active)}
          label={`Active: ${row.name}`}
        />
      ),
    },
    {
      id: 'edit',
      header: <span className="sr-only">Actions</span>,
      align: 'right',
      cell: (row) => (
        <Button
          variant="ghost"
          size="sm"
          aria-label={`Edit description of ${row.name}`}
          title="Edit description"
          onClick={() => setEditing(row)}
        >
          <Pencil aria-hidden="true" />
          <span className="hidden sm:inline">Edit</span>
        </Button>
      ),
    },
  ];

  const hasFilters = Boolean(params.q || params.courseId || status !== 'all');
  const errorMessage = error
    ? isApiError(error)
      ? error.message
      : 'The variables could not be loaded. Please try again.'
    : null;

  return (
    <div className="flex flex-col gap-4">
      <FilterBar
        activeCount={(params.courseId ? 1 : 0) + (status !== 'all' ? 1 : 0)}
        search={
          <SearchField
            label="Search variables"
            placeholder="Search by name or title"
            value={params.q}
            onChange={(q) => updateList({ q })}
          />
        }
      >
        {isOrganizationWide ? (
          <div className="flex flex-col">
            <label htmlFor={courseSelectId} className="sr-only">
              Course
            </label>
            <select
              id={courseSelectId}
              value={params.courseId ?? ''}
              onChange={(event) => setFilter('course', event.target.value)}
              className={cn(inputClassName, 'md:w-56')}
            >
              <option value="">All courses</option>
              {(courses.data ?? []).map((course) => (
                <option key={course.id} value={course.id}>
                  {course.courseTitle} ({course.variables})
                </option>
              ))}
            </select>
          </div>
        ) : null}
        <div className="flex flex-col">
          <label htmlFor={statusSelectId} className="sr-only">
            Status
          </label>
          <select
            id={statusSelectId}
            value={status}
            onChange={(event) => setFilter('status', event.target.value)}
            className={cn(inputClassName, 'md:w-48')}
          >
            <option value="all">Active and inactive</option>
            <option value="active">Active only</option>
            <option value="inactive">Inactive only</option>
          </select>
        </div>
      </FilterBar>

      <DataTable
        caption="Variables"
        columns={columns}
        rows={data?.items}
        rowKey={(row) => row.id}
        isLoading={isPending}
        isFetching={isFetching}
        error={errorMessage}
        sort={{ sort: params.sort, order: params.order }}
        onSortChange={(sort) => updateList(sort)}
        empty={
          hasFilters ? (
            <EmptyState icon={<VariableIcon aria-hidden="true" />} title="No variables match">
              Try another search or filter.
            </EmptyState>
          ) : (
            <EmptyState icon={<VariableIcon aria-hidden="true" />} title="No variables yet">
              Variables appear when a course sends its first value (a <code>variable.set</code> event).
            </EmptyState>
          )
        }
      />
      {data && data.total > 0 ? (
        <Pagination
          page={data.page}
          pageSize={VARIABLES_PAGE_SIZE}
          total={data.total}
          onPageChange={(page) => updateList({ page })}
          noun="variables"
        />
      ) : null}
      <EditDescriptionDialog
        organizationId={organizationId}
        variable={editing}
        onClose={() => setEditing(null)}
      />
    </div>
  );
}
