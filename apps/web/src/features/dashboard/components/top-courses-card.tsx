import type { DashboardResponse } from '@courselens/contracts';
import { Link } from 'react-router';

import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { paths } from '@/config/paths';
import { formatNumber } from '@/lib/format';

export type TopCoursesCardProps = { dashboard: DashboardResponse };

/** The courses with the most runs in the period, with a bar for their share. */
export function TopCoursesCard({ dashboard }: TopCoursesCardProps) {
  const { topCourses, period } = dashboard;
  const max = Math.max(1, ...topCourses.map((course) => course.runs));
  return (
    <Card className="min-w-0">
      <CardHeader>
        <CardTitle>Top courses</CardTitle>
        <CardDescription>Most runs in the last {period.days} days</CardDescription>
      </CardHeader>
      <CardContent>
        {topCourses.length === 0 ? (
          <p className="text-sm text-fg-muted">No course was started in this period.</p>
        ) : (
          <ol className="flex flex-col gap-4">
            {topCourses.map((course) => (
              <li key={course.id} className="min-w-0">
                <div className="flex items-baseline justify-between gap-3 text-sm">
                  <Link
                    to={paths.courses.learners.href(course.id)}
                    className="truncate font-medium text-fg underline-offset-2 hover:underline"
                  >
                    {course.title}
                  </Link>
                  <span className="shrink-0 text-fg-muted tabular-nums">
                    {formatNumber(course.runs)} runs · {formatNumber(course.learners)} learners
                  </span>
                </div>
                <div aria-hidden="true" className="mt-1.5 h-2 overflow-hidden rounded-full bg-surface-muted">
                  <div
                    className="h-full rounded-full bg-brand-500 dark:bg-brand-400"
                    style={{ width: `${(course.runs / max) * 100}%` }}
                  />
                </div>
              </li>
            ))}
          </ol>
        )}
      </CardContent>
    </Card>
  );
}
