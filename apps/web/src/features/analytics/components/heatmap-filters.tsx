import { BookOpen, FilterX } from 'lucide-react';
import { useCallback, useId, useMemo, type ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router';

import { FilterBar } from '@/components/filter-bar';
import { Button } from '@/components/ui/button';
import { Combobox } from '@/components/ui/combobox';
import { EmptyState } from '@/components/ui/empty-state';
import { Spinner } from '@/components/ui/spinner';
import { inputClassName } from '@/components/ui/text-field';
import { paths } from '@/config/paths';
import type { CourseOption } from '@/lib/course-options';

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The heatmaps' and paths' shared URL state: course and period, plus each screen's own keys. */
export function useAnalyticsSearch() {
  const [searchParams, setSearchParams] = useSearchParams();
  const day = (key: string) => {
    const value = searchParams.get(key);
    return value && DAY.test(value) ? value : undefined;
  };
  const from = day('from');
  const to = day('to');
  const courseParam = searchParams.get('course') ?? undefined;

  const update = useCallback(
    (changes: Record<string, string | number | undefined>) => {
      setSearchParams(
        (previous) => {
          const next = new URLSearchParams(previous);
          for (const [key, value] of Object.entries(changes)) {
            if (value === undefined || value === '') next.delete(key);
            else next.set(key, String(value));
          }
          // A new course or period starts the learners list at its first page.
          if (!('page' in changes)) next.delete('page');
          return next;
        },
        { replace: true },
      );
    },
    [setSearchParams],
  );
  return { searchParams, from, to, courseParam, update };
}

/** The course the screen shows: the one in the URL, else the first by title. */
export function useChosenCourse(
  options: readonly CourseOption[] | undefined,
  courseParam: string | undefined,
) {
  return useMemo(() => {
    if (!options) return undefined;
    return options.find((course) => course.id === courseParam) ?? options[0];
  }, [options, courseParam]);
}

export type AnalyticsFiltersProps = {
  courses: readonly CourseOption[];
  courseId: string | undefined;
  from: string | undefined;
  to: string | undefined;
  onChange: (changes: Record<string, string | undefined>) => void;
  /** More filters of the screen (depth…). */
  children?: ReactNode;
};

/** Course and period of an analytics screen (days in the organization's time zone, both included). */
export function AnalyticsFilters({ courses, courseId, from, to, onChange, children }: AnalyticsFiltersProps) {
  const fromId = useId();
  const toId = useId();
  const options = useMemo(
    () =>
      courses.map((course) => ({
        value: course.id,
        label: course.title,
        hint: course.externalCourseId ?? undefined,
      })),
    [courses],
  );
  const isDated = Boolean(from || to);
  return (
    <FilterBar
      activeCount={isDated ? 1 : 0}
      search={
        <Combobox
          label="Course"
          value={courseId ?? null}
          options={options}
          onChange={(value) => onChange({ course: value })}
          placeholder="Choose a course"
          emptyText="No course matches"
        />
      }
    >
      <div className="flex items-center gap-2">
        <label htmlFor={fromId} className="text-sm font-medium text-fg">
          From
        </label>
        <input
          id={fromId}
          type="date"
          value={from ?? ''}
          max={to}
          onChange={(event) => onChange({ from: event.target.value || undefined })}
          className={inputClassName}
        />
      </div>
      <div className="flex items-center gap-2">
        <label htmlFor={toId} className="text-sm font-medium text-fg">
          To
        </label>
        <input
          id={toId}
          type="date"
          value={to ?? ''}
          min={from}
          onChange={(event) => onChange({ to: event.target.value || undefined })}
          className={inputClassName}
        />
      </div>
      {children}
      {isDated ? (
        <Button variant="ghost" onClick={() => onChange({ from: undefined, to: undefined })}>
          <FilterX aria-hidden="true" />
          All time
        </Button>
      ) : null}
    </FilterBar>
  );
}

/**
 * A course-based analytics screen before its filters: a spinner while the
 * courses load, "No courses yet" (with `emptyText`, what appears once
 * courses send data) when there are none, else the screen.
 */
export function CoursesGate({
  courses,
  emptyText,
  children,
}: {
  courses: { isLoading: boolean; isSuccess: boolean; data?: readonly CourseOption[] | undefined };
  emptyText: string;
  children: ReactNode;
}) {
  if (courses.isLoading) {
    return (
      <div className="flex min-h-32 items-center justify-center" aria-busy="true">
        <Spinner label="Loading courses" />
      </div>
    );
  }
  if (courses.isSuccess && courses.data?.length === 0) {
    return (
      <EmptyState
        icon={<BookOpen aria-hidden="true" />}
        title="No courses yet"
        action={
          <Link
            to={paths.courses.list.href()}
            className="text-sm font-medium text-brand-700 hover:underline dark:text-brand-300"
          >
            Go to courses
          </Link>
        }
      >
        {emptyText}
      </EmptyState>
    );
  }
  return children;
}
