/**
 * The signed-in person's role in the current organization, and what it lets
 * them do (decision 008). The server enforces the same table (403 with the
 * same message); the screens use it to hide or disable owner-only controls
 * and say why, instead of letting a member click into an error.
 */
import { OWNER_ONLY_MESSAGES, canManage, type OwnerArea } from '@courselens/contracts';

import { useSession, type OrganizationRole } from './auth';

/** `owner`, `team_member`, or null while the session loads or without an organization. */
export function useCurrentRole(): OrganizationRole | null {
  return useSession().currentOrganization?.role ?? null;
}

export type OwnerPermission = {
  /** The control may be used. */
  isAllowed: boolean;
  /**
   * Why not, in the server's own words ("Only owners can manage API keys");
   * null when allowed, and while the role is not known yet (nothing to explain).
   */
  reason: string | null;
};

/** Whether `role` may act in an owner-only area, and if not, the reason to show. */
export function permissionFor(role: OrganizationRole | null, area: OwnerArea): OwnerPermission {
  if (role === null) return { isAllowed: false, reason: null };
  const isAllowed = canManage(role);
  return { isAllowed, reason: isAllowed ? null : OWNER_ONLY_MESSAGES[area] };
}

/** {@link permissionFor} the current organization: `useCanManage('api-keys')`. */
export function useCanManage(area: OwnerArea): OwnerPermission {
  return permissionFor(useCurrentRole(), area);
}
