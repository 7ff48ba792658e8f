import type { QueryClient, QueryKey } from '@tanstack/react-query';

/**
 * The one rule for query keys. Everything cached about an organization starts
 * with `['org', organizationId]`, then the domain, then what the feature
 * needs (`['org', 'o1', 'courses', 'detail', courseId]`). One prefix thus
 * reaches all of an organization's data: a deleted course invalidates the
 * organization, switching organization drops the one left behind. Views read
 * by a share token belong to no organization and start with `['shared']`; the
 * session is `['session']`.
 */

/** The domains of an organization's data, each the third part of its keys. */
export type OrganizationDomain =
  | 'actions'
  | 'activity'
  | 'ai-summaries'
  | 'analytics'
  | 'api-keys'
  | 'billing'
  | 'chatbots'
  | 'courses'
  | 'custom-reports'
  | 'dashboard'
  | 'jobs'
  | 'learners'
  | 'pipelines'
  | 'question-reports'
  | 'question-share'
  | 'questions'
  | 'team'
  | 'variable-reports'
  | 'variable-share'
  | 'variables';

/** What screens pass around: no organization yet while the session loads. */
export type OrganizationIdInput = string | null | undefined;

const ORGANIZATION_ROOT = 'org';
const SHARED_ROOT = 'shared';

/** Every organization's queries (signing out or switching drops them). */
export const allOrganizationsKey = [ORGANIZATION_ROOT] as const;

/** Every query of one organization. */
export function organizationKey(organizationId: OrganizationIdInput) {
  return [ORGANIZATION_ROOT, organizationId ?? null] as const;
}

/** Every query of one domain of an organization; a feature's keys extend it. */
export function organizationDomainKey<const Domain extends OrganizationDomain>(
  organizationId: OrganizationIdInput,
  domain: Domain,
) {
  return [...organizationKey(organizationId), domain] as const;
}

/** The views of one kind read by a share token, outside every organization. */
export function sharedViewKey<const Kind extends string>(kind: Kind) {
  return [SHARED_ROOT, kind] as const;
}

/**
 * Whether a key names `id` anywhere: as one of its parts, or as a value of
 * an object part (`{ courseId }`), at any depth. Ids are UUIDs, so this picks
 * out the queries about one record, whatever domain they sit in.
 */
export function queryKeyMentions(queryKey: QueryKey, id: string): boolean {
  return mentions(queryKey, id);
}

function mentions(part: unknown, id: string): boolean {
  if (part === id) return true;
  if (Array.isArray(part)) return part.some((item) => mentions(item, id));
  if (typeof part === 'object' && part !== null) {
    return Object.values(part).some((value) => mentions(value, id));
  }
  return false;
}

/**
 * A change the server writes to the activity feed also makes the feed (and
 * its people filter) and the dashboard's recent activity stale.
 */
export function invalidateActivity(queryClient: QueryClient, organizationId: OrganizationIdInput) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: organizationDomainKey(organizationId, 'activity') }),
    queryClient.invalidateQueries({ queryKey: organizationDomainKey(organizationId, 'dashboard') }),
  ]);
}
