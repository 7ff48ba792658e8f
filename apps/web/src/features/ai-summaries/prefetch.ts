import type { OrganizationPrefetchRoute } from '@/lib/route-loaders';

import {
  aiSummaryQueryOptions,
  courseVariableSummarySource,
  variableSummarySource,
} from './api/get-ai-summary';

/*
 * What each summary route starts before its page's code arrives, with the
 * page's own query options. Loaded by `routes.tsx` on demand (its own chunk),
 * so the contracts and query options stay out of the main chunk.
 */

/** A course's variable: its summary. */
export function courseVariableSummary({ organizationId, params, prefetch }: OrganizationPrefetchRoute) {
  prefetch(aiSummaryQueryOptions(organizationId, courseVariableSummarySource(params)));
}

/** A variable across the organization: its summary, when the URL names one. */
export function variableSummary({ organizationId, params, prefetch }: OrganizationPrefetchRoute) {
  const source = variableSummarySource(params);
  if (source) prefetch(aiSummaryQueryOptions(organizationId, source));
}
