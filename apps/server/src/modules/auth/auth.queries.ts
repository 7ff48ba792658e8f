import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { authUsers, organizations, userOrganizations, users } from '../../db/schema';
import { newOrganizationPlan } from '../organizations/organizations.queries';

export async function findAuthUserByEmail(db: Database, email: string) {
  const [row] = await db
    .select({ id: authUsers.id, name: authUsers.name, email: authUsers.email })
    .from(authUsers)
    .where(eq(authUsers.email, email))
    .limit(1);
  return row;
}

export async function findAuthUserById(db: Database, id: string) {
  const [row] = await db
    .select({ id: authUsers.id, name: authUsers.name, email: authUsers.email })
    .from(authUsers)
    .where(eq(authUsers.id, id))
    .limit(1);
  return row;
}

/** Sign-up's own rows, in one transaction: organization, profile (owner), primary membership. */
export async function insertSignupRows(
  db: Database,
  input: { userId: string; name: string; email: string; organizationName: string; subdomain: string },
) {
  return db.transaction(async (tx) => {
    const [organization] = await tx
      .insert(organizations)
      .values({
        name: input.organizationName,
        subdomain: input.subdomain,
        ownerId: input.userId,
        ...newOrganizationPlan(),
      })
      .returning({ id: organizations.id, name: organizations.name, subdomain: organizations.subdomain });
    if (!organization) return undefined;
    await tx.insert(users).values({
      userId: input.userId,
      organizationId: organization.id,
      name: input.name,
      email: input.email,
      role: 'owner',
    });
    await tx.insert(userOrganizations).values({
      userId: input.userId,
      organizationId: organization.id,
      role: 'owner',
      isPrimary: true,
    });
    return organization;
  });
}

/** Compensation when sign-up fails after Better Auth created the identity (cascades to account and sessions). */
export async function deleteAuthUser(db: Database, id: string): Promise<void> {
  await db.delete(authUsers).where(eq(authUsers.id, id));
}
