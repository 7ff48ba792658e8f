import type { ListQuestionsResponse, QuestionListItem, QuestionSortKey } from '@courselens/contracts';
import { ListChecks } from 'lucide-react';
import { useId } from 'react';
import { Link } from 'react-router';

import { FilterBar } from '@/components/filter-bar';
import { DataTable, type DataTableColumn } from '@/components/ui/data-table';
import { EmptyState } from '@/components/ui/empty-state';
import { Pagination } from '@/components/ui/pagination';
import { SearchField } from '@/components/ui/search-field';
import { Switch } from '@/components/ui/switch';
import { inputClassName } from '@/components/ui/text-field';
import { paths } from '@/config/paths';
import { isApiError } from '@/lib/api-client';
import { cn } from '@/lib/cn';
import { formatNumber, formatPercent } from '@/lib/format';
import { toast } from '@/lib/toast';
import type { ListParams } from '@/lib/use-list-params';

import { QUESTIONS_PAGE_SIZE, useQuestionCourses, type QuestionListParams } from '../api/get-questions';
import { useUpdateQuestion } from '../api/update-question';

import { CorrectRateBar } from './correct-rate-bar';
import { QuestionTotals } from './question-totals';

export type QuestionsListViewProps = {
  organizationId: string | null | undefined;
  params: QuestionListParams;
  updateList: (changes: Partial<ListParams<QuestionSortKey>>) => void;
  setFilter: (name: 'course' | 'show', value: string | undefined) => void;
  data: ListQuestionsResponse | undefined;
  isPending: boolean;
  isFetching: boolean;
  error: unknown;
  /** The organization-wide list shows each question's course and filters by course. */
  isOrganizationWide: boolean;
};

/** "Slide 3 · Q1", or what is known of it. */
export function questionPosition(question: Pick<QuestionListItem, 'slideNumber' | 'questionNumber'>): string {
  const parts = [
    question.slideNumber === null ? null : `Slide ${question.slideNumber}`,
    question.questionNumber === null ? null : `Q${question.questionNumber}`,
  ].filter(Boolean);
  return parts.length > 0 ? parts.join(' · ') : '—';
}

