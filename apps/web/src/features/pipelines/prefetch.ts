import type { OrganizationPrefetchRoute } from '@/lib/route-loaders';

import {
  actionOptionsQueryOptions,
  chatbotOptionsQueryOptions,
  courseOptionsQueryOptions,
  variableOptionsQueryOptions,
} from './api/get-editor-options';
import { pipelineQueryOptions } from './api/get-pipeline';
import { pipelineRunsQueryOptions } from './api/get-pipeline-runs';
import { pipelinesQueryOptions } from './api/get-pipelines';
import { readPipelineListParams } from './components/pipeline-list-params';
import { readRunListParams } from './components/runs/run-list-params';

/*
 * What each pipeline route starts before its page's code arrives, with the
 * page's own query options. Loaded by `routes.tsx` on demand (its own chunk),
 * so the contracts and query options stay out of the main chunk.
 */

/** `/pipelines`: the list its URL asks for. */
export function pipelineList({ organizationId, searchParams, prefetch }: OrganizationPrefetchRoute) {
  prefetch(pipelinesQueryOptions(organizationId, readPipelineListParams(searchParams)));
}

/** `/pipeline/:id`: the pipeline, and the runs (Runs tab) or what the node forms pick from (Editor tab). */
export function pipelineEditor({
  organizationId,
  params,
  searchParams,
  prefetch,
}: OrganizationPrefetchRoute) {
  const pipelineId = params.id ?? '';
  prefetch(pipelineQueryOptions(organizationId, pipelineId));
  if (searchParams.get('tab') === 'runs') {
    prefetch(pipelineRunsQueryOptions(organizationId, pipelineId, readRunListParams(searchParams)));
  } else {
    prefetch(courseOptionsQueryOptions(organizationId));
    prefetch(variableOptionsQueryOptions(organizationId));
    prefetch(actionOptionsQueryOptions(organizationId));
    prefetch(chatbotOptionsQueryOptions(organizationId));
  }
}
