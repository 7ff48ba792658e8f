import type { OrganizationPrefetchRoute } from '@/lib/route-loaders';
import { permissionFor } from '@/lib/roles';

import { apiKeysQueryOptions } from './api/get-api-keys';

/*
 * What the API keys tab starts before its code arrives, with the page's own
 * query options. Loaded by the app's route loaders on demand (its own chunk),
 * so the contracts and query options stay out of the main chunk.
 */

/** The API keys tab of the organization settings, for an owner (a member sees why not instead). */
export function apiKeysTab({ organizationId, organization, prefetch }: OrganizationPrefetchRoute) {
  if (permissionFor(organization.role, 'api-keys').isAllowed) prefetch(apiKeysQueryOptions(organizationId));
}
