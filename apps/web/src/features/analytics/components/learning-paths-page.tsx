import {
  DEFAULT_PATH_DEPTH,
  MAX_PATH_DEPTH,
  MIN_PATH_DEPTH,
  type CoursePathsResponse,
  type LearningPathsResponse,
} from '@courselens/contracts';
import { Info } from 'lucide-react';
import { useId, useMemo } from 'react';

import { StatGrid } from '@/components/stat-grid';
import { EmptyState } from '@/components/ui/empty-state';
import { inputClassName } from '@/components/ui/text-field';
import { useSession } from '@/lib/auth';
import { cn } from '@/lib/cn';
import { useCourseOptions } from '@/lib/course-options';

import { useCoursePaths, useLearningPaths } from '../api/get-learning-paths';

import { AnalyticsBasisNote, AnalyticsPage } from './analytics-page';
import { AnalyticsFilters, CoursesGate, useAnalyticsSearch, useChosenCourse } from './heatmap-filters';
import { SectionState } from './heatmaps-page';
import { ExitList, PathList } from './path-lists';
import { PathSankey } from './path-sankey';

const numberFormat = new Intl.NumberFormat('en-US');

function readDepth(value: string | null): number {
  const depth = Math.trunc(Number(value));
  return depth >= MIN_PATH_DEPTH && depth <= MAX_PATH_DEPTH ? depth : DEFAULT_PATH_DEPTH;
}

function readSlide(value: string | null): number | undefined {
  if (value === null || value === '') return undefined;
  const slide = Number(value);
  return Number.isInteger(slide) && slide >= 0 ? slide : undefined;
}

function SlidePaths({
  data,
  onFollow,
}: {
  data: LearningPathsResponse;
  onFollow: (slide: number | undefined) => void;
}) {
  const selectId = useId();
  const titles = useMemo(
    () => new Map(data.slides.map((slide) => [slide.slideNumber, slide.title])),
    [data.slides],
  );
  const slideLabel = (slide: number) => {
    const title = titles.get(slide);
    return title ? `Slide ${slide}: ${title}` : `Slide ${slide}`;
  };
  const shortLabel = (slide: number) => `Slide ${slide}`;

  if (!data.hasSlideViews) {
    return (
      <div
        className="flex items-start gap-3 rounded-2xl border border-line bg-surface p-5 text-sm"
        role="status"
      >
        <Info aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-brand-600 dark:text-brand-300" />
        <div>
          <p className="font-semibold text-fg">{data.course.title} sends no slide views</p>
          <p className="mt-1 text-fg-muted">
            Slide paths need <code className="rounded bg-surface-muted px-1">slide.viewed</code> events, which
            the CourseLens tracker sends on every slide change (or your LMS through{' '}
            <code>POST /api/v1/events</code>). The order learners take the courses in is still shown below.
          </p>
        </div>
      </div>
    );
  }
  if (data.runs === 0) {
    return (
      <EmptyState title="No slide views in this period">
        Choose a longer period, or all time, to see how learners move through {data.course.title}.
      </EmptyState>
    );
  }

  const completed = data.runs - data.incompleteRuns;
  return (
    <div className="flex flex-col gap-6">
      <StatGrid
        label="Runs in the period"
        stats={[
          { label: 'Runs with slide views', value: numberFormat.format(data.runs) },
          {
            label: 'Completed',
            value: numberFormat.format(completed),
            hint: 'Under the completion rule of the settings',
          },
          { label: 'Did not complete', value: numberFormat.format(data.incompleteRuns) },
          { label: 'Distinct slides', value: numberFormat.format(data.slides.length) },
        ]}
      />
      <PathSankey
        title="Slide paths"
        description={`Runs from slide to slide, repeats collapsed, the first ${data.depth} steps (the rest as “…”). A slide seen again later is a node of its own.`}
        graph={data.sankey}
        unit="runs"
        emptyText="No paths to draw."
      />
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
        <PathList
          title="Top paths"
          description="The most frequent slide sequences, with their share of all runs."
          items={data.topPaths.map((path) => ({
            steps: path.slides.map(shortLabel),
            isTruncated: path.isTruncated,
            count: path.runs,
            share: path.share,
          }))}
          unit="runs"
          emptyText="No paths."
        />
        <ExitList
          title="Where learners exit"
          description="The last slide viewed by runs that did not complete, with their share of those runs."
          exits={data.exits}
          slideLabel={slideLabel}
          onFollow={(slide) => onFollow(data.dropOff?.slideNumber === slide ? undefined : slide)}
          followedSlide={data.dropOff?.slideNumber}
          emptyText="Every run in the period completed."
        />
      </div>
      <section
        className="flex flex-col gap-4 rounded-2xl border border-line bg-surface p-4 sm:p-5"
        aria-labelledby={`${selectId}-title`}
      >
        <div className="flex flex-wrap items-end justify-between gap-3">
          <div>
            <h3 id={`${selectId}-title`} className="text-sm font-semibold text-fg">
              Drop-off after a slide
            </h3>
            <p className="mt-0.5 text-xs text-fg-muted">
              The runs that viewed a slide and did not complete: where they left, and their paths from that
              slide on.
            </p>
          </div>
          <div className="flex items-center gap-2">
            <label htmlFor={selectId} className="text-sm font-medium text-fg">
              Slide
            </label>
            <select
              id={selectId}
              value={data.dropOff?.slideNumber ?? ''}
              onChange={(event) => onFollow(readSlide(event.target.value))}
              className={cn(inputClassName, 'w-auto')}
            >
              <option value="">Choose a slide</option>
              {data.slides.map((slide) => (
                <option key={slide.slideNumber} value={slide.slideNumber}>
                  {slideLabel(slide.slideNumber)}
                </option>
              ))}
            </select>
          </div>
        </div>
        {data.dropOff ? (
          data.dropOff.runs === 0 ? (
            <p className="rounded-lg border border-dashed border-line py-6 text-center text-sm text-fg-muted">
              Every run that viewed {slideLabel(data.dropOff.slideNumber)} completed.
            </p>
          ) : (
            <>
              <p className="text-sm text-fg" aria-live="polite">
                {numberFormat.format(data.dropOff.runs)} runs viewed {slideLabel(data.dropOff.slideNumber)}{' '}
                and did not complete.
              </p>
              <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
                <PathList
                  title="Their paths from this slide"
                  items={data.dropOff.paths.map((path) => ({
                    steps: path.slides.map(shortLabel),
                    isTruncated: path.isTruncated,
                    count: path.runs,
                    share: path.share,
                  }))}
                  unit="runs"
                  emptyText="No paths."
                />
                <ExitList
                  title="Where they left"
                  exits={data.dropOff.exits}
                  slideLabel={slideLabel}
                  emptyText="No exits."
                />
              </div>
            </>
          )
        ) : (
          <p className="text-sm text-fg-muted">Choose a slide, or “Follow” one in the exits above.</p>
        )}
      </section>
    </div>
  );
}

