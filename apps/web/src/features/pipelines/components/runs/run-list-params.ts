import {
  PIPELINE_RUN_STATUSES,
  PIPELINE_TRIGGER_KINDS,
  type PipelineRunStatus,
  type PipelineTriggerKind,
} from '@courselens/contracts';

import type { PipelineRunListParams } from '../../api/get-pipeline-runs';

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** The runs list as its URL says it (`?status=&trigger=&from=&to=&page=`); the route loader reads it alike. */
export function readRunListParams(searchParams: URLSearchParams): PipelineRunListParams {
  const status = searchParams.get('status');
  const trigger = searchParams.get('trigger');
  const from = searchParams.get('from');
  const to = searchParams.get('to');
  const page = Number(searchParams.get('page'));
  return {
    page: Number.isInteger(page) && page >= 1 ? page : 1,
    status:
      status && (PIPELINE_RUN_STATUSES as readonly string[]).includes(status)
        ? (status as PipelineRunStatus)
        : null,
    trigger:
      trigger && (PIPELINE_TRIGGER_KINDS as readonly string[]).includes(trigger)
        ? (trigger as PipelineTriggerKind)
        : null,
    from: from && DATE.test(from) ? from : null,
    to: to && DATE.test(to) ? to : null,
  };
}
