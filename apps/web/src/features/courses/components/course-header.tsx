import { ArrowLeft } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link, NavLink } from 'react-router';

import { paths } from '@/config/paths';
import { useSession } from '@/lib/auth';
import { cn } from '@/lib/cn';
import { formatNumber, formatRelative } from '@/lib/format';

import { useCourse } from '../api/get-course';

export type CourseTab = 'learners' | 'variables' | 'questions' | 'broadcasts';

export type CourseHeaderProps = {
  courseId: string;
  /**
   * The title to show instead of the course's own: the broadcasts screen
   * shows its `title` query parameter (spec section 2). Empty: the course's.
   */
  title?: string | null;
  /** Buttons at the right of the title (export...). */
  actions?: ReactNode;
};

/**
 * The head of every screen of one course: back to the courses, the title and
 * external id with its counts, and tabs to the course's learners, variables,
 * questions and broadcasts. It loads the course itself (`GET /api/courses/{id}`),
 * so a screen only passes the id. A course that does not exist shows its
 * error in place of the title.
 */
export function CourseHeader({ courseId, title: givenTitle, actions }: CourseHeaderProps) {
  const session = useSession();
  const course = useCourse(session.currentOrganization?.id, courseId);
  const title = givenTitle || course.data?.courseTitle || (course.isError ? 'Course' : 'Loading course…');

  const tabs: { key: CourseTab; label: string; href: string }[] = [
    { key: 'learners', label: 'Learners', href: paths.courses.learners.href(courseId) },
    { key: 'variables', label: 'Variables', href: paths.courses.variables.href(courseId) },
    { key: 'questions', label: 'Questions', href: paths.courses.questions.href(courseId) },
    {
      key: 'broadcasts',
      label: 'Broadcasts',
      href: paths.courses.broadcasts.href(courseId, givenTitle || course.data?.courseTitle || undefined),
    },
  ];

  return (
    <header className="flex flex-col gap-4">
      <title>{`${title} · CourseLens`}</title>
      <Link
        to={paths.courses.list.href()}
        className="inline-flex w-fit items-center gap-1.5 rounded text-sm text-fg-muted hover:text-fg focus-visible:outline-2 focus-visible:outline-focus"
      >
        <ArrowLeft aria-hidden="true" className="size-4" />
        All courses
      </Link>
      <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <div className="min-w-0">
          <h1 className="text-2xl font-bold tracking-tight text-balance break-words text-fg sm:text-3xl">
            {title}
          </h1>
          {course.isError ? (
            <p role="alert" className="mt-1.5 text-sm text-rose-600 dark:text-rose-400">
              {course.error.message}
            </p>
          ) : course.data ? (
            <p className="mt-1.5 flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-fg-muted">
              {course.data.externalCourseId ? (
                <code className="rounded bg-surface-muted px-1.5 py-0.5 font-mono text-xs text-fg">
                  {course.data.externalCourseId}
                </code>
              ) : null}
              <span>
                {formatNumber(course.data.learners)} {course.data.learners === 1 ? 'learner' : 'learners'}
              </span>
              <span>
                {formatNumber(course.data.views)} {course.data.views === 1 ? 'view' : 'views'}
              </span>
              <span>Last activity {formatRelative(course.data.lastActivityAt)}</span>
            </p>
          ) : null}
        </div>
        {actions ? <div className="flex shrink-0 flex-wrap gap-2">{actions}</div> : null}
      </div>
      <nav aria-label="Course sections" className="-mx-4 overflow-x-auto px-4 sm:mx-0 sm:px-0">
        <ul className="flex min-w-max gap-1 border-b border-line">
          {tabs.map((tab) => (
            <li key={tab.key}>
              <NavLink
                to={tab.href}
                className={({ isActive }) =>
                  cn(
                    '-mb-px inline-flex h-10 items-center border-b-2 px-3 text-sm font-medium transition-colors',
                    'rounded-t-lg focus-visible:outline-2 focus-visible:outline-focus',
                    isActive
                      ? 'border-brand-600 text-fg dark:border-brand-400'
                      : 'border-transparent text-fg-muted hover:border-line-strong hover:text-fg',
                  )
                }
              >
                {tab.label}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
    </header>
  );
}
