import type { DashboardResponse } from '@courselens/contracts';
import { Link } from 'react-router';

import { Badge, type BadgeVariant } from '@/components/ui/badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { paths } from '@/config/paths';
import { formatNumber, formatPercent } from '@/lib/format';

function rateVariant(rate: number): BadgeVariant {
  if (rate < 0.5) return 'danger';
  if (rate < 0.75) return 'warning';
  return 'success';
}

export type HardestQuestionsCardProps = { dashboard: DashboardResponse };

/** Questions with the lowest share of correct answers in the period. */
export function HardestQuestionsCard({ dashboard }: HardestQuestionsCardProps) {
  const { hardestQuestions, minResponses, period } = dashboard;
  return (
    <Card className="min-w-0">
      <CardHeader>
        <CardTitle>Hardest questions</CardTitle>
        <CardDescription>
          Lowest correct rate in the last {period.days} days, among questions with at least {minResponses}{' '}
          graded answers
        </CardDescription>
      </CardHeader>
      <CardContent>
        {hardestQuestions.length === 0 ? (
          <p className="text-sm text-fg-muted">
            No question has {minResponses} graded answers in this period yet.
          </p>
        ) : (
          <ol className="divide-y divide-line">
            {hardestQuestions.map((question) => (
              <li
                key={question.id}
                className="flex items-start justify-between gap-3 py-3 first:pt-0 last:pb-0"
              >
                <div className="min-w-0">
                  <Link
                    to={paths.questions.report.href(question.id)}
                    className="line-clamp-2 text-sm font-medium text-fg underline-offset-2 hover:underline"
                  >
                    {question.questionText || question.interactionId}
                  </Link>
                  <p className="mt-0.5 truncate text-xs text-fg-subtle">
                    {question.courseTitle}
                    {question.slideNumber !== null ? ` · slide ${question.slideNumber}` : ''} ·{' '}
                    {formatNumber(question.correctResponses)} of {formatNumber(question.responses)} correct
                  </p>
                </div>
                <Badge variant={rateVariant(question.correctRate)} className="tabular-nums">
                  {formatPercent(question.correctRate)}
                  <span className="sr-only"> correct</span>
                </Badge>
              </li>
            ))}
          </ol>
        )}
      </CardContent>
    </Card>
  );
}
