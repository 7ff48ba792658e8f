import type { MemberRole } from './organizations';

/**
 * What only an organization's owners may do (decision 008); everything else
 * a signed-in member of the organization may do. Each key is an area an
 * owner-only route declares (`config: { access: 'owner:api-keys' }`), and its
 * message is both the 403 a team member gets and the reason the web app shows
 * beside a hidden or disabled control, so the words exist once.
 */
export const OWNER_ONLY_MESSAGES = {
  'api-keys': 'Only owners can manage API keys',
  team: 'Only owners can invite people and change or remove members',
  organization: 'Only owners can change the organization settings',
  billing: 'Only owners can manage billing',
  'course-deletion': 'Only owners can delete courses',
  sharing: 'Only owners can share reports and views publicly',
  analytics: 'Only owners can change the analytics settings',
} as const;
export type OwnerArea = keyof typeof OWNER_ONLY_MESSAGES;
export const OWNER_AREAS = Object.keys(OWNER_ONLY_MESSAGES) as OwnerArea[];

/** Whether a member with `role` may act in the owner-only areas (owners may act in all of them). */
export function canManage(role: MemberRole | (string & {}) | null | undefined): boolean {
  return role === 'owner';
}
