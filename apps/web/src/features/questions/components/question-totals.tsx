import type { QuestionTotals as QuestionTotalsBody } from '@courselens/contracts';

import { Card } from '@/components/ui/card';
import { formatNumber } from '@/lib/format';

import { CorrectRateBar } from './correct-rate-bar';

export type QuestionTotalsProps = {
  totals: QuestionTotalsBody | undefined;
  isHidden: boolean;
};

/** Totals over every question the filters match (not just the page shown). */
export function QuestionTotals({ totals, isHidden }: QuestionTotalsProps) {
  const figures = [
    { label: isHidden ? 'Hidden questions' : 'Questions', value: formatNumber(totals?.questions) },
    { label: 'Responses', value: formatNumber(totals?.totalResponses) },
    { label: 'Correct responses', value: formatNumber(totals?.correctResponses) },
    {
      label: 'Learners per question',
      value: formatNumber(totals ? Math.round(totals.averageLearnersPerQuestion) : undefined),
    },
  ];
  return (
    <section aria-label="Totals" className="grid grid-cols-2 gap-3 lg:grid-cols-5">
      {figures.map((figure) => (
        <Card key={figure.label} className="p-4">
          <p className="text-xs font-medium text-fg-muted">{figure.label}</p>
          <p className="mt-1 text-2xl font-semibold tracking-tight text-fg tabular-nums">
            {totals ? figure.value : '…'}
          </p>
        </Card>
      ))}
      <Card className="col-span-2 p-4 lg:col-span-1">
        <p className="text-xs font-medium text-fg-muted">Correct rate</p>
        <div className="mt-2">
          {totals ? <CorrectRateBar rate={totals.correctRate} className="justify-start" /> : '…'}
        </div>
      </Card>
    </section>
  );
}
