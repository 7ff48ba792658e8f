import {
  QUESTION_FLAG_LABELS,
  type QuestionFlag,
  type QuestionFlagKind,
  type QuestionStatistics,
} from '@courselens/contracts';
import { ArrowDown, ArrowUp, ArrowUpDown, ChevronRight, ExternalLink } from 'lucide-react';
import { Fragment, useEffect, useMemo, useState, type ReactNode } from 'react';
import { Link } from 'react-router';

import { Badge, type BadgeVariant } from '@/components/ui/badge';
import { InfoTip } from '@/components/ui/info-tip';
import { paths } from '@/config/paths';
import { cn } from '@/lib/cn';
import { formatNumber } from '@/lib/format';

import { flagScore, formatCoefficient, formatMarks, formatShare, questionPosition } from './questions-format';

export const QUESTION_SORT_KEYS = ['position', 'facility', 'discrimination', 'flags'] as const;
export type QuestionSortKey = (typeof QUESTION_SORT_KEYS)[number];
export type QuestionSort = { sort: QuestionSortKey; order: 'asc' | 'desc' };

const FLAG_VARIANT: Record<QuestionFlagKind, BadgeVariant> = {
  answer_key: 'danger',
  negative_discrimination: 'danger',
  too_hard: 'warning',
  weak_discrimination: 'warning',
  too_easy: 'neutral',
};

const DEFINITIONS = {
  facility: 'The average mark as a share of the question’s maximum: 100 % means every attempt got it right.',
  sd: 'How much the marks vary, as a share of the maximum mark (sample standard deviation).',
  discrimination:
    'Correlation between this question’s mark and the rest of the attempt, from −1 to 1. 0.30 and above separates stronger from weaker learners well; below 0.20 weakly; negative means weaker learners do better on it.',
  efficiency:
    'The discrimination as a share of the highest it could reach with this question’s facility. Low efficiency on a hard or easy question is expected.',
} as const;

/** The questions in the chosen order; a figure that is missing sorts last either way. */
export function sortQuestions(
  questions: readonly QuestionStatistics[],
  sort: QuestionSort,
): QuestionStatistics[] {
  const indexed = questions.map((question, index) => ({ question, index }));
  const valueOf = ({ question, index }: { question: QuestionStatistics; index: number }): number | null => {
    switch (sort.sort) {
      case 'position':
        return index;
      case 'facility':
        return question.facility;
      case 'discrimination':
        return question.discriminationIndex;
      case 'flags':
        return flagScore(question);
    }
  };
  const direction = sort.order === 'asc' ? 1 : -1;
  return indexed
    .sort((a, b) => {
      const left = valueOf(a);
      const right = valueOf(b);
      if (left === null && right === null) return a.index - b.index;
      if (left === null) return 1;
      if (right === null) return -1;
      return (left - right) * direction || a.index - b.index;
    })
    .map(({ question }) => question);
}

export type QuestionsTableProps = {
  questions: readonly QuestionStatistics[];
  sort: QuestionSort;
  onSortChange: (sort: QuestionSort) => void;
  isFetching?: boolean;
  /** A question to open and bring into view (a link from an insight names it). */
  focusQuestionId?: string | null;
};

/**
 * The questions with their item statistics, sortable by facility,
 * discrimination and flags. A row opens on its answers (share and
 * point-biserial of each) and the rest of its figures.
 */
