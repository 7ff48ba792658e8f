import { PIPELINE_NODE_LABELS, type PipelineRunStep } from '@courselens/contracts';
import { Clock, RefreshCw } from 'lucide-react';

import { formatDateTime, formatRelative } from '@/lib/format';
import { cn } from '@/lib/cn';

import { CATEGORY_TILE, NODE_ICONS, nodeCategory } from '../editor/node-visuals';
import { JsonView } from '../json-view';
import { RunStatusBadge, formatDuration } from '../status';

export type RunStepsProps = { steps: readonly PipelineRunStep[]; emptyText?: string };

const LINE_COLOURS: Record<PipelineRunStep['status'], string> = {
  succeeded: 'bg-emerald-400 dark:bg-emerald-400/60',
  failed: 'bg-rose-400 dark:bg-rose-400/60',
  running: 'bg-brand-400 dark:bg-brand-300/60',
  waiting: 'bg-amber-400 dark:bg-amber-400/60',
  skipped: 'bg-line-strong',
};

/**
 * The path a run took through the graph, one step per node it reached, in
 * order: status, duration, attempts, the time a waiting step goes on, the
 * error, and what the step got and gave (collapsed).
 */
export function RunSteps({ steps, emptyText = 'No step ran.' }: RunStepsProps) {
  if (steps.length === 0) return <p className="text-sm text-fg-muted">{emptyText}</p>;
  return (
    <ol className="flex flex-col" aria-label="Steps">
      {steps.map((step, index) => {
        const Icon = NODE_ICONS[step.nodeType];
        const isLast = index === steps.length - 1;
        return (
          <li key={`${step.nodeId}-${index}`} className="relative flex gap-3 pb-4">
            {isLast ? null : (
              <span
                aria-hidden="true"
                className={cn(
                  'absolute top-9 bottom-0 left-4 w-0.5 -translate-x-1/2 rounded',
                  LINE_COLOURS[step.status],
                )}
              />
            )}
            <span
              aria-hidden="true"
              className={cn(
                'relative flex size-8 shrink-0 items-center justify-center rounded-lg [&_svg]:size-4',
                CATEGORY_TILE[nodeCategory(step.nodeType)],
              )}
            >
              <Icon />
            </span>
            <div className="flex min-w-0 flex-1 flex-col gap-1.5">
              <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
                <span className="font-medium break-words text-fg">{step.nodeName}</span>
                <span className="text-xs text-fg-subtle">{PIPELINE_NODE_LABELS[step.nodeType]}</span>
                <RunStatusBadge status={step.status} />
              </div>
              <p className="flex flex-wrap gap-x-3 gap-y-0.5 text-xs text-fg-muted">
                <span>
                  <span className="sr-only">Duration: </span>
                  {formatDuration(step.durationMs)}
                </span>
                {step.attempts > 1 ? (
                  <span className="inline-flex items-center gap-1 [&_svg]:size-3">
                    <RefreshCw aria-hidden="true" />
                    {step.attempts} attempts
                  </span>
                ) : null}
                <time dateTime={step.startedAt} title={formatDateTime(step.startedAt)}>
                  Started {formatRelative(step.startedAt)}
                </time>
              </p>
              {step.resumeAt ? (
                <p className="inline-flex items-center gap-1 text-xs font-medium text-amber-800 dark:text-amber-200 [&_svg]:size-3.5">
                  <Clock aria-hidden="true" />
                  <span>
                    Goes on {formatRelative(step.resumeAt)}{' '}
                    <time dateTime={step.resumeAt}>{`(${formatDateTime(step.resumeAt)})`}</time>
                  </span>
                </p>
              ) : null}
              {step.error ? (
                <p className="rounded-lg bg-rose-50 px-2.5 py-1.5 text-sm break-words text-rose-800 dark:bg-rose-400/10 dark:text-rose-200">
                  {step.error}
                </p>
              ) : null}
              <div className="flex flex-col gap-1.5">
                <JsonView label="Input" value={step.input} />
                <JsonView label="Output" value={step.output} defaultOpen={step.status === 'failed'} />
              </div>
            </div>
          </li>
        );
      })}
    </ol>
  );
}