function CourseSequences({ data }: { data: CoursePathsResponse }) {
  const titles = useMemo(
    () => new Map(data.courses.map((course) => [course.id, course.title])),
    [data.courses],
  );
  if (data.learners === 0) {
    return (
      <EmptyState title="No course starts in this period">
        Course sequences appear once learners start courses; choose a longer period or all time.
      </EmptyState>
    );
  }
  return (
    <div className="flex flex-col gap-6">
      <PathSankey
        title="Course sequences"
        description={`The order ${numberFormat.format(data.learners)} learners first started the organization’s courses in, the first ${data.depth} courses.`}
        graph={data.sankey}
        unit="learners"
        emptyText="No sequences to draw."
      />
      <PathList
        title="Top course sequences"
        description="The most frequent orders, with their share of learners."
        items={data.topPaths.map((path) => ({
          steps: path.courses.map((id) => titles.get(id) ?? 'Deleted course'),
          isTruncated: path.isTruncated,
          count: path.learners,
          share: path.share,
        }))}
        unit="learners"
        emptyText="No sequences."
      />
    </div>
  );
}

/**
 * `/analytics/learning-paths`: how learners move through a course's slides
 * (Sankey, top paths, exits, drop-off after a slide) and through the
 * organization's courses.
 */
export function LearningPathsPage() {
  const organizationId = useSession().currentOrganization?.id;
  const { searchParams, from, to, courseParam, update } = useAnalyticsSearch();
  const depthId = useId();
  const courses = useCourseOptions(organizationId);
  const course = useChosenCourse(courses.data, courseParam);
  const courseId = course?.id ?? '';
  const depth = readDepth(searchParams.get('depth'));
  const afterSlide = readSlide(searchParams.get('after'));

  const slidePaths = useLearningPaths(organizationId, { courseId, from, to, depth, afterSlide });
  const coursePaths = useCoursePaths(organizationId, { from, to, depth });
  const basis = slidePaths.data?.basis ?? coursePaths.data?.basis;

  return (
    <AnalyticsPage
      section="learningPaths"
      title="Learning paths"
      description="The routes learners take through a course’s slides and through your courses, and where they leave."
    >
      <div className="flex flex-col gap-6">
        <CoursesGate
          courses={courses}
          emptyText="Learning paths appear once a course sends slide views through the tracker or the ingestion API."
        >
          <>
            <AnalyticsFilters
              courses={courses.data ?? []}
              courseId={courseId || undefined}
              from={from}
              to={to}
              onChange={(changes) =>
                update({ ...changes, ...('course' in changes ? { after: undefined } : {}) })
              }
            >
              <div className="flex items-center gap-2">
                <label htmlFor={depthId} className="text-sm font-medium text-fg">
                  Steps
                </label>
                <select
                  id={depthId}
                  value={depth}
                  onChange={(event) =>
                    update({
                      depth:
                        Number(event.target.value) === DEFAULT_PATH_DEPTH ? undefined : event.target.value,
                    })
                  }
                  className={cn(inputClassName, 'w-auto')}
                >
                  {Array.from(
                    { length: MAX_PATH_DEPTH - MIN_PATH_DEPTH + 1 },
                    (_, index) => index + MIN_PATH_DEPTH,
                  ).map((value) => (
                    <option key={value} value={value}>
                      {value}
                    </option>
                  ))}
                </select>
              </div>
            </AnalyticsFilters>
            {basis ? <AnalyticsBasisNote basis={basis} showCompletion /> : null}
            {courseId ? (
              <section aria-label={`Slide paths of ${course?.title ?? 'the course'}`}>
                <SectionState
                  isLoading={slidePaths.isLoading}
                  error={slidePaths.error}
                  label="the slide paths"
                >
                  {slidePaths.data ? (
                    <SlidePaths data={slidePaths.data} onFollow={(slide) => update({ after: slide })} />
                  ) : null}
                </SectionState>
              </section>
            ) : null}
            <section aria-label="Course sequences">
              <h2 className="mb-3 text-base font-semibold text-fg">Across your courses</h2>
              <SectionState
                isLoading={coursePaths.isLoading}
                error={coursePaths.error}
                label="the course sequences"
              >
                {coursePaths.data ? <CourseSequences data={coursePaths.data} /> : null}
              </SectionState>
            </section>
          </>
        </CoursesGate>
      </div>
    </AnalyticsPage>
  );
}
