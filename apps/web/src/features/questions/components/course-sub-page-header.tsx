import type { CourseSubPageHeading } from '@courselens/contracts';
import { BookX, ChevronRight } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link, NavLink } from 'react-router';

import { PageMessage } from '@/components/page-message';
import { buttonClassName } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { cn } from '@/lib/cn';

export type CourseSubPageHeaderProps = {
  courseId: string;
  /** From the list response; undefined while it loads. */
  course: CourseSubPageHeading | undefined;
  actions?: ReactNode;
};

const tabs = [
  { label: 'Learners', href: paths.courses.learners.href },
  { label: 'Variables', href: paths.courses.variables.href },
  { label: 'Questions', href: paths.courses.questions.href },
] as const;

/**
 * The header of a course sub-page (breadcrumb, title, external id, tabs).
 * A stand-in until the courses feature's shared header is merged.
 */
export function CourseSubPageHeader({ courseId, course, actions }: CourseSubPageHeaderProps) {
  return (
    <div className="flex flex-col gap-5">
      <nav aria-label="Breadcrumb" className="flex items-center gap-1 text-sm text-fg-muted">
        <Link
          to={paths.courses.list.href()}
          className="rounded hover:text-fg focus-visible:outline-2 focus-visible:outline-focus"
        >
          Courses
        </Link>
        <ChevronRight aria-hidden="true" className="size-4 text-fg-subtle" />
        <span aria-current="page" className="truncate text-fg">
          {course?.courseTitle ?? 'Course'}
        </span>
      </nav>
      <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <div className="min-w-0">
          <h1 className="text-2xl font-bold tracking-tight text-balance text-fg sm:text-3xl">
            {course?.courseTitle ?? <span className="text-fg-subtle">Loading course…</span>}
          </h1>
          {course?.externalCourseId ? (
            <p className="mt-1.5 text-sm text-fg-muted">
              External ID{' '}
              <code className="rounded bg-surface-muted px-1.5 py-0.5 font-mono text-xs">
                {course.externalCourseId}
              </code>
            </p>
          ) : null}
        </div>
        {actions ? <div className="flex shrink-0 flex-wrap gap-2">{actions}</div> : null}
      </div>
      <nav aria-label="Course sections" className="-mb-px flex gap-1 overflow-x-auto border-b border-line">
        {tabs.map((tab) => (
          <NavLink
            key={tab.label}
            to={tab.href(courseId)}
            className={({ isActive }) =>
              cn(
                'border-b-2 px-3 py-2 text-sm font-medium whitespace-nowrap transition-colors',
                'focus-visible:outline-2 focus-visible:outline-offset-[-2px] focus-visible:outline-focus',
                isActive
                  ? 'border-brand-600 text-fg dark:border-brand-400'
                  : 'border-transparent text-fg-muted hover:border-line-strong hover:text-fg',
              )
            }
          >
            {tab.label}
          </NavLink>
        ))}
      </nav>
    </div>
  );
}

/** A course sub-page whose course does not exist (or is not the organization's, or was deleted). */
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
