import type { RetryJobInput } from '@courselens/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { failedJobsQueryOptions } from './get-failed-jobs';

/** `POST /api/jobs/retry`: the failed job is queued again, with its retries restored. */
export function retryJob(input: RetryJobInput): Promise<{ message: string }> {
  return api.post<{ message: string }>('/jobs/retry', input);
}

export function useRetryJob(organizationId: string | null | undefined) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: retryJob,
    onSettled: () =>
      queryClient.invalidateQueries({ queryKey: failedJobsQueryOptions(organizationId).queryKey }),
  });
}
