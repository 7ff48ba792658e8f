import {
  LEARNER_RESPONSE_DEFAULT_SORT,
  LEARNER_RESPONSE_SORT_KEYS,
  type LearnerResponse,
  type LearnerResponseSortKey,
} from '@courselens/contracts';
import { ListChecks, SearchX } from 'lucide-react';
import { Link, useParams } from 'react-router';

import { Badge } from '@/components/ui/badge';
import type { DataTableColumn } from '@/components/ui/data-table';
import { EmptyState } from '@/components/ui/empty-state';
import { paths } from '@/config/paths';
import { useSession } from '@/lib/auth';
import { formatDateTime, formatDecimal } from '@/lib/format';
import { useListParams } from '@/lib/use-list-params';

import { useLearnerResponses } from '../api/get-learner-responses';

import { LearnerLayout } from './learner-layout';
import { ListSection } from './list-section';

/** "Slide 3 · Q1" when the course sent the numbers. */
export function questionPosition(response: Pick<LearnerResponse, 'slideNumber' | 'questionNumber'>): string {
  const parts = [
    response.slideNumber === null ? null : `Slide ${response.slideNumber}`,
    response.questionNumber === null ? null : `Q${response.questionNumber}`,
  ].filter(Boolean);
  return parts.join(' · ');
}

function CorrectBadge({ correct }: { correct: boolean | null }) {
  if (correct === null) return <Badge variant="neutral">Not graded</Badge>;
  return correct ? <Badge variant="success">Correct</Badge> : <Badge variant="danger">Incorrect</Badge>;
}

function responseColumns(learnerId: string): DataTableColumn<LearnerResponse, LearnerResponseSortKey>[] {
  return [
    {
      id: 'question',
      header: 'Question',
      sortKey: 'question',
      isRowHeader: true,
      cell: (response) => (
        <div className="flex max-w-md flex-col">
          <span className="break-words">{response.questionText ?? 'Untitled question'}</span>
          <span className="text-xs font-normal text-fg-subtle">
            {[questionPosition(response), response.courseTitle].filter(Boolean).join(' · ')}
          </span>
          {/* On phones the answer columns are hidden: the answer and its result go here. */}
          <span className="mt-1.5 flex flex-wrap items-center gap-2 text-sm font-normal text-fg sm:hidden">
            <span className="break-words">{response.answer ?? '—'}</span>
            <CorrectBadge correct={response.correct} />
          </span>
        </div>
      ),
    },
    {
      id: 'course',
      header: 'Course',
      sortKey: 'course',
      className: 'hidden lg:table-cell',
      cell: (response) => (
        <Link
          to={paths.learners.courseVariables.href(learnerId, response.courseId)}
          className="rounded underline-offset-4 hover:text-accent hover:underline focus-visible:outline-2 focus-visible:outline-focus"
        >
          {response.courseTitle}
        </Link>
      ),
    },
    {
      id: 'answer',
      header: 'Answer',
      className: 'hidden sm:table-cell',
      cell: (response) => (
        <div className="flex min-w-24 flex-col">
          <span className="break-words text-fg">{response.answer ?? '—'}</span>
          {response.correct === false && response.correctAnswer ? (
            <span className="text-xs text-fg-subtle">Expected: {response.correctAnswer}</span>
          ) : null}
        </div>
      ),
    },
    {
      id: 'correct',
      header: 'Result',
      sortKey: 'correct',
      className: 'hidden sm:table-cell',
      cell: (response) => <CorrectBadge correct={response.correct} />,
    },
    {
      id: 'points',
      header: 'Points',
      sortKey: 'points',
      align: 'right',
      className: 'hidden md:table-cell',
      cell: (response) => formatDecimal(response.points),
    },
    {
      id: 'answeredAt',
      header: 'When',
      sortKey: 'answeredAt',
      className: 'hidden whitespace-nowrap md:table-cell',
      cell: (response) => <time dateTime={response.answeredAt}>{formatDateTime(response.answeredAt)}</time>,
    },
  ];
}

/** `/learner/:learnerId/responses`: every answer the learner gave, newest first. */
export function LearnerResponsesPage() {
  const { learnerId = '' } = useParams();
  const session = useSession();
  const [params, setParams] = useListParams(LEARNER_RESPONSE_SORT_KEYS, LEARNER_RESPONSE_DEFAULT_SORT);
  const responses = useLearnerResponses(session.currentOrganization?.id, learnerId, params);

  return (
    <LearnerLayout learnerId={learnerId} tab="responses" title="Responses">
      <ListSection
        caption="Answers of this learner"
        searchLabel="Search answers"
        searchPlaceholder="Search answers"
        columns={responseColumns(learnerId)}
        rowKey={(response) => response.id}
        params={params}
        onParamsChange={setParams}
        query={responses}
        exportPath={`/learners/${encodeURIComponent(learnerId)}/responses/export`}
        exportFileName="learner-responses.csv"
        noun="answers"
        emptySearch={
          <EmptyState icon={<SearchX />} title={`No answer matches “${params.q}”`}>
            Try part of the question or of the answer.
          </EmptyState>
        }
        empty={
          <EmptyState icon={<ListChecks />} title="No answers yet">
            Answers appear here when the learner answers a question in a course.
          </EmptyState>
        }
      />
    </LearnerLayout>
  );
}
