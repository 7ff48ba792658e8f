import { useState } from 'react';
import { Outlet, useLocation, useParams, useSearchParams } from 'react-router';

import { HeaderActionsProvider } from '@/components/header-actions';
import { useCourse } from '@/features/courses/api/get-course';
import {
  CourseHeader,
  CourseNotFoundMessage,
  courseSectionOf,
  isCourseNotFound,
} from '@/features/courses/components/course-header';
import { useSession } from '@/lib/auth';

/**
 * Every screen of one course (learners, variables, questions, broadcasts):
 * one header with the same tabs, at the same width, kept in place while the
 * tabs switch. A page puts its buttons in the header with `HeaderActions`.
 * A course that does not exist is one "Course not found" page.
 */
export function CourseLayout() {
  const { courseId = '' } = useParams();
  const { pathname } = useLocation();
  const [searchParams] = useSearchParams();
  const session = useSession();
  const course = useCourse(session.currentOrganization?.id, courseId);
  const [actionsTarget, setActionsTarget] = useState<HTMLDivElement | null>(null);

  if (isCourseNotFound(course.error)) return <CourseNotFoundMessage />;

  // Only the broadcasts screen takes a title in its link (spec section 2).
  const title = courseSectionOf(pathname) === 'broadcasts' ? searchParams.get('title') : null;

  return (
    <div
      className="mx-auto flex w-full max-w-7xl min-w-0 flex-col gap-6 px-4 py-8 sm:px-6 lg:px-8"
      data-testid="course-page"
    >
      <CourseHeader courseId={courseId} title={title} actionsRef={setActionsTarget} />
      <HeaderActionsProvider target={actionsTarget}>
        <Outlet />
      </HeaderActionsProvider>
    </div>
  );
}
