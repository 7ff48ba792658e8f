import type { FailedJob } from '@courselens/contracts';
import { CircleCheck, Lock, RotateCw } from 'lucide-react';

import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { useSession } from '@/lib/auth';
import { useCanManage } from '@/lib/roles';
import { toast } from '@/lib/toast';

import { useFailedJobs } from '../api/get-failed-jobs';
import { useRetryJob } from '../api/retry-job';

const dateTimeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** What a kind of job does, for people; unknown kinds show their queue name. */
const JOB_LABELS: Record<string, string> = {
  'learning-events.maintain': 'Learning-event log upkeep (partitions and retention)',
};

export function jobLabel(queue: string): string {
  return JOB_LABELS[queue] ?? queue;
}

/**
 * Background jobs of the organization that failed after their retries
 * (webhooks, e-mails, upkeep...), with the last error and a retry button.
 * Owners only, like the other organization settings.
 */
export function FailedJobsPanel() {
  const session = useSession();
  const organizationId = session.currentOrganization?.id;
  const permission = useCanManage('organization');
  const failedJobs = useFailedJobs(permission.isAllowed ? organizationId : null);
  const retry = useRetryJob(organizationId);

  function handleRetry(job: FailedJob) {
    retry.mutate(
      { queue: job.queue, id: job.id },
      {
        onSuccess: () => toast.success(`${jobLabel(job.queue)}: queued again`),
        onError: (error) => toast.error(error.message),
      },
    );
  }

  return (
    <section aria-labelledby="failed-jobs-heading" className="flex flex-col gap-5">
      <div>
        <h2 id="failed-jobs-heading" className="text-lg font-semibold tracking-tight text-fg">
          Background jobs
        </h2>
        <p className="mt-1 text-sm text-fg-muted">
          Work CourseLens does after the fact is retried on its own with growing pauses. What still failed
          after every retry is listed here with its last error, to retry once the cause is fixed.
        </p>
      </div>
      {permission.reason ? (
        <div className="flex flex-col items-center rounded-2xl border border-dashed border-line-strong px-4 py-10 text-center">
          <Lock aria-hidden="true" className="size-8 text-fg-subtle" />
          <p className="mt-3 font-medium text-fg">{permission.reason}</p>
        </div>
      ) : !permission.isAllowed ? null : failedJobs.isPending && organizationId ? (
        <div className="flex justify-center py-10 text-fg-muted">
          <Spinner label="Loading failed jobs" />
        </div>
      ) : failedJobs.isError ? (
        <p
          role="alert"
          className="rounded-xl border border-line p-4 text-sm text-rose-600 dark:text-rose-400"
        >
          {failedJobs.error.message}
        </p>
      ) : !failedJobs.data || failedJobs.data.length === 0 ? (
        <div className="flex flex-col items-center rounded-2xl border border-dashed border-line-strong px-4 py-10 text-center">
          <CircleCheck aria-hidden="true" className="size-8 text-emerald-600 dark:text-emerald-400" />
          <p className="mt-3 font-medium text-fg">No failed jobs</p>
          <p className="mt-1 text-sm text-fg-muted">
            Everything in the background ran, or is still retrying.
          </p>
        </div>
      ) : (
        <ul className="flex flex-col gap-3" aria-label="Failed jobs">
          {failedJobs.data.map((job) => {
            const isRetrying = retry.isPending && retry.variables.id === job.id;
            return (
              <li
                key={job.id}
                className="flex flex-col gap-3 rounded-2xl border border-line bg-surface p-4 sm:flex-row sm:items-start sm:justify-between"
              >
                <div className="min-w-0">
                  <p className="font-medium text-fg">{jobLabel(job.queue)}</p>
                  <p className="mt-1 text-sm break-words text-rose-700 dark:text-rose-300">{job.error}</p>
                  <p className="mt-1 text-xs text-fg-muted">
                    {job.attempts} {job.attempts === 1 ? 'attempt' : 'attempts'} · failed{' '}
                    {dateTimeFormat.format(new Date(job.failedAt ?? job.createdAt))}
                  </p>
                </div>
                <Button
                  variant="secondary"
                  size="sm"
                  className="shrink-0 self-start"
                  onClick={() => handleRetry(job)}
                  disabled={isRetrying}
                  aria-label={`Retry ${jobLabel(job.queue)}`}
                >
                  <RotateCw aria-hidden="true" className={isRetrying ? 'animate-spin' : undefined} />
                  Retry
                </Button>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
