import {
  COURSE_LIST_DEFAULTS,
  COURSE_SORT_KEYS,
  DEFAULT_PAGE_SIZE,
  type CourseBody,
  type CourseSortKey,
} from '@courselens/contracts';
import { BookOpen, Plus } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';

import { ExportCsvButton } from '@/components/export-csv-button';
import { PageHeader } from '@/components/page-header';
import { Button } from '@/components/ui/button';
import { DataTable, type DataTableColumn } from '@/components/ui/data-table';
import { EmptyState } from '@/components/ui/empty-state';
import { Pagination } from '@/components/ui/pagination';
import { SearchField } from '@/components/ui/search-field';
import { paths } from '@/config/paths';
import { useSession } from '@/lib/auth';
import { useCanManage } from '@/lib/roles';
import { formatDateTime, formatNumber, formatRelative } from '@/lib/format';
import { useListParams } from '@/lib/use-list-params';

import { useCourses } from '../api/get-courses';

import { CourseFormDialog } from './course-form-dialog';
import { CourseRowMenu } from './course-row-menu';
import { DeleteCourseDialog } from './delete-course-dialog';

type Editing = { mode: 'create' } | { mode: 'edit'; course: CourseBody } | null;

/** /courses: the organization's courses with learners, views and last activity. */
export function CoursesPage() {
  const session = useSession();
  const organizationId = session.currentOrganization?.id;
  const [params, setParams] = useListParams(COURSE_SORT_KEYS, COURSE_LIST_DEFAULTS);
  const courses = useCourses(organizationId, params);
  const [editing, setEditing] = useState<Editing>(null);
  const [toDelete, setToDelete] = useState<CourseBody | null>(null);
  const deletion = useCanManage('course-deletion');

  const columns: DataTableColumn<CourseBody, CourseSortKey>[] = [
    {
      id: 'title',
      header: 'Title',
      sortKey: 'title',
      isRowHeader: true,
      cell: (course) => (
        <div className="flex min-w-0 flex-col">
          <Link
            to={paths.courses.learners.href(course.id)}
            className="rounded break-words hover:underline focus-visible:outline-2 focus-visible:outline-focus"
          >
            {course.courseTitle}
          </Link>
          {course.externalCourseId ? (
            <span className="font-mono text-xs font-normal break-all text-fg-subtle md:hidden">
              {course.externalCourseId}
            </span>
          ) : null}
          {/* Phones show one readable column: the hidden columns' essentials go here. */}
          <span className="mt-1 text-xs font-normal text-fg-muted sm:hidden">
            {formatNumber(course.learners)} learners · {formatNumber(course.views)} views
          </span>
        </div>
      ),
    },
    {
      id: 'externalCourseId',
      header: 'External ID',
      sortKey: 'externalCourseId',
      className: 'hidden md:table-cell',
      cell: (course) =>
        course.externalCourseId ? (
          <code className="font-mono text-xs">{course.externalCourseId}</code>
        ) : (
          <span className="text-fg-subtle">—</span>
        ),
    },
    {
      id: 'learners',
      header: 'Learners',
      sortKey: 'learners',
      align: 'right',
      className: 'hidden sm:table-cell',
      cell: (course) => formatNumber(course.learners),
    },
    {
      id: 'views',
      header: 'Views',
      sortKey: 'views',
      align: 'right',
      className: 'hidden sm:table-cell',
      cell: (course) => formatNumber(course.views),
    },
    {
      id: 'lastActivity',
      header: 'Last activity',
      sortKey: 'lastActivity',
      className: 'hidden lg:table-cell whitespace-nowrap',
      cell: (course) =>
        course.lastActivityAt ? (
          <time dateTime={course.lastActivityAt} title={formatDateTime(course.lastActivityAt)}>
            {formatRelative(course.lastActivityAt)}
          </time>
        ) : (
          <span className="text-fg-subtle">No activity yet</span>
        ),
    },
    {
      id: 'actions',
      header: <span className="sr-only">Actions</span>,
      align: 'right',
      className: 'w-12',
      cell: (course) => (
        <CourseRowMenu
          course={course}
          onEdit={(selected) => setEditing({ mode: 'edit', course: selected })}
          onDelete={setToDelete}
          deleteDisabledReason={deletion.reason}
        />
      ),
    },
  ];

  const data = courses.data;
  const hasSearch = params.q !== '';

  return (
    <div className="mx-auto flex w-full max-w-6xl min-w-0 flex-col gap-6 px-4 py-8 sm:px-6 lg:px-8">
      <title>Courses · CourseLens</title>
      <PageHeader
        title="Courses"
        description="Every course of your organization with its learners, views (course runs) and last activity."
        actions={
          <>
            <ExportCsvButton
              path="/courses/export"
              query={{ q: params.q || undefined, sort: params.sort, order: params.order }}
              fileName="courses.csv"
            />
            <Button onClick={() => setEditing({ mode: 'create' })} disabled={!organizationId}>
              <Plus aria-hidden="true" />
              New course
            </Button>
          </>
        }
      />
      <SearchField
        label="Search courses"
        placeholder="Search by title or external ID"
        value={params.q}
        onChange={(q) => setParams({ q })}
      />
      <DataTable
        caption="Courses"
        columns={columns}
        rows={data?.items}
        rowKey={(course) => course.id}
        isLoading={courses.isPending}
        isFetching={courses.isFetching && courses.isPlaceholderData}
        error={courses.isError ? courses.error.message : null}
        sort={{ sort: params.sort, order: params.order }}
        onSortChange={(sort) => setParams(sort)}
        empty={
          hasSearch ? (
            <EmptyState icon={<BookOpen />} title="No courses match your search">
              Try another title or external ID.
            </EmptyState>
          ) : (
            <EmptyState
              icon={<BookOpen />}
              title="No courses yet"
              action={
                <Button onClick={() => setEditing({ mode: 'create' })}>
                  <Plus aria-hidden="true" />
                  New course
                </Button>
              }
            >
              Create one here, or let a course register itself when it first sends data with an ingest key.
            </EmptyState>
          )
        }
      />
      {data && data.total > 0 ? (
        <Pagination
          page={params.page}
          pageSize={data.pageSize || DEFAULT_PAGE_SIZE}
          total={data.total}
          onPageChange={(page) => setParams({ page })}
          noun="courses"
        />
      ) : null}
      <CourseFormDialog
        open={editing !== null}
        onClose={() => setEditing(null)}
        organizationId={organizationId}
        course={editing?.mode === 'edit' ? editing.course : null}
      />
      <DeleteCourseDialog
        course={toDelete}
        organizationId={organizationId}
        onClose={() => setToDelete(null)}
      />
    </div>
  );
}
