import type { OrganizationPrefetchRoute } from '@/lib/route-loaders';

import { analyticsSettingsQueryOptions } from './api/get-analytics-settings';

/*
 * What each analytics route starts before its page's code arrives, with the
 * page's own query options. Loaded by `routes.tsx` on demand (its own chunk).
 */

/** `/analytics/settings`: the settings. */
export function analyticsSettings({ organizationId, prefetch }: OrganizationPrefetchRoute) {
  prefetch(analyticsSettingsQueryOptions(organizationId));
}
