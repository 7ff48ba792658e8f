import {
  LEARNER_COURSE_DEFAULT_SORT,
  LEARNER_COURSE_SORT_KEYS,
  type LearnerCourse,
  type LearnerCourseSortKey,
} from '@courselens/contracts';
import { BookOpen, SearchX } from 'lucide-react';
import { Link, useParams } from 'react-router';

import { Badge } from '@/components/ui/badge';
import type { DataTableColumn } from '@/components/ui/data-table';
import { EmptyState } from '@/components/ui/empty-state';
import { paths } from '@/config/paths';
import { useSession } from '@/lib/auth';
import { formatDateTime, formatNumber } from '@/lib/format';
import { useListParams } from '@/lib/use-list-params';

import { useLearnerCourses } from '../api/get-learner-courses';

import { LearnerLayout } from './learner-layout';
import { ListSection } from './list-section';

const linkClassName =
  'rounded font-medium text-fg underline-offset-4 hover:text-accent hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-focus';

function CompletionBadge({ course }: { course: LearnerCourse }) {
  return course.completed ? (
    <Badge variant="success" title={course.completedAt ? formatDateTime(course.completedAt) : undefined}>
      Completed
    </Badge>
  ) : (
    <Badge variant="neutral">In progress</Badge>
  );
}

function courseColumns(learnerId: string): DataTableColumn<LearnerCourse, LearnerCourseSortKey>[] {
  return [
    {
      id: 'course',
      header: 'Course',
      sortKey: 'course',
      isRowHeader: true,
      cell: (course) => (
        <div className="flex min-w-0 flex-col">
          <Link
            to={paths.learners.courseVariables.href(learnerId, course.courseId)}
            className={linkClassName}
            title={`Variables of ${course.courseTitle}`}
          >
            {course.courseTitle}
          </Link>
          {course.externalCourseId ? (
            <span className="text-xs font-normal break-all text-fg-subtle">{course.externalCourseId}</span>
          ) : null}
          {/* On phones the other columns are hidden: their values go under the title. */}
          <span className="mt-1 flex flex-wrap items-center gap-2 text-xs font-normal text-fg-muted sm:hidden">
            {course.runs === 1 ? '1 run' : `${formatNumber(course.runs)} runs`} · last{' '}
            {formatDateTime(course.lastAccessAt)}
            <CompletionBadge course={course} />
          </span>
        </div>
      ),
    },
    {
      id: 'runs',
      header: 'Runs',
      sortKey: 'runs',
      align: 'right',
      className: 'hidden sm:table-cell',
      cell: (course) => formatNumber(course.runs),
    },
    {
      id: 'firstAccess',
      header: 'First access',
      sortKey: 'firstAccess',
      className: 'hidden whitespace-nowrap md:table-cell',
      cell: (course) => <time dateTime={course.firstAccessAt}>{formatDateTime(course.firstAccessAt)}</time>,
    },
    {
      id: 'lastAccess',
      header: 'Last access',
      sortKey: 'lastAccess',
      className: 'hidden whitespace-nowrap sm:table-cell',
      cell: (course) => <time dateTime={course.lastAccessAt}>{formatDateTime(course.lastAccessAt)}</time>,
    },
    {
      id: 'completed',
      header: 'Completed',
      sortKey: 'completed',
      cell: (course) =>
        course.completed ? (
          <Badge
            variant="success"
            title={course.completedAt ? formatDateTime(course.completedAt) : undefined}
          >
            Completed
          </Badge>
        ) : (
          <Badge variant="neutral">In progress</Badge>
        ),
    },
  ];
}

/** `/learner/:learnerId/courses`: the courses the learner has runs in. */
export function LearnerCoursesPage() {
  const { learnerId = '' } = useParams();
  const session = useSession();
  const [params, setParams] = useListParams(LEARNER_COURSE_SORT_KEYS, LEARNER_COURSE_DEFAULT_SORT);
  const courses = useLearnerCourses(session.currentOrganization?.id, learnerId, params);

  return (
    <LearnerLayout learnerId={learnerId} tab="courses" title="Courses">
      <ListSection
        caption="Courses of this learner"
        searchLabel="Search courses"
        searchPlaceholder="Search courses"
        columns={courseColumns(learnerId)}
        rowKey={(course) => course.courseId}
        params={params}
        onParamsChange={setParams}
        query={courses}
        exportPath={`/learners/${encodeURIComponent(learnerId)}/courses/export`}
        exportFileName="learner-courses.csv"
        noun="courses"
        emptySearch={
          <EmptyState icon={<SearchX />} title={`No course matches “${params.q}”`}>
            Try part of the course title or its external id.
          </EmptyState>
        }
        empty={
          <EmptyState icon={<BookOpen />} title="No courses yet">
            A course appears here once the learner starts it.
          </EmptyState>
        }
      />
    </LearnerLayout>
  );
}
