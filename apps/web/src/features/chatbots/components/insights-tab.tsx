import type { ChatbotInsights } from '@courselens/contracts';
import { HelpCircle, TrendingDown, Variable } from 'lucide-react';

import { StatGrid } from '@/components/stat-grid';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { Spinner } from '@/components/ui/spinner';
import { cn } from '@/lib/cn';
import { formatDateTime, formatNumber, formatPercent, formatRelative } from '@/lib/format';
import type { OrganizationIdInput } from '@/lib/query-keys';

import { useChatbotInsights } from '../api/get-chatbot-insights';

type VariableInsight = ChatbotInsights['variables'][number];

/**
 * The variable that loses the most learners: the most conversations in
 * which the agent asked and got no answer (ties: the lower rate, then the
 * earlier question). Null when every question asked was answered.
 */
export function variableLosingMost(variables: readonly VariableInsight[]): VariableInsight | null {
  let worst: VariableInsight | null = null;
  for (const variable of variables) {
    const lost = variable.asked - variable.captured;
    if (lost <= 0) continue;
    const worstLost = worst ? worst.asked - worst.captured : 0;
    if (!worst || lost > worstLost || (lost === worstLost && (variable.rate ?? 1) < (worst.rate ?? 1))) {
      worst = variable;
    }
  }
  return worst;
}

function CaptureBars({ variables }: { variables: readonly VariableInsight[] }) {
  const worst = variableLosingMost(variables);
  return (
    <ul className="flex flex-col gap-4" aria-label="Capture rate per variable">
      {variables.map((variable) => {
        const isWorst = worst?.name === variable.name;
        const rate = variable.rate;
        return (
          <li
            key={variable.name}
            className={cn(
              'flex flex-col gap-1.5 rounded-xl p-3',
              isWorst
                ? 'bg-amber-50 ring-1 ring-amber-600/25 dark:bg-amber-400/10 dark:ring-amber-400/25'
                : 'bg-surface-muted/50',
            )}
          >
            <div className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1">
              <span className="flex min-w-0 flex-wrap items-center gap-2">
                <span className="font-medium break-words text-fg">{variable.title}</span>
                <span className="font-mono text-xs text-fg-subtle">{variable.name}</span>
                {variable.required ? null : <Badge>Optional</Badge>}
                {isWorst ? (
                  <Badge variant="warning">
                    <TrendingDown aria-hidden="true" className="size-3" />
                    Loses the most learners
                  </Badge>
                ) : null}
              </span>
              <span className="text-sm font-semibold text-fg tabular-nums">{formatPercent(rate)}</span>
            </div>
            <div className="h-2 overflow-hidden rounded-full bg-surface-muted" aria-hidden="true">
              <div
                className={cn(
                  'h-full rounded-full',
                  isWorst ? 'bg-amber-500 dark:bg-amber-400' : 'bg-brand-500 dark:bg-brand-400',
                )}
                style={{ width: `${Math.round((rate ?? 0) * 100)}%` }}
              />
            </div>
            <p className="text-xs text-fg-muted tabular-nums">
              Asked in {formatNumber(variable.asked)}{' '}
              {variable.asked === 1 ? 'conversation' : 'conversations'}, captured in{' '}
              {formatNumber(variable.captured)}
              {isWorst
                ? ` · ${formatNumber(variable.asked - variable.captured)} learners did not answer`
                : ''}
            </p>
          </li>
        );
      })}
    </ul>
  );
}

export type InsightsTabProps = { organizationId: OrganizationIdInput; chatbotId: string };

/** The Insights tab: how well each variable is captured, and what learners asked that the knowledge could not answer. */
export function InsightsTab({ organizationId, chatbotId }: InsightsTabProps) {
  const insights = useChatbotInsights(organizationId, chatbotId);
  if (insights.isPending) {
    return (
      <div className="flex justify-center py-16 text-accent">
        <Spinner label="Loading insights" />
      </div>
    );
  }
  if (insights.isError) {
    return (
      <p role="alert" className="py-10 text-center text-sm text-rose-600 dark:text-rose-400">
        {insights.error.message}
      </p>
    );
  }
  const data = insights.data;
  const completion = data.conversations === 0 ? null : data.completed / data.conversations;
  return (
    <div className="flex flex-col gap-6">
      <StatGrid
        label="Agent totals"
        stats={[
          { label: 'Conversations', value: formatNumber(data.conversations) },
          { label: 'Learners', value: formatNumber(data.learners) },
          {
            label: 'Complete',
            value: formatNumber(data.completed),
            hint: 'Conversations in which every required variable was captured',
          },
          { label: 'Capture rate', value: formatPercent(completion) },
        ]}
      />
      <div className="grid min-w-0 gap-6 lg:grid-cols-2 lg:items-start">
        <Card>
          <CardHeader>
            <CardTitle>Capture by variable</CardTitle>
            <CardDescription>
              Of the conversations in which the agent asked for a value, how many got it.
            </CardDescription>
          </CardHeader>
          <CardContent>
            {data.variables.length === 0 ? (
              <EmptyState icon={<Variable />} title="No variables">
                Add variables in Settings to see how often learners answer them.
              </EmptyState>
            ) : (
              <CaptureBars variables={data.variables} />
            )}
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>Knowledge gaps</CardTitle>
            <CardDescription>
              Questions the knowledge could not answer, most asked first: add their answers to the knowledge.
            </CardDescription>
          </CardHeader>
          <CardContent>
            {data.knowledgeGaps.length === 0 ? (
              <EmptyState icon={<HelpCircle />} title="No gaps found">
                Every question so far found an answer in the knowledge.
              </EmptyState>
            ) : (
              <ol className="flex flex-col divide-y divide-line" aria-label="Knowledge gaps">
                {[...data.knowledgeGaps]
                  .sort((a, b) => b.count - a.count)
                  .map((gap) => (
                    <li
                      key={gap.question}
                      className="flex items-start justify-between gap-3 py-2.5 first:pt-0"
                    >
                      <span className="flex min-w-0 flex-col gap-0.5">
                        <span className="text-sm break-words text-fg">{gap.question}</span>
                        <time
                          dateTime={gap.lastAskedAt}
                          title={formatDateTime(gap.lastAskedAt)}
                          className="text-xs text-fg-subtle"
                        >
                          Last asked {formatRelative(gap.lastAskedAt)}
                        </time>
                      </span>
                      <Badge variant="neutral" className="tabular-nums">
                        {formatNumber(gap.count)} {gap.count === 1 ? 'time' : 'times'}
                      </Badge>
                    </li>
                  ))}
              </ol>
            )}
          </CardContent>
        </Card>
      </div>
    </div>
  );
}