export function QuestionsTable({
  questions,
  sort,
  onSortChange,
  isFetching = false,
  focusQuestionId = null,
}: QuestionsTableProps) {
  const [openIds, setOpenIds] = useState<ReadonlySet<string>>(
    () => new Set(focusQuestionId ? [focusQuestionId] : []),
  );
  const rows = useMemo(() => sortQuestions(questions, sort), [questions, sort]);

  useEffect(() => {
    if (!focusQuestionId) return;
    // jsdom has no scrollIntoView; browsers bring the named question into view once.
    document.getElementById(`question-row-${focusQuestionId}`)?.scrollIntoView?.({ block: 'center' });
  }, [focusQuestionId]);

  function handleToggle(questionId: string) {
    setOpenIds((previous) => {
      const next = new Set(previous);
      if (next.has(questionId)) next.delete(questionId);
      else next.add(questionId);
      return next;
    });
  }

  const header = (
    key: QuestionSortKey,
    label: string,
    definition?: string,
    align: 'left' | 'right' = 'right',
  ) => {
    const isSorted = sort.sort === key;
    const Icon = !isSorted ? ArrowUpDown : sort.order === 'asc' ? ArrowUp : ArrowDown;
    return (
      <span className={cn('inline-flex items-center gap-0.5', align === 'right' && 'flex-row-reverse')}>
        <button
          type="button"
          onClick={() =>
            onSortChange({
              sort: key,
              // Flags start with the most worrying; the figures start low (hardest, weakest).
              order: isSorted ? (sort.order === 'asc' ? 'desc' : 'asc') : key === 'flags' ? 'desc' : 'asc',
            })
          }
          className={cn(
            'inline-flex items-center gap-1 rounded uppercase hover:text-fg focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-focus',
            align === 'right' && 'flex-row-reverse',
            isSorted && 'text-fg',
          )}
        >
          {label}
          <Icon aria-hidden="true" className={cn('size-3.5', !isSorted && 'opacity-40')} />
        </button>
        {definition ? <InfoTip label={`What ${label.toLowerCase()} means`}>{definition}</InfoTip> : null}
      </span>
    );
  };
  const ariaSort = (key: QuestionSortKey) =>
    sort.sort === key ? (sort.order === 'asc' ? 'ascending' : 'descending') : undefined;
  const headClass =
    'px-3 py-2.5 text-xs font-semibold tracking-wide whitespace-nowrap text-fg-subtle uppercase sm:px-4';

  return (
    <div className="relative overflow-x-auto rounded-2xl border border-line bg-surface shadow-xs">
      <table
        className={cn('w-full border-collapse text-sm', isFetching && 'opacity-60')}
        aria-busy={isFetching}
      >
        <caption className="sr-only">Questions with their item statistics</caption>
        <thead className="border-b border-line bg-surface-muted/50">
          <tr>
            <th scope="col" aria-sort={ariaSort('position')} className={cn(headClass, 'text-left')}>
              {header('position', 'Question', undefined, 'left')}
            </th>
            <th scope="col" aria-sort={ariaSort('facility')} className={cn(headClass, 'text-right')}>
              {header('facility', 'Facility', DEFINITIONS.facility)}
            </th>
            <th scope="col" className={cn(headClass, 'hidden text-right sm:table-cell')}>
              <span className="inline-flex flex-row-reverse items-center gap-0.5">
                SD
                <InfoTip label="What SD means">{DEFINITIONS.sd}</InfoTip>
              </span>
            </th>
            <th scope="col" aria-sort={ariaSort('discrimination')} className={cn(headClass, 'text-right')}>
              {header('discrimination', 'Discrimination', DEFINITIONS.discrimination)}
            </th>
            <th scope="col" className={cn(headClass, 'hidden text-right md:table-cell')}>
              <span className="inline-flex flex-row-reverse items-center gap-0.5">
                Efficiency
                <InfoTip label="What efficiency means">{DEFINITIONS.efficiency}</InfoTip>
              </span>
            </th>
            <th scope="col" aria-sort={ariaSort('flags')} className={cn(headClass, 'text-left')}>
              {header('flags', 'Flags', undefined, 'left')}
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-line">
          {rows.map((question) => {
            const isOpen = openIds.has(question.questionId);
            const detailsId = `question-details-${question.questionId}`;
            const title = question.text ?? question.interactionId;
            return (
              <Fragment key={question.questionId}>
                <tr
                  id={`question-row-${question.questionId}`}
                  className={cn(
                    'align-top transition-colors hover:bg-surface-muted/60',
                    question.questionId === focusQuestionId && 'bg-brand-50/60 dark:bg-brand-400/10',
                  )}
                >
                  <th scope="row" className="min-w-56 px-3 py-3 text-left font-normal sm:px-4">
                    <button
                      type="button"
                      aria-expanded={isOpen}
                      aria-controls={detailsId}
                      onClick={() => handleToggle(question.questionId)}
                      className="group flex w-full items-start gap-2 rounded text-left focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-focus"
                    >
                      <ChevronRight
                        aria-hidden="true"
                        className={cn(
                          'mt-0.5 size-4 shrink-0 text-fg-subtle transition-transform',
                          isOpen && 'rotate-90',
                        )}
                      />
                      <span className="min-w-0">
                        <span className="block text-xs text-fg-subtle">{questionPosition(question)}</span>
                        <span className="line-clamp-2 font-medium text-fg group-hover:underline">
                          {title}
                        </span>
                        <span className="sr-only">{isOpen ? ', hide answers' : ', show answers'}</span>
                      </span>
                    </button>
                  </th>
                  <td className="px-3 py-3 text-right text-fg tabular-nums sm:px-4">
                    {formatShare(question.facility)}
                  </td>
                  <td className="hidden px-3 py-3 text-right text-fg-muted tabular-nums sm:table-cell sm:px-4">
                    {formatShare(question.standardDeviation)}
                  </td>
                  <td
                    className={cn(
                      'px-3 py-3 text-right tabular-nums sm:px-4',
                      question.discriminationIndex !== null && question.discriminationIndex < 0
                        ? 'font-medium text-rose-700 dark:text-rose-300'
                        : 'text-fg',
                    )}
                  >
                    {formatCoefficient(question.discriminationIndex)}
                  </td>
                  <td className="hidden px-3 py-3 text-right text-fg-muted tabular-nums sm:px-4 md:table-cell">
                    {formatShare(question.discriminativeEfficiency)}
                  </td>
                  <td className="px-3 py-3 sm:px-4">
                    <FlagList flags={question.flags} />
                  </td>
                </tr>
                {isOpen ? (
                  <tr id={detailsId} className="bg-surface-muted/40">
                    <td colSpan={6} className="px-3 py-4 sm:px-4">
                      <QuestionDetails question={question} />
                    </td>
                  </tr>
                ) : null}
              </Fragment>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

function FlagList({ flags }: { flags: readonly QuestionFlag[] }) {
  if (flags.length === 0) return <span className="text-fg-subtle">None</span>;
  return (
    <ul className="flex flex-wrap gap-1.5" aria-label="Flags">
      {flags.map((flag) => (
        <li key={flag.kind} className="inline-flex items-center gap-0.5">
          <Badge variant={FLAG_VARIANT[flag.kind]} className="whitespace-nowrap">
            {QUESTION_FLAG_LABELS[flag.kind]}
          </Badge>
          <InfoTip label={`Why “${QUESTION_FLAG_LABELS[flag.kind]}”`}>{flag.reason}</InfoTip>
        </li>
      ))}
    </ul>
  );
}

function Figure({ label, value, hint }: { label: string; value: ReactNode; hint?: string }) {
  return (
    <div className="min-w-0">
      <dt className="flex items-center gap-1 text-xs text-fg-muted">
        {label}
        {hint ? <InfoTip label={`What ${label.toLowerCase()} means`}>{hint}</InfoTip> : null}
      </dt>
      <dd className="font-medium text-fg tabular-nums">{value}</dd>
    </div>
  );
}

/** A question opened: its flags' reasons, its other figures, its answers and a link to its report. */
export function QuestionDetails({ question }: { question: QuestionStatistics }) {
  const guess =
    question.randomGuessScore === null
      ? '—'
      : `${formatShare(question.randomGuessScore)}${question.randomGuessBasis === 'true_false' ? ' (true/false)' : ' (choices seen)'}`;
  return (
    <div className="space-y-4">
      {question.text ? <p className="text-sm text-fg">{question.text}</p> : null}
      {question.flags.length > 0 ? (
        <ul className="space-y-1 text-sm" aria-label="Why it is flagged">
          {question.flags.map((flag) => (
            <li key={flag.kind} className="text-fg-muted">
              <span className="font-medium text-fg">{QUESTION_FLAG_LABELS[flag.kind]}:</span> {flag.reason}
            </li>
          ))}
        </ul>
      ) : null}
      <dl className="grid grid-cols-2 gap-3 text-sm sm:grid-cols-4">
        <Figure
          label="Answered"
          value={`${formatNumber(question.answered)} of ${formatNumber(question.attempts)}`}
          hint="Attempts that answered it; the others score 0 on it."
        />
        <Figure
          label="Mean mark"
          value={`${formatMarks(question.meanMark)} of ${formatMarks(question.maxMark)}`}
        />
        <Figure label="SD" value={formatShare(question.standardDeviation)} hint={DEFINITIONS.sd} />
        <Figure
          label="Efficiency"
          value={formatShare(question.discriminativeEfficiency)}
          hint={DEFINITIONS.efficiency}
        />
        <Figure
          label="Random guess score"
          value={guess}
          hint="The facility a learner guessing at random would reach, where the answers show the question type."
        />
        <Figure
          label="Intended weight"
          value={formatShare(question.intendedWeight)}
          hint="The question’s maximum mark as a share of the quiz’s maximum."
        />
        <Figure
          label="Effective weight"
          value={formatShare(question.effectiveWeight)}
          hint="The question’s actual share of the spread of totals. Far from the intended weight: it counts more or less than planned."
        />
        <Figure label="Answer key" value={question.correctAnswer ?? '—'} />
      </dl>
      <OptionsTable question={question} />
      {question.notes.length > 0 ? (
        <ul className="list-disc space-y-0.5 pl-5 text-xs text-fg-muted" aria-label="Notes">
          {question.notes.map((note) => (
            <li key={note}>{note}</li>
          ))}
        </ul>
      ) : null}
      <Link
        to={paths.questions.report.href(question.questionId)}
        className="inline-flex items-center gap-1 rounded text-sm font-medium text-brand-700 hover:underline focus-visible:outline-2 focus-visible:outline-focus dark:text-brand-300"
      >
        <ExternalLink aria-hidden="true" className="size-3.5" />
        Open the question’s report
      </Link>
    </div>
  );
}

function OptionsTable({ question }: { question: QuestionStatistics }) {
  const title = question.text ?? question.interactionId;
  return (
    <div className="overflow-x-auto rounded-xl border border-line bg-surface">
      <table className="w-full border-collapse text-sm">
        <caption className="sr-only">{`Answers to ${title}`}</caption>
        <thead className="border-b border-line bg-surface-muted/50">
          <tr className="text-xs font-semibold tracking-wide text-fg-subtle uppercase">
            <th scope="col" className="px-3 py-2 text-left">
              Answer
            </th>
            <th scope="col" className="px-3 py-2 text-left">
              Marked
            </th>
            <th scope="col" className="px-3 py-2 text-right">
              Attempts
            </th>
            <th scope="col" className="px-3 py-2 text-right">
              Share
            </th>
            <th scope="col" className="px-3 py-2 text-right">
              <span className="inline-flex flex-row-reverse items-center gap-0.5">
                Point-biserial
                <InfoTip label="What point-biserial means">
                  Correlation of choosing this answer with the rest of the attempt, from −1 to 1. The right
                  answer should be positive and wrong ones negative; a wrong answer with a positive value
                  draws the stronger learners.
                </InfoTip>
              </span>
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-line">
          {question.options.map((option) => (
            <tr key={`${option.isAnswered ? 'a' : 'u'}:${option.answer ?? ''}`}>
              <th scope="row" className="max-w-xs px-3 py-2 text-left font-normal break-words text-fg">
                {option.isAnswered ? (
                  (option.answer ?? <em className="text-fg-muted">(no answer text)</em>)
                ) : (
                  <em className="text-fg-muted">Not answered</em>
                )}
              </th>
              <td className="px-3 py-2 text-fg-muted">
                {option.isCorrect === null ? 'Not graded' : option.isCorrect ? 'Right' : 'Wrong'}
              </td>
              <td className="px-3 py-2 text-right text-fg-muted tabular-nums">
                {formatNumber(option.count)}
              </td>
              <td className="px-3 py-2 text-right tabular-nums">
                <span className="inline-flex items-center justify-end gap-2">
                  <span
                    aria-hidden="true"
                    className="hidden h-1.5 w-16 overflow-hidden rounded-full bg-surface-muted sm:block"
                  >
                    <span
                      className={cn(
                        'block h-full rounded-full',
                        option.isCorrect
                          ? 'bg-emerald-500 dark:bg-emerald-400'
                          : 'bg-slate-400 dark:bg-slate-500',
                      )}
                      style={{ width: `${Math.round(option.share * 100)}%` }}
                    />
                  </span>
                  <span className="text-fg">{formatShare(option.share)}</span>
                </span>
              </td>
              <td
                className={cn(
                  'px-3 py-2 text-right tabular-nums',
                  option.isCorrect === false && option.isAnswered && (option.pointBiserial ?? 0) > 0
                    ? 'font-medium text-rose-700 dark:text-rose-300'
                    : 'text-fg',
                )}
              >
                {formatCoefficient(option.pointBiserial)}
              </td>
            </tr>
          ))}
          {question.otherOptions.distinct > 0 ? (
            <tr>
              <th scope="row" className="px-3 py-2 text-left font-normal text-fg-muted">
                {`${formatNumber(question.otherOptions.distinct)} other answers`}
              </th>
              <td className="px-3 py-2 text-fg-muted">—</td>
              <td className="px-3 py-2 text-right text-fg-muted tabular-nums">
                {formatNumber(question.otherOptions.count)}
              </td>
              <td className="px-3 py-2 text-right text-fg tabular-nums">
                {formatShare(question.attempts > 0 ? question.otherOptions.count / question.attempts : null)}
              </td>
              <td className="px-3 py-2 text-right text-fg-muted">—</td>
            </tr>
          ) : null}
        </tbody>
      </table>
    </div>
  );
}
