import {
  COURSE_LEARNER_LIST_DEFAULTS,
  COURSE_LEARNER_SORT_KEYS,
  type CourseLearnerBody,
  type CourseLearnerSortKey,
} from '@courselens/contracts';
import { GraduationCap } from 'lucide-react';
import { useParams } from 'react-router';

import { EmailText } from '@/components/email-text';
import { ExportCsvButton } from '@/components/export-csv-button';
import { FilterBar } from '@/components/filter-bar';
import { HeaderActions } from '@/components/header-actions';
import { SortSelect } from '@/components/sort-select';
import { DataTable, type DataTableColumn } from '@/components/ui/data-table';
import { EmptyState } from '@/components/ui/empty-state';
import { Pagination } from '@/components/ui/pagination';
import { SearchField } from '@/components/ui/search-field';
import { useSession } from '@/lib/auth';
import { formatDateTime, formatNumber, formatRelative } from '@/lib/format';
import { useListParams } from '@/lib/use-list-params';

import { useCourseLearners } from '../api/get-course-learners';

const columns: DataTableColumn<CourseLearnerBody, CourseLearnerSortKey>[] = [
  {
    id: 'name',
    header: 'Name',
    sortKey: 'name',
    isRowHeader: true,
    cell: (learner) => (
      <div className="flex min-w-0 flex-col">
        <span className="break-words">{learner.name ?? '—'}</span>
        {/* On phones the other columns are hidden: their values go under the name. */}
        <EmailText email={learner.email} className="text-xs font-normal text-fg-subtle md:hidden" />
        <span className="text-xs font-normal text-fg-subtle sm:hidden">
          {learner.access_count === 1 ? '1 access' : `${formatNumber(learner.access_count)} accesses`} · last{' '}
          {formatRelative(learner.last_access)}
        </span>
      </div>
    ),
  },
  {
    id: 'email',
    header: 'Email',
    sortKey: 'email',
    className: 'hidden md:table-cell',
    cell: (learner) => <EmailText email={learner.email} />,
  },
  {
    id: 'firstAccess',
    header: 'First access',
    sortKey: 'firstAccess',
    className: 'hidden lg:table-cell whitespace-nowrap',
    cell: (learner) => <time dateTime={learner.first_access}>{formatDateTime(learner.first_access)}</time>,
  },
  {
    id: 'lastAccess',
    header: 'Last access',
    sortKey: 'lastAccess',
    className: 'hidden sm:table-cell whitespace-nowrap',
    cell: (learner) => <time dateTime={learner.last_access}>{formatDateTime(learner.last_access)}</time>,
  },
  {
    id: 'accessCount',
    header: 'Accesses',
    sortKey: 'accessCount',
    align: 'right',
    className: 'hidden sm:table-cell',
    cell: (learner) => formatNumber(learner.access_count),
  },
];

/**
 * /course/:courseId/learners: who took the course, when first and last, how
 * often. The course layout draws the header above it.
 */
export function CourseLearnersPage() {
  const { courseId = '' } = useParams();
  const session = useSession();
  const organizationId = session.currentOrganization?.id;
  const [params, setParams] = useListParams(COURSE_LEARNER_SORT_KEYS, COURSE_LEARNER_LIST_DEFAULTS);
  const learners = useCourseLearners(organizationId, courseId, params);
  const data = learners.data;

  return (
    <div className="flex min-w-0 flex-col gap-6">
      <HeaderActions>
        <ExportCsvButton
          path={`/courses/${encodeURIComponent(courseId)}/learners/export`}
          query={{ q: params.q || undefined, sort: params.sort, order: params.order }}
          fileName="course-learners.csv"
        />
      </HeaderActions>
      <FilterBar
        search={
          <SearchField
            label="Search learners"
            placeholder="Name or e-mail"
            value={params.q}
            onChange={(q) => setParams({ q })}
          />
        }
      >
        {/* Phones hide most columns and their sort buttons: every sort is offered here. */}
        <SortSelect
          columns={columns}
          sort={params.sort}
          order={params.order}
          onChange={(sort) => setParams(sort)}
          className="md:hidden"
        />
      </FilterBar>
      <DataTable
        caption="Learners of the course"
        columns={columns}
        rows={data?.items}
        rowKey={(learner) => learner.id}
        isLoading={learners.isPending}
        isFetching={learners.isFetching && learners.isPlaceholderData}
        error={learners.isError ? learners.error.message : null}
        sort={{ sort: params.sort, order: params.order }}
        onSortChange={(sort) => setParams(sort)}
        empty={
          <EmptyState
            icon={<GraduationCap />}
            title={params.q ? 'No learners match your search' : 'No learners yet'}
          >
            {params.q
              ? 'Try another name or email.'
              : 'Learners appear here once they open the course with the tracker installed.'}
          </EmptyState>
        }
      />
      {data && data.total > 0 ? (
        <Pagination
          page={params.page}
          pageSize={data.pageSize}
          total={data.total}
          onPageChange={(page) => setParams({ page })}
          noun="learners"
        />
      ) : null}
    </div>
  );
}
