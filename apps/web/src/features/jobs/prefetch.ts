import type { OrganizationPrefetchRoute } from '@/lib/route-loaders';
import { permissionFor } from '@/lib/roles';

import { failedJobsQueryOptions } from './api/get-failed-jobs';

/*
 * What the background jobs tab starts before its code arrives, with the
 * page's own query options. Loaded by the app's route loaders on demand (its
 * own chunk), so the contracts and query options stay out of the main chunk.
 */

/** The background jobs tab of the organization settings, for an owner (a member sees why not instead). */
export function failedJobsTab({ organizationId, organization, prefetch }: OrganizationPrefetchRoute) {
  if (permissionFor(organization.role, 'organization').isAllowed) {
    prefetch(failedJobsQueryOptions(organizationId));
  }
}
