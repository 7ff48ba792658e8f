import { ApiKeysPanel } from '@/features/api-keys/components/api-keys-panel';
import { FailedJobsPanel } from '@/features/jobs/components/failed-jobs-panel';
import { OrganizationSettingsPage } from '@/features/organizations/components/organization-settings-page';
import { InvitationsPanel } from '@/features/team/components/invitations-panel';
import { MembersPanel } from '@/features/team/components/members-panel';

/**
 * /organization/settings: the organizations feature owns the page and its
 * General tab; the app layer composes the other features' tabs into it, since
 * a feature never imports another.
 */
export function OrganizationSettingsRoute() {
  return (
    <OrganizationSettingsPage
      membersTab={<MembersPanel />}
      invitationsTab={<InvitationsPanel />}
      apiKeysTab={<ApiKeysPanel />}
      jobsTab={<FailedJobsPanel />}
    />
  );
}
