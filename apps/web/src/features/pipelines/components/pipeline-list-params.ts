import { PIPELINE_SORT_KEYS, PIPELINE_STATUSES, type PipelineStatus } from '@courselens/contracts';

import { readListParams } from '@/lib/use-list-params';

import type { PipelineListParams } from '../api/get-pipelines';

export const PIPELINE_LIST_DEFAULTS = { sort: 'updatedAt', order: 'desc' } as const;

/** `?status=` when it names a status, else null (every status). */
export function readPipelineStatus(searchParams: URLSearchParams): PipelineStatus | null {
  const status = searchParams.get('status');
  return status !== null && (PIPELINE_STATUSES as readonly string[]).includes(status)
    ? (status as PipelineStatus)
    : null;
}

/** The pipelines list as its URL says it (the screen and its route loader read it alike). */
export function readPipelineListParams(searchParams: URLSearchParams): PipelineListParams {
  return {
    ...readListParams(searchParams, PIPELINE_SORT_KEYS, PIPELINE_LIST_DEFAULTS),
    status: readPipelineStatus(searchParams),
  };
}
