import { and, asc, desc, eq } from 'drizzle-orm';
import type { Database } from '../../db/client';
import {
  activityEvents,
  apiKeys,
  invitations,
  organizations,
  userOrganizations,
  type MemberRole,
  type NewActivityEvent,
} from '../../db/schema';

export async function isSubdomainTaken(db: Database, subdomain: string): Promise<boolean> {
  const [row] = await db
    .select({ id: organizations.id })
    .from(organizations)
    .where(eq(organizations.subdomain, subdomain))
    .limit(1);
  return row !== undefined;
}

/** The caller's memberships with their organizations, primary first, then oldest first. */
export async function listMemberships(db: Database, userId: string) {
  return db
    .select({
      id: organizations.id,
      name: organizations.name,
      subdomain: organizations.subdomain,
      role: userOrganizations.role,
      isPrimary: userOrganizations.isPrimary,
    })
    .from(userOrganizations)
    .innerJoin(organizations, eq(organizations.id, userOrganizations.organizationId))
    .where(eq(userOrganizations.userId, userId))
    .orderBy(desc(userOrganizations.isPrimary), asc(userOrganizations.createdAt), asc(organizations.name));
}

export async function findMembership(db: Database, userId: string, organizationId: string) {
  const [row] = await db
    .select({ role: userOrganizations.role, isPrimary: userOrganizations.isPrimary })
    .from(userOrganizations)
    .where(and(eq(userOrganizations.userId, userId), eq(userOrganizations.organizationId, organizationId)))
    .limit(1);
  return row;
}

export async function insertOrganizationWithOwner(
  db: Database,
  values: { name: string; subdomain: string; ownerId: string; isPrimary: boolean },
) {
  return db.transaction(async (tx) => {
    const [organization] = await tx
      .insert(organizations)
      .values({ name: values.name, subdomain: values.subdomain, ownerId: values.ownerId })
      .returning({ id: organizations.id, name: organizations.name, subdomain: organizations.subdomain });
    if (!organization) return undefined;
    await tx.insert(userOrganizations).values({
      userId: values.ownerId,
      organizationId: organization.id,
      role: 'owner' satisfies MemberRole,
      isPrimary: values.isPrimary,
    });
    return organization;
  });
}

export async function updateOrganizationRow(
  db: Database,
  organizationId: string,
  changes: { name?: string; subdomain?: string },
) {
  const [row] = await db
    .update(organizations)
    .set(changes)
    .where(eq(organizations.id, organizationId))
    .returning({ id: organizations.id, name: organizations.name, subdomain: organizations.subdomain });
  return row;
}

/** All memberships off, then the one on, in one transaction (a partial unique index allows one primary). */
export async function setPrimaryMembership(
  db: Database,
  userId: string,
  organizationId: string,
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx
      .update(userOrganizations)
      .set({ isPrimary: false })
      .where(and(eq(userOrganizations.userId, userId), eq(userOrganizations.isPrimary, true)));
    await tx
      .update(userOrganizations)
      .set({ isPrimary: true })
      .where(and(eq(userOrganizations.userId, userId), eq(userOrganizations.organizationId, organizationId)));
  });
}

export async function insertActivity(db: Database, event: NewActivityEvent): Promise<void> {
  await db.insert(activityEvents).values(event);
}

/** Resources the tenant plugin checks by route parameter before a handler runs. */
export type TenantResource = 'apiKey' | 'invitation' | 'member';

/** True when the row named by `id` belongs to the organization. */
export async function isResourceOfOrganization(
  db: Database,
  resource: TenantResource,
  organizationId: string,
  id: string,
): Promise<boolean> {
  const rows =
    resource === 'apiKey'
      ? await db
          .select({ id: apiKeys.id })
          .from(apiKeys)
          .where(and(eq(apiKeys.organizationId, organizationId), eq(apiKeys.id, id)))
          .limit(1)
      : resource === 'invitation'
        ? await db
            .select({ id: invitations.id })
            .from(invitations)
            .where(and(eq(invitations.organizationId, organizationId), eq(invitations.id, id)))
            .limit(1)
        : await db
            .select({ id: userOrganizations.id })
            .from(userOrganizations)
            .where(
              and(eq(userOrganizations.organizationId, organizationId), eq(userOrganizations.userId, id)),
            )
            .limit(1);
  return rows.length > 0;
}

export async function findOrganizationById(db: Database, organizationId: string) {
  const [row] = await db
    .select({ id: organizations.id, name: organizations.name, subdomain: organizations.subdomain })
    .from(organizations)
    .where(eq(organizations.id, organizationId))
    .limit(1);
  return row;
}
