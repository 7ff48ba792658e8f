import type { OrganizationPrefetchRoute, PrefetchRoute } from '@/lib/route-loaders';
import { permissionFor } from '@/lib/roles';

import { invitationPreviewQueryOptions } from './api/get-invitation-preview';
import { invitationsQueryOptions } from './api/get-invitations';
import { membersQueryOptions } from './api/get-members';

/*
 * What the team's screens start before their code arrives, with the pages'
 * own query options. Loaded by the app's route loaders on demand (its own
 * chunk), so the contracts and query options stay out of the main chunk.
 */

/** `/team-signup?token=`: the invitation (public, read by its token). */
export function teamSignup({ searchParams, prefetch }: PrefetchRoute) {
  prefetch(invitationPreviewQueryOptions(searchParams.get('token') ?? ''));
}

/** The Members tab of the organization settings. */
export function membersTab({ organizationId, prefetch }: OrganizationPrefetchRoute) {
  prefetch(membersQueryOptions(organizationId));
}

/** The Invitations tab, for an owner (a member sees why not instead). */
export function invitationsTab({ organizationId, organization, prefetch }: OrganizationPrefetchRoute) {
  if (permissionFor(organization.role, 'team').isAllowed) prefetch(invitationsQueryOptions(organizationId));
}
