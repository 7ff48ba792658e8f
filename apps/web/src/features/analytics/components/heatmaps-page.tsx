import { HEATMAP_LEARNER_SORTS, type HeatmapLearnerSort } from '@courselens/contracts';
import { Grid3x3 } from 'lucide-react';
import type { ReactNode } from 'react';

import { EmptyState } from '@/components/ui/empty-state';
import { Spinner } from '@/components/ui/spinner';
import { isApiError } from '@/lib/api-client';
import { useSession } from '@/lib/auth';
import { useCourseOptions } from '@/lib/course-options';

import { useActivityHeatmap, useLearnerHeatmap, useQuestionHeatmap } from '../api/get-heatmaps';

import { AnalyticsBasisNote, AnalyticsPage } from './analytics-page';
import { HeatmapActivity, type ActivityMetric, type ActivityScope } from './heatmap-activity';
import { AnalyticsFilters, CoursesGate, useAnalyticsSearch, useChosenCourse } from './heatmap-filters';
import { HeatmapLearners } from './heatmap-learners';
import { HeatmapQuestions } from './heatmap-questions';

/** A section's loading, error or content, in the section's own card. */
export function SectionState({
  isLoading,
  error,
  children,
  label,
}: {
  isLoading: boolean;
  error: unknown;
  children: ReactNode;
  label: string;
}) {
  if (isLoading) {
    return (
      <div
        className="flex min-h-48 items-center justify-center rounded-2xl border border-line bg-surface"
        aria-busy="true"
      >
        <Spinner label={`Loading ${label}`} />
      </div>
    );
  }
  if (error) {
    return (
      <div role="alert" className="rounded-2xl border border-line bg-surface p-6 text-sm text-fg">
        <p className="font-semibold">Couldn’t load {label}.</p>
        <p className="mt-1 text-fg-muted">
          {isApiError(error) ? error.message : 'Check your connection and try again.'}
        </p>
      </div>
    );
  }
  return <>{children}</>;
}

function readSort(value: string | null): HeatmapLearnerSort {
  return (HEATMAP_LEARNER_SORTS as readonly string[]).includes(value ?? '')
    ? (value as HeatmapLearnerSort)
    : 'wrong';
}

/**
 * `/analytics/heatmaps`: for a course, its questions by slide coloured by
 * correct rate, its learners by question, and activity by weekday and hour
 * (of the course or the whole organization).
 */
export function HeatmapsPage() {
  const organizationId = useSession().currentOrganization?.id;
  const { searchParams, from, to, courseParam, update } = useAnalyticsSearch();
  const courses = useCourseOptions(organizationId);
  const course = useChosenCourse(courses.data, courseParam);
  const courseId = course?.id ?? '';
  const page = Math.max(1, Math.trunc(Number(searchParams.get('page'))) || 1);
  const sort = readSort(searchParams.get('sort'));
  const orderParam = searchParams.get('order');
  const order = orderParam === 'asc' || orderParam === 'desc' ? orderParam : undefined;
  const metric: ActivityMetric = searchParams.get('count') === 'learners' ? 'learners' : 'events';
  const scope: ActivityScope =
    !courseId || searchParams.get('activity') === 'all' ? 'organization' : 'course';

  const questions = useQuestionHeatmap(organizationId, { courseId, from, to });
  const learners = useLearnerHeatmap(organizationId, { courseId, from, to, sort, order, page });
  const activity = useActivityHeatmap(organizationId, {
    courseId: scope === 'course' ? courseId : undefined,
    from,
    to,
  });
  const basis = questions.data?.basis ?? activity.data?.basis;

  return (
    <AnalyticsPage
      section="heatmaps"
      title="Heatmaps"
      description="Where a course’s questions trip learners up, who gets what wrong, and when learners are active."
    >
      <div className="flex flex-col gap-6">
        <CoursesGate
          courses={courses}
          emptyText="Heatmaps appear once a course sends answers and events through the tracker or the ingestion API."
        >
          <>
            <AnalyticsFilters
              courses={courses.data ?? []}
              courseId={courseId || undefined}
              from={from}
              to={to}
              onChange={update}
            />
            {basis ? <AnalyticsBasisNote basis={basis} /> : null}
            {courseId ? (
              <>
                <SectionState
                  isLoading={questions.isLoading}
                  error={questions.error}
                  label="the questions grid"
                >
                  {questions.data ? <HeatmapQuestions data={questions.data} /> : null}
                </SectionState>
                <SectionState isLoading={learners.isLoading} error={learners.error} label="the learners grid">
                  {learners.data ? (
                    <HeatmapLearners
                      data={learners.data}
                      isFetching={learners.isFetching}
                      onSortChange={(nextSort, nextOrder) => update({ sort: nextSort, order: nextOrder })}
                      onPageChange={(nextPage) => update({ page: nextPage })}
                    />
                  ) : null}
                </SectionState>
              </>
            ) : (
              <EmptyState icon={<Grid3x3 aria-hidden="true" />} title="Choose a course">
                Pick a course above to see its questions and learners.
              </EmptyState>
            )}
            <SectionState isLoading={activity.isLoading} error={activity.error} label="activity">
              {activity.data ? (
                <HeatmapActivity
                  data={activity.data}
                  metric={metric}
                  onMetricChange={(next) =>
                    update({ count: next === 'events' ? undefined : next, page: String(page) })
                  }
                  scope={scope}
                  onScopeChange={(next) =>
                    update({ activity: next === 'organization' ? 'all' : undefined, page: String(page) })
                  }
                  hasCourse={Boolean(courseId)}
                />
              ) : null}
            </SectionState>
          </>
        </CoursesGate>
      </div>
    </AnalyticsPage>
  );
}
