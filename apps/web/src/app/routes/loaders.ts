import type { OwnerArea } from '@courselens/contracts';
import type { QueryClient } from '@tanstack/react-query';

import { apiKeysQueryOptions } from '@/features/api-keys/api/get-api-keys';
import { failedJobsQueryOptions } from '@/features/jobs/api/get-failed-jobs';
import { readSettingsTab } from '@/features/organizations/components/settings-tabs';
import { invitationPreviewQueryOptions } from '@/features/team/api/get-invitation-preview';
import { invitationsQueryOptions } from '@/features/team/api/get-invitations';
import { membersQueryOptions } from '@/features/team/api/get-members';
import { permissionFor } from '@/lib/roles';
import { organizationLoader, prefetchLoader } from '@/lib/route-loaders';

/**
 * `/organization/settings?tab=`: the open tab's list, if the user's role lets
 * the tab read it (owner-only tabs show a reason instead). General shows
 * what the session already holds.
 */
export function organizationSettingsLoader(queryClient: QueryClient) {
  return organizationLoader(queryClient, ({ organizationId, organization, searchParams, prefetch }) => {
    const isAllowed = (area: OwnerArea) => permissionFor(organization.role, area).isAllowed;
    switch (readSettingsTab(searchParams)) {
      case 'members':
        prefetch(membersQueryOptions(organizationId));
        break;
      case 'invitations':
        if (isAllowed('team')) prefetch(invitationsQueryOptions(organizationId));
        break;
      case 'api-keys':
        if (isAllowed('api-keys')) prefetch(apiKeysQueryOptions(organizationId));
        break;
      case 'jobs':
        if (isAllowed('organization')) prefetch(failedJobsQueryOptions(organizationId));
        break;
      case 'general':
        break;
    }
  });
}

/** `/team-signup?token=`: the invitation (public, read by its token). */
export function teamSignupLoader(queryClient: QueryClient) {
  return prefetchLoader(queryClient, ({ searchParams, prefetch }) => {
    prefetch(invitationPreviewQueryOptions(searchParams.get('token') ?? ''));
  });
}
