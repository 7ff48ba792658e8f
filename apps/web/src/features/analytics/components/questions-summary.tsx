import type { QuizStatistics } from '@courselens/contracts';
import { Info } from 'lucide-react';
import type { ReactNode } from 'react';

import { InfoTip } from '@/components/ui/info-tip';
import { formatNumber } from '@/lib/format';

import { formatCoefficient, formatMarks, formatShare } from './questions-format';

type QuizStat = { label: string; value: string; detail?: string; definition: ReactNode };

function quizStats(quiz: QuizStatistics): QuizStat[] {
  const ofMax = (marks: number | null) =>
    marks !== null && quiz.maxTotal > 0
      ? `${formatShare(marks / quiz.maxTotal)} of ${formatMarks(quiz.maxTotal)}`
      : undefined;
  return [
    {
      label: 'Attempts',
      value: formatNumber(quiz.attempts),
      detail: `${formatNumber(quiz.questions)} ${quiz.questions === 1 ? 'question' : 'questions'}`,
      definition:
        'The attempts analysed: finished runs (under the completion rule) with at least one answer, picked per learner as the settings say.',
    },
    {
      label: 'Mean',
      value: formatMarks(quiz.mean),
      detail: ofMax(quiz.mean),
      definition:
        'The average total, in marks. A question’s mark is its points when the course sends them, else 1 for right and 0 for wrong.',
    },
    {
      label: 'Median',
      value: formatMarks(quiz.median),
      detail: ofMax(quiz.median),
      definition: 'The middle total: half the attempts scored this or less.',
    },
    {
      label: 'Standard deviation',
      value: formatMarks(quiz.standardDeviation),
      detail: ofMax(quiz.standardDeviation),
      definition:
        'How far totals typically sit from the mean, in marks (the sample standard deviation, n − 1).',
    },
    {
      label: 'Skewness',
      value: formatCoefficient(quiz.skewness),
      definition:
        'Whether the totals lean to one side. Negative: a tail of low scores (most did well); positive: a tail of high scores. Between −1 and 1 is usual.',
    },
    {
      label: 'Kurtosis',
      value: formatCoefficient(quiz.kurtosis),
      definition:
        'How heavy the tails are compared with a bell curve (which scores 0). Positive: more very high or very low totals than a bell curve would have.',
    },
    {
      label: 'Cronbach’s alpha',
      value: formatCoefficient(quiz.cronbachAlpha),
      definition:
        'Internal consistency (KR-20 for right/wrong questions): whether the questions measure the same thing. Above 0.70 is usually fine for a course quiz, above 0.90 for a high-stakes test.',
    },
    {
      label: 'Error ratio',
      value: formatShare(quiz.errorRatio),
      definition:
        'The share of the spread of totals that is random error, √(1 − alpha). Below 50 % is acceptable; lower is better.',
    },
    {
      label: 'Standard error',
      value: formatMarks(quiz.standardError),
      detail: 'marks',
      definition:
        'How far a learner’s total could move by chance alone, in marks: the error ratio times the standard deviation.',
    },
  ];
}

/** The quiz's statistics as a grid of figures, each with its definition in plain words. */
export function QuizSummary({ quiz }: { quiz: QuizStatistics }) {
  return (
    <section aria-labelledby="quiz-summary-title" className="space-y-3">
      <h2 id="quiz-summary-title" className="text-base font-semibold text-fg">
        The quiz
      </h2>
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-5">
        {quizStats(quiz).map((stat) => (
          <div key={stat.label} className="min-w-0 rounded-xl border border-line bg-surface px-3 py-2.5">
            <dt className="flex items-center gap-1 text-xs text-fg-muted">
              <span className="truncate">{stat.label}</span>
              <InfoTip label={`What ${stat.label} means`}>{stat.definition}</InfoTip>
            </dt>
            <dd className="mt-0.5 text-lg font-semibold text-fg tabular-nums">{stat.value}</dd>
            {stat.detail ? <dd className="truncate text-xs text-fg-subtle">{stat.detail}</dd> : null}
          </div>
        ))}
      </dl>
      {quiz.notes.length > 0 ? (
        <ul
          aria-label="About these figures"
          className="space-y-1 rounded-xl border border-amber-600/25 bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:border-amber-400/25 dark:bg-amber-400/10 dark:text-amber-100"
        >
          {quiz.notes.map((note) => (
            <li key={note} className="flex gap-2">
              <Info aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
              <span>{note}</span>
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
