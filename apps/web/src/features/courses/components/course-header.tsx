import { ArrowLeft, BookX } from 'lucide-react';
import type { Ref } from 'react';
import { Link, matchPath, useLocation } from 'react-router';

import { PageMessage } from '@/components/page-message';
import { ReportTabs } from '@/components/report-tabs';
import { buttonClassName } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { isApiError } from '@/lib/api-client';
import { useSession } from '@/lib/auth';
import { formatNumber, formatRelative } from '@/lib/format';

import { useCourse } from '../api/get-course';

export type CourseTab = 'learners' | 'variables' | 'questions' | 'broadcasts';

/** The sections of a course, in tab order, with the route each one lives on. */
export const COURSE_SECTIONS: readonly { key: CourseTab; label: string; path: string }[] = [
  { key: 'learners', label: 'Learners', path: paths.courses.learners.path },
  { key: 'variables', label: 'Variables', path: paths.courses.variables.path },
  { key: 'questions', label: 'Questions', path: paths.courses.questions.path },
  { key: 'broadcasts', label: 'Broadcasts', path: paths.courses.broadcasts.path },
];

/** The course section a path belongs to, if any. */
export function courseSectionOf(pathname: string): CourseTab | null {
  return COURSE_SECTIONS.find((section) => matchPath(section.path, pathname))?.key ?? null;
}

export type CourseHeaderProps = {
  courseId: string;
  /**
   * The title to show instead of the course's own: the broadcasts screen
   * shows its `title` query parameter (spec section 2). Empty: the course's.
   */
  title?: string | null;
  /** The element the current page puts its buttons in (export...), see `HeaderActions`. */
  actionsRef?: Ref<HTMLDivElement>;
};

/**
 * The head of every screen of one course: back to the courses, the title and
 * external id with its counts, and the tabs Learners, Variables, Questions
 * and Broadcasts (they scroll sideways on a narrow screen). It loads the
 * course itself (`GET /api/courses/{id}`), so a screen only passes the id.
 */
export function CourseHeader({ courseId, title: givenTitle, actionsRef }: CourseHeaderProps) {
  const session = useSession();
  const { pathname } = useLocation();
  const course = useCourse(session.currentOrganization?.id, courseId);
  const title = givenTitle || course.data?.courseTitle || (course.isError ? 'Course' : 'Loading course…');
  const section = courseSectionOf(pathname);
  const sectionLabel = COURSE_SECTIONS.find((entry) => entry.key === section)?.label;

  const tabs = COURSE_SECTIONS.map((entry) => ({
    id: entry.key,
    label: entry.label,
    href:
      entry.key === 'broadcasts'
        ? paths.courses.broadcasts.href(courseId, givenTitle || course.data?.courseTitle || undefined)
        : paths.courses[entry.key].href(courseId),
  }));

  return (
    <header className="flex flex-col gap-4">
      <title>{`${title}${sectionLabel ? ` · ${sectionLabel}` : ''} · CourseLens`}</title>
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
                <code
                  className="rounded bg-surface-muted px-1.5 py-0.5 font-mono text-xs break-all text-fg"
                  title="External course ID"
                >
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
        {/* Filled by the page below (HeaderActions); empty, it takes no room. */}
        <div ref={actionsRef} className="flex shrink-0 flex-wrap gap-2 empty:hidden" />
      </div>
      <ReportTabs label="Course sections" current={section ?? ''} tabs={tabs} />
    </header>
  );
}

/** Whether the course request says the course is not there (or not the organization's). */
export function isCourseNotFound(error: unknown): boolean {
  return isApiError(error) && error.status === 404;
}

/** A course screen whose course does not exist (or is not the organization's, or was deleted). */
export function CourseNotFoundMessage() {
  return (
    <PageMessage
      icon={<BookX aria-hidden="true" />}
      eyebrow="404"
      title="Course not found"
      actions={
        <Link to={paths.courses.list.href()} className={buttonClassName({ variant: 'outline' })}>
          Back to courses
        </Link>
      }
    >
      This course does not exist in the current organization, or it was deleted.
    </PageMessage>
  );
}
