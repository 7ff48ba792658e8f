import { ITEM_ANALYSIS_ATTEMPT_LABELS, type QuestionAnalysisResponse } from '@courselens/contracts';
import { ClipboardList, ListChecks } from 'lucide-react';
import { useId, useMemo, useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';

import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Combobox } from '@/components/ui/combobox';
import { EmptyState } from '@/components/ui/empty-state';
import { Spinner } from '@/components/ui/spinner';
import { inputClassName } from '@/components/ui/text-field';
import { paths } from '@/config/paths';
import { useSession } from '@/lib/auth';
import { cn } from '@/lib/cn';
import { formatNumber } from '@/lib/format';

import {
  parseQuestionAnalysisParams,
  useQuestionAnalysis,
  useQuestionAnalysisCourses,
} from '../api/get-question-analysis';
import { AnalyticsBasisNote, AnalyticsPage } from './analytics-page';
import { QuizSummary } from './questions-summary';
import {
  QUESTION_SORT_KEYS,
  QuestionsTable,
  type QuestionSort,
  type QuestionSortKey,
} from './questions-table';

/** The screen's state as its URL says it: the course and period, and the table's sort. */
export function readQuestionAnalysisState(searchParams: URLSearchParams) {
  const sort = searchParams.get('sort') ?? '';
  return {
    ...parseQuestionAnalysisParams(searchParams),
    questionId: searchParams.get('questionId') || null,
    sort: {
      sort: (QUESTION_SORT_KEYS as readonly string[]).includes(sort) ? (sort as QuestionSortKey) : 'position',
      order: searchParams.get('order') === 'desc' ? 'desc' : 'asc',
    } satisfies QuestionSort,
  };
}

/**
 * `/analytics/questions`: a course's questions read as one quiz, with
 * Moodle's item statistics. The course, period and sort live in the URL.
 */
export function QuestionAnalysisPage() {
  const organizationId = useSession().currentOrganization?.id;
  const [searchParams, setSearchParams] = useSearchParams();
  const state = useMemo(() => readQuestionAnalysisState(searchParams), [searchParams]);
  const courses = useQuestionAnalysisCourses(organizationId);
  const courseId = state.courseId ?? courses.data?.defaultCourseId ?? courses.data?.courses[0]?.id ?? null;
  const analysis = useQuestionAnalysis(organizationId, { courseId, from: state.from, to: state.to });

  function update(changes: Record<string, string | undefined>) {
    setSearchParams(
      (previous) => {
        const next = new URLSearchParams(previous);
        for (const [key, value] of Object.entries(changes)) {
          if (value) next.set(key, value);
          else next.delete(key);
        }
        return next;
      },
      { replace: false },
    );
  }

  const courseOptions = useMemo(
    () =>
      (courses.data?.courses ?? []).map((course) => ({
        value: course.id,
        label: course.title,
        hint: course.hasAnswers
          ? `${formatNumber(course.questions)} ${course.questions === 1 ? 'question' : 'questions'}`
          : 'No answers yet',
      })),
    [courses.data],
  );

  return (
    <AnalyticsPage
      section="questions"
      title="Question analysis"
      description="A course’s questions read as one quiz, with Moodle’s item statistics: how hard each question is, how well it separates stronger from weaker learners, and which answers to check."
    >
      {courses.isPending ? (
        <LoadingCard label="Loading the courses" />
      ) : courses.isError ? (
        <ErrorCard message={courses.error.message} onRetry={() => void courses.refetch()} />
      ) : courses.data.courses.length === 0 ? (
        <Card className="px-6 py-10">
          <EmptyState icon={<ClipboardList />} title="No courses yet">
            Courses appear when your LMS or course player sends its first events. Question analysis then reads
            the answers of finished runs.
          </EmptyState>
        </Card>
      ) : (
        <div className="space-y-6">
          <div className="flex flex-col gap-3 md:flex-row md:flex-wrap md:items-end">
            <div className="flex flex-col gap-1 md:w-80">
              <label htmlFor="question-analysis-course" className="text-xs font-medium text-fg-muted">
                Course
              </label>
              <Combobox
                id="question-analysis-course"
                label="Course"
                value={courseId}
                options={courseOptions}
                placeholder="Search courses…"
                emptyText="No course matches"
                onChange={(value) => update({ courseId: value, questionId: undefined })}
              />
            </div>
            <PeriodFilter
              from={state.from}
              to={state.to}
              onApply={(period) => update({ from: period.from, to: period.to })}
            />
          </div>
          {analysis.isPending ? (
            <LoadingCard label="Analysing the questions" />
          ) : analysis.isError ? (
            <ErrorCard message={analysis.error.message} onRetry={() => void analysis.refetch()} />
          ) : (
            <AnalysisResult
              result={analysis.data}
              sort={state.sort}
              focusQuestionId={state.questionId}
              isFetching={analysis.isPlaceholderData}
              hasPeriod={Boolean(state.from || state.to)}
              onSortChange={(sort) =>
                update({
                  sort: sort.sort === 'position' ? undefined : sort.sort,
                  order: sort.order === 'asc' ? undefined : sort.order,
                })
              }
              onClearPeriod={() => update({ from: undefined, to: undefined })}
            />
          )}
        </div>
      )}
    </AnalyticsPage>
  );
}

