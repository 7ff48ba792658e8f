import type { FailedJob, FailedJobsResponse } from '@courselens/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import { organizationDomainKey } from '@/lib/query-keys';

/** `GET /api/jobs/failed` of the current organization: background jobs whose retries are used up. */
export async function getFailedJobs({ signal }: { signal?: AbortSignal } = {}): Promise<FailedJob[]> {
  const body = await api.get<FailedJobsResponse>('/jobs/failed', { signal });
  return body.jobs;
}

export function failedJobsQueryOptions(organizationId: string | null | undefined) {
  return queryOptions({
    queryKey: [...organizationDomainKey(organizationId, 'jobs'), 'failed'] as const,
    queryFn: ({ signal }) => getFailedJobs({ signal }),
    enabled: Boolean(organizationId),
  });
}

export function useFailedJobs(organizationId: string | null | undefined) {
  return useQuery(failedJobsQueryOptions(organizationId));
}
