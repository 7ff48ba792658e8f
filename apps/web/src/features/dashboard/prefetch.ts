import type { OrganizationPrefetchRoute } from '@/lib/route-loaders';

import { dashboardQueryOptions } from './api/get-dashboard';
import { parsePeriod } from './components/parse-period';

/*
 * What the dashboard route starts before its page's code arrives, with the
 * page's own query options. Loaded by `routes.tsx` on demand (its own chunk),
 * so the contracts and query options stay out of the main chunk.
 */

/** `/dashboard?days=`: the figures of the period its URL asks for. */
export function dashboardFigures({ organizationId, searchParams, prefetch }: OrganizationPrefetchRoute) {
  prefetch(dashboardQueryOptions(organizationId, parsePeriod(searchParams.get('days'))));
}
