import type { OrganizationPrefetchRoute } from '@/lib/route-loaders';

import { activityQueryOptions } from './api/get-activity';
import { activityActorsQueryOptions } from './api/get-activity-actors';
import { readActivityFilters, toActivityParams } from './components/use-activity-filters';

/*
 * What the activity route starts before its page's code arrives, with the
 * page's own query options. Loaded by `routes.tsx` on demand (its own chunk),
 * so the contracts and query options stay out of the main chunk.
 */

/** `/activity`: the feed its URL asks for, and its people filter. */
export function activityFeed({ organizationId, searchParams, prefetch }: OrganizationPrefetchRoute) {
  prefetch(activityQueryOptions(organizationId, toActivityParams(readActivityFilters(searchParams))));
  prefetch(activityActorsQueryOptions(organizationId));
}