/** Totals, toolbar, table and pagination of a questions list. */
export function QuestionsListView({
  organizationId,
  params,
  updateList,
  setFilter,
  data,
  isPending,
  isFetching,
  error,
  isOrganizationWide,
}: QuestionsListViewProps) {
  const updateQuestion = useUpdateQuestion(organizationId);
  const courseSelectId = useId();
  const showSelectId = useId();
  const courses = useQuestionCourses(isOrganizationWide ? organizationId : null, params.active);

  function handleToggle(question: QuestionListItem, active: boolean) {
    updateQuestion.mutate(
      { questionId: question.id, active },
      {
        onSuccess: () =>
          toast.success(
            active
              ? 'Question shown again in the lists'
              : 'Question hidden. Find it again under “Hidden questions”.',
          ),
        onError: (cause) =>
          toast.error(
            isApiError(cause) ? cause.message : 'The question could not be changed. Please try again.',
          ),
      },
    );
  }

  const columns: DataTableColumn<QuestionListItem, QuestionSortKey>[] = [
    {
      id: 'text',
      header: 'Question',
      sortKey: 'text',
      isRowHeader: true,
      cell: (row) => (
        <div className="max-w-md sm:min-w-48">
          <p className="line-clamp-2 text-fg">
            <Link
              to={paths.questions.report.href(row.id)}
              className="font-medium hover:text-brand-700 hover:underline dark:hover:text-brand-300"
            >
              {row.questionText ?? <span className="text-fg-subtle">No text</span>}
            </Link>
          </p>
          <p className="mt-0.5 font-mono text-xs font-normal break-all text-fg-subtle">{row.interactionId}</p>
          {/* Phones show one readable column: the hidden columns' essentials go here. */}
          <p className="mt-1 text-xs font-normal text-fg-muted sm:hidden">
            {formatNumber(row.totalResponses)} responses
            {row.correctRate === null ? '' : ` · ${formatPercent(row.correctRate)} correct`}
          </p>
        </div>
      ),
    },
    ...(isOrganizationWide
      ? [
          {
            id: 'course',
            header: 'Course',
            sortKey: 'course',
            className: 'hidden md:table-cell',
            cell: (row: QuestionListItem) => (
              <Link
                to={paths.courses.questions.href(row.courseId)}
                className="font-medium text-fg hover:text-brand-700 hover:underline dark:hover:text-brand-300"
              >
                {row.courseTitle}
              </Link>
            ),
          } satisfies DataTableColumn<QuestionListItem, QuestionSortKey>,
        ]
      : []),
    {
      id: 'slide',
      header: 'Position',
      sortKey: 'slide',
      className: 'hidden lg:table-cell whitespace-nowrap',
      cell: (row) => questionPosition(row),
    },
    {
      id: 'totalResponses',
      header: 'Responses',
      sortKey: 'totalResponses',
      align: 'right',
      className: 'hidden sm:table-cell',
      cell: (row) => <span className="font-medium text-fg">{formatNumber(row.totalResponses)}</span>,
    },
    {
      id: 'correctResponses',
      header: 'Correct',
      sortKey: 'correctResponses',
      align: 'right',
      className: 'hidden xl:table-cell',
      cell: (row) => formatNumber(row.correctResponses),
    },
    {
      id: 'uniqueLearners',
      header: 'Learners',
      sortKey: 'uniqueLearners',
      align: 'right',
      className: 'hidden lg:table-cell',
      cell: (row) => formatNumber(row.uniqueLearnersCount),
    },
    {
      id: 'correctRate',
      header: 'Correct rate',
      sortKey: 'correctRate',
      align: 'right',
      className: 'hidden sm:table-cell',
      cell: (row) => <CorrectRateBar rate={row.correctRate} />,
    },
    {
      id: 'active',
      header: 'Active',
      cell: (row) => (
        <Switch
          checked={row.active}
          onChange={(active) => handleToggle(row, active)}
          label={`Active: ${row.questionText ?? row.interactionId}`}
        />
      ),
    },
  ];

  const hasFilters = Boolean(params.q || params.courseId);
  const errorMessage = error
    ? isApiError(error)
      ? error.message
      : 'The questions could not be loaded. Please try again.'
    : null;

  return (
    <div className="flex flex-col gap-5">
      <QuestionTotals totals={data?.totals} isHidden={!params.active} />
      <FilterBar
        activeCount={(params.courseId ? 1 : 0) + (params.active ? 0 : 1)}
        search={
          <SearchField
            label="Search questions"
            placeholder="Search question text or interaction ID"
            value={params.q}
            onChange={(q) => updateList({ q })}
          />
        }
      >
        {isOrganizationWide ? (
          <div className="flex flex-col">
            <label htmlFor={courseSelectId} className="sr-only">
              Course
            </label>
            <select
              id={courseSelectId}
              value={params.courseId ?? ''}
              onChange={(event) => setFilter('course', event.target.value)}
              className={cn(inputClassName, 'md:w-56')}
            >
              <option value="">All courses</option>
              {(courses.data ?? []).map((course) => (
                <option key={course.id} value={course.id}>
                  {course.courseTitle} ({course.questions})
                </option>
              ))}
            </select>
          </div>
        ) : null}
        <div className="flex flex-col">
          <label htmlFor={showSelectId} className="sr-only">
            Show
          </label>
          <select
            id={showSelectId}
            value={params.active ? '' : 'hidden'}
            onChange={(event) => setFilter('show', event.target.value)}
            className={cn(inputClassName, 'md:w-48')}
          >
            <option value="">Active questions</option>
            <option value="hidden">Hidden questions</option>
          </select>
        </div>
      </FilterBar>

      <DataTable
        caption="Questions"
        columns={columns}
        rows={data?.items}
        rowKey={(row) => row.id}
        isLoading={isPending}
        isFetching={isFetching}
        error={errorMessage}
        sort={{ sort: params.sort, order: params.order }}
        onSortChange={(sort) => updateList(sort)}
        empty={
          hasFilters ? (
            <EmptyState icon={<ListChecks aria-hidden="true" />} title="No questions match">
              Try another search or course.
            </EmptyState>
          ) : !params.active ? (
            <EmptyState icon={<ListChecks aria-hidden="true" />} title="No hidden questions">
              Questions you turn off are kept here, out of the lists and reports.
            </EmptyState>
          ) : (
            <EmptyState icon={<ListChecks aria-hidden="true" />} title="No questions yet">
              Questions appear when a course sends its first answer (a <code>question.answered</code> event).
            </EmptyState>
          )
        }
      />
      {data && data.total > 0 ? (
        <Pagination
          page={data.page}
          pageSize={QUESTIONS_PAGE_SIZE}
          total={data.total}
          onPageChange={(page) => updateList({ page })}
          noun="questions"
        />
      ) : null}
    </div>
  );
}