/** "Each learner’s first finished run · 312 attempts · 8 questions". */
function basisLine(result: QuestionAnalysisResponse): string {
  const { basis, quiz } = result;
  const parts = [
    ITEM_ANALYSIS_ATTEMPT_LABELS[basis.itemAnalysisAttempts],
    `${formatNumber(quiz.attempts)} ${quiz.attempts === 1 ? 'attempt' : 'attempts'}`,
  ];
  if (basis.itemAnalysisAttempts === 'all') {
    parts.push(`${formatNumber(basis.learners)} ${basis.learners === 1 ? 'learner' : 'learners'}`);
  }
  parts.push(`${formatNumber(quiz.questions)} ${quiz.questions === 1 ? 'question' : 'questions'}`);
  if (basis.from || basis.to) parts.push(`runs started ${basis.from ?? '…'} to ${basis.to ?? '…'}`);
  return parts.join(' · ');
}

function AnalysisResult({
  result,
  sort,
  focusQuestionId,
  isFetching,
  hasPeriod,
  onSortChange,
  onClearPeriod,
}: {
  result: QuestionAnalysisResponse;
  sort: QuestionSort;
  focusQuestionId: string | null;
  isFetching: boolean;
  hasPeriod: boolean;
  onSortChange: (sort: QuestionSort) => void;
  onClearPeriod: () => void;
}) {
  const { basis } = result;
  const leftOut: string[] = [];
  if (basis.runsWithoutAnswers > 0) {
    leftOut.push(
      `${formatNumber(basis.runsWithoutAnswers)} finished ${basis.runsWithoutAnswers === 1 ? 'run' : 'runs'} without answers`,
    );
  }
  if (basis.hiddenQuestions > 0) {
    leftOut.push(
      `${formatNumber(basis.hiddenQuestions)} hidden ${basis.hiddenQuestions === 1 ? 'question' : 'questions'}`,
    );
  }
  const note = (
    <div className="space-y-1" aria-live="polite">
      <p className="text-sm font-medium text-fg" data-testid="question-analysis-basis">
        {basisLine(result)}
      </p>
      {leftOut.length > 0 ? <p className="text-xs text-fg-subtle">Left out: {leftOut.join(' · ')}</p> : null}
      <AnalyticsBasisNote basis={basis} showCompletion />
    </div>
  );
  if (result.quiz.attempts === 0) {
    return (
      <div className="space-y-4">
        {note}
        <Card className="px-6 py-10">
          <EmptyState
            icon={<ListChecks />}
            title={`No finished runs of ${result.course.title} to analyse`}
            action={
              hasPeriod ? (
                <Button variant="outline" onClick={onClearPeriod}>
                  Clear the period
                </Button>
              ) : (
                <Link
                  to={paths.analytics.settings.href()}
                  className="text-sm font-medium text-brand-700 hover:underline dark:text-brand-300"
                >
                  Check what counts as finished
                </Link>
              )
            }
          >
            Question analysis reads the answers of finished runs (
            {ITEM_ANALYSIS_ATTEMPT_LABELS[basis.itemAnalysisAttempts].toLowerCase()}
            ). They appear here as soon as learners finish the course
            {hasPeriod ? ' in the chosen period' : ''}.
          </EmptyState>
        </Card>
      </div>
    );
  }
  return (
    <div className={cn('space-y-6 transition-opacity', isFetching && 'opacity-60')}>
      {note}
      <QuizSummary quiz={result.quiz} />
      <section aria-labelledby="questions-title" className="space-y-3">
        <h2 id="questions-title" className="text-base font-semibold text-fg">
          Questions
        </h2>
        <QuestionsTable
          key={result.course.id}
          questions={result.questions}
          sort={sort}
          onSortChange={onSortChange}
          isFetching={isFetching}
          focusQuestionId={focusQuestionId}
        />
      </section>
    </div>
  );
}

