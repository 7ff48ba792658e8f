import { PIPELINE_MESSAGES } from '@courselens/contracts';
import { RotateCcw, StepForward } from 'lucide-react';

import { Button } from '@/components/ui/button';
import { Sheet } from '@/components/ui/sheet';
import { Spinner } from '@/components/ui/spinner';
import { isApiError } from '@/lib/api-client';
import { formatDateTime } from '@/lib/format';
import { toast } from '@/lib/toast';

import { usePipelineRun } from '../../api/get-pipeline-runs';
import { useRetryPipelineRun, type RetryFrom } from '../../api/retry-pipeline-run';
import { RunStatusBadge, TRIGGER_LABELS, formatDuration } from '../status';

import { RunSteps } from './run-steps';

export type RunDetailSheetProps = {
  organizationId: string | undefined;
  pipelineId: string;
  runId: string | null;
  onClose: () => void;
  /** A retry starts a new run: show it. */
  onOpenRun: (runId: string) => void;
};

/** One run: its facts, the path it took step by step, and retries when it failed. */
export function RunDetailSheet({
  organizationId,
  pipelineId,
  runId,
  onClose,
  onOpenRun,
}: RunDetailSheetProps) {
  const run = usePipelineRun(organizationId, pipelineId, runId);
  const retry = useRetryPipelineRun(organizationId, pipelineId);
  const data = run.data;

  async function handleRetry(from: RetryFrom) {
    if (!runId) return;
    try {
      const retried = await retry.mutateAsync({ runId, from });
      toast.success(from === 'failed' ? 'Retrying from the failed step' : 'Running the whole run again');
      if (retried?.id && retried.id !== runId) onOpenRun(retried.id);
    } catch (error) {
      toast.error(isApiError(error) ? error.message : 'The run could not be retried. Please try again.');
    }
  }

  const isFailed = data?.status === 'failed';
  return (
    <Sheet
      open={runId !== null}
      onClose={onClose}
      title="Run"
      className="sm:w-[34rem]"
      description={data ? `Started ${formatDateTime(data.startedAt)}` : undefined}
      footer={
        isFailed ? (
          <>
            <Button
              onClick={() => void handleRetry('failed')}
              isLoading={retry.isPending && retry.variables?.from === 'failed'}
            >
              <StepForward aria-hidden="true" />
              Retry from failed step
            </Button>
            <Button
              variant="outline"
              onClick={() => void handleRetry('start')}
              isLoading={retry.isPending && retry.variables?.from === 'start'}
            >
              <RotateCcw aria-hidden="true" />
              Retry whole run
            </Button>
          </>
        ) : undefined
      }
    >
      {run.isPending ? (
        <div className="flex justify-center py-10 text-fg-muted">
          <Spinner label="Loading the run" />
        </div>
      ) : run.isError ? (
        <p role="alert" className="text-sm text-rose-600 dark:text-rose-400">
          {isApiError(run.error) && run.error.status === 404
            ? PIPELINE_MESSAGES.runNotFound
            : run.error.message}
        </p>
      ) : data ? (
        <div className="flex flex-col gap-5">
          <dl className="grid grid-cols-2 gap-x-4 gap-y-3 text-sm">
            <div>
              <dt className="text-xs text-fg-subtle">Status</dt>
              <dd className="mt-0.5" aria-live="polite">
                <RunStatusBadge status={data.status} />
              </dd>
            </div>
            <div>
              <dt className="text-xs text-fg-subtle">Trigger</dt>
              <dd className="mt-0.5 text-fg">{TRIGGER_LABELS[data.trigger]}</dd>
            </div>
            <div>
              <dt className="text-xs text-fg-subtle">Event</dt>
              <dd className="mt-0.5 break-words text-fg">{data.eventType ?? '—'}</dd>
            </div>
            <div>
              <dt className="text-xs text-fg-subtle">Learner</dt>
              <dd className="mt-0.5 break-words text-fg">{data.learnerEmail ?? '—'}</dd>
            </div>
            <div>
              <dt className="text-xs text-fg-subtle">Duration</dt>
              <dd className="mt-0.5 text-fg tabular-nums">{formatDuration(data.durationMs)}</dd>
            </div>
            <div>
              <dt className="text-xs text-fg-subtle">Version</dt>
              <dd className="mt-0.5 text-fg tabular-nums">{data.version}</dd>
            </div>
          </dl>
          {data.error ? (
            <p className="rounded-lg bg-rose-50 px-3 py-2 text-sm break-words text-rose-800 dark:bg-rose-400/10 dark:text-rose-200">
              {data.error}
            </p>
          ) : null}
          <section className="flex flex-col gap-3">
            <h3 className="text-sm font-semibold text-fg">Path through the pipeline</h3>
            <RunSteps steps={data.steps} emptyText="No step has run yet." />
          </section>
        </div>
      ) : null}
    </Sheet>
  );
}
