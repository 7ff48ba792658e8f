import type { QueryClient } from '@tanstack/react-query';

import { readSettingsTab } from '@/features/organizations/components/settings-tabs';
import { organizationLoader, prefetchLoader, type OrganizationPrefetchRoute } from '@/lib/route-loaders';

/*
 * The loaders of the pages the app composes from several features. Their
 * bodies live in each feature's `prefetch.ts`, loaded on demand, so the
 * contracts and query options stay out of the main chunk.
 */

/**
 * `/organization/settings?tab=`: the open tab's list, if the user's role lets
 * the tab read it (owner-only tabs show a reason instead). General shows
 * what the session already holds. The tabs' small prefetch chunks load
 * together, beside the settings page's code (which holds every tab).
 */
export function organizationSettingsLoader(queryClient: QueryClient) {
  return organizationLoader(queryClient, async () => {
    const [team, apiKeys, jobs] = await Promise.all([
      import('@/features/team/prefetch'),
      import('@/features/api-keys/prefetch'),
      import('@/features/jobs/prefetch'),
    ]);
    return (route: OrganizationPrefetchRoute) => {
      switch (readSettingsTab(route.searchParams)) {
        case 'members':
          team.membersTab(route);
          break;
        case 'invitations':
          team.invitationsTab(route);
          break;
        case 'api-keys':
          apiKeys.apiKeysTab(route);
          break;
        case 'jobs':
          jobs.failedJobsTab(route);
          break;
        case 'general':
          break;
      }
    };
  });
}

/** `/team-signup?token=`: the invitation (public, read by its token). */
export function teamSignupLoader(queryClient: QueryClient) {
  return prefetchLoader(queryClient, async () => (await import('@/features/team/prefetch')).teamSignup);
}