function PeriodFilter({
  from,
  to,
  onApply,
}: {
  from: string | undefined;
  to: string | undefined;
  onApply: (period: { from?: string | undefined; to?: string | undefined }) => void;
}) {
  const id = useId();
  const [draft, setDraft] = useState({ from, to });
  const [applied, setApplied] = useState({ from, to });
  // The URL changed (back button, a link): the fields follow it.
  if (applied.from !== from || applied.to !== to) {
    setApplied({ from, to });
    setDraft({ from, to });
  }
  const isReversed = Boolean(draft.from && draft.to && draft.from > draft.to);
  function handleSubmit(event: FormEvent) {
    event.preventDefault();
    if (!isReversed) onApply(draft);
  }
  return (
    <form onSubmit={handleSubmit} aria-label="Period" className="flex flex-wrap items-end gap-2">
      <div className="flex flex-col gap-1">
        <label htmlFor={`${id}-from`} className="text-xs font-medium text-fg-muted">
          Runs started from
        </label>
        <input
          id={`${id}-from`}
          type="date"
          value={draft.from ?? ''}
          onChange={(event) =>
            setDraft((previous) => ({ ...previous, from: event.target.value || undefined }))
          }
          className={cn(inputClassName, 'w-40')}
        />
      </div>
      <div className="flex flex-col gap-1">
        <label htmlFor={`${id}-to`} className="text-xs font-medium text-fg-muted">
          to
        </label>
        <input
          id={`${id}-to`}
          type="date"
          value={draft.to ?? ''}
          aria-invalid={isReversed || undefined}
          aria-describedby={isReversed ? `${id}-error` : undefined}
          onChange={(event) => setDraft((previous) => ({ ...previous, to: event.target.value || undefined }))}
          className={cn(inputClassName, 'w-40')}
        />
      </div>
      <Button type="submit" variant="outline" disabled={isReversed}>
        Apply
      </Button>
      {from || to ? (
        <Button type="button" variant="ghost" onClick={() => onApply({})}>
          Clear
        </Button>
      ) : null}
      {isReversed ? (
        <p id={`${id}-error`} role="alert" className="w-full text-sm text-rose-600 dark:text-rose-400">
          The start date must be on or before the end date
        </p>
      ) : null}
    </form>
  );
}

function LoadingCard({ label }: { label: string }) {
  return (
    <Card className="flex items-center justify-center py-16">
      <Spinner label={label} />
    </Card>
  );
}

function ErrorCard({ message, onRetry }: { message: string; onRetry: () => void }) {
  return (
    <Card className="px-6 py-10 text-center" role="alert">
      <p className="font-medium text-fg">The question analysis could not be loaded.</p>
      <p className="mt-1 text-sm text-fg-muted">{message}</p>
      <Button variant="outline" className="mt-4" onClick={onRetry}>
        Try again
      </Button>
    </Card>
  );
}
