import { and, asc, desc, eq, gt } from 'drizzle-orm';
import type { Database } from '../../db/client';
import {
  authUsers,
  invitations,
  organizations,
  userOrganizations,
  users,
  type MemberRole,
} from '../../db/schema';

export async function listMemberRows(db: Database, organizationId: string) {
  return db
    .select({
      userId: userOrganizations.userId,
      name: authUsers.name,
      email: authUsers.email,
      role: userOrganizations.role,
      joinedAt: userOrganizations.createdAt,
    })
    .from(userOrganizations)
    .innerJoin(authUsers, eq(authUsers.id, userOrganizations.userId))
    .where(eq(userOrganizations.organizationId, organizationId))
    .orderBy(asc(userOrganizations.createdAt), asc(authUsers.name));
}

const invitationColumns = {
  id: invitations.id,
  email: invitations.email,
  role: invitations.role,
  status: invitations.status,
  inviterName: authUsers.name,
  expiresAt: invitations.expiresAt,
  createdAt: invitations.createdAt,
};

/** Pending invitations with the inviter's name, newest first. */
export async function listPendingInvitationRows(db: Database, organizationId: string) {
  return db
    .select(invitationColumns)
    .from(invitations)
    .leftJoin(authUsers, eq(authUsers.id, invitations.inviterId))
    .where(and(eq(invitations.organizationId, organizationId), eq(invitations.status, 'pending')))
    .orderBy(desc(invitations.createdAt));
}

export async function findInvitationRow(db: Database, organizationId: string, id: string) {
  const [row] = await db
    .select(invitationColumns)
    .from(invitations)
    .leftJoin(authUsers, eq(authUsers.id, invitations.inviterId))
    .where(and(eq(invitations.organizationId, organizationId), eq(invitations.id, id)))
    .limit(1);
  return row;
}

export async function findPendingInvitationByEmail(db: Database, organizationId: string, email: string) {
  const [row] = await db
    .select({ id: invitations.id })
    .from(invitations)
    .where(
      and(
        eq(invitations.organizationId, organizationId),
        eq(invitations.email, email),
        eq(invitations.status, 'pending'),
      ),
    )
    .limit(1);
  return row;
}

export async function insertInvitationRow(
  db: Database,
  values: {
    organizationId: string;
    email: string;
    role: MemberRole;
    tokenHash: string;
    inviterId: string;
    expiresAt: Date;
  },
) {
  const [row] = await db.insert(invitations).values(values).returning({ id: invitations.id });
  return row;
}

/** New token and expiry for a pending invitation (re-send); the old link stops working. */
export async function rotateInvitationToken(
  db: Database,
  organizationId: string,
  id: string,
  values: { tokenHash: string; expiresAt: Date; inviterId: string; role?: MemberRole },
) {
  const [row] = await db
    .update(invitations)
    .set(values)
    .where(
      and(
        eq(invitations.organizationId, organizationId),
        eq(invitations.id, id),
        eq(invitations.status, 'pending'),
      ),
    )
    .returning({ id: invitations.id });
  return row;
}

export async function revokeInvitationRow(db: Database, organizationId: string, id: string, now: Date) {
  const [row] = await db
    .update(invitations)
    .set({ status: 'revoked', revokedAt: now })
    .where(
      and(
        eq(invitations.organizationId, organizationId),
        eq(invitations.id, id),
        eq(invitations.status, 'pending'),
      ),
    )
    .returning({ id: invitations.id });
  return row;
}

/** The invitation behind a link, with what /team-signup shows. */
export async function findInvitationByTokenHash(db: Database, tokenHash: string) {
  const [row] = await db
    .select({
      id: invitations.id,
      organizationId: invitations.organizationId,
      organizationName: organizations.name,
      organizationSubdomain: organizations.subdomain,
      email: invitations.email,
      role: invitations.role,
      status: invitations.status,
      expiresAt: invitations.expiresAt,
      inviterId: invitations.inviterId,
      inviterName: authUsers.name,
    })
    .from(invitations)
    .innerJoin(organizations, eq(organizations.id, invitations.organizationId))
    .leftJoin(authUsers, eq(authUsers.id, invitations.inviterId))
    .where(eq(invitations.tokenHash, tokenHash))
    .limit(1);
  return row;
}

export async function isMemberByEmail(db: Database, organizationId: string, email: string): Promise<boolean> {
  const [row] = await db
    .select({ id: userOrganizations.id })
    .from(userOrganizations)
    .innerJoin(authUsers, eq(authUsers.id, userOrganizations.userId))
    .where(and(eq(userOrganizations.organizationId, organizationId), eq(authUsers.email, email)))
    .limit(1);
  return row !== undefined;
}

/**
 * Accepts a pending, unexpired invitation for `userId` in one transaction:
 * the invitation turns accepted (accepted_at, accepted_by), the person gets a
 * membership (primary when they have none) and, when they have no profile
 * yet, a `users` row. Returns false when the invitation was no longer pending.
 */
export async function acceptInvitationRows(
  db: Database,
  input: { invitationId: string; userId: string; name: string; email: string; now: Date },
): Promise<{ organizationId: string; role: MemberRole } | null> {
  return db.transaction(async (tx) => {
    const [invitation] = await tx
      .update(invitations)
      .set({ status: 'accepted', acceptedAt: input.now, acceptedBy: input.userId })
      .where(
        and(
          eq(invitations.id, input.invitationId),
          eq(invitations.status, 'pending'),
          gt(invitations.expiresAt, input.now),
        ),
      )
      .returning({ organizationId: invitations.organizationId, role: invitations.role });
    if (!invitation) return null;
    const [primary] = await tx
      .select({ id: userOrganizations.id })
      .from(userOrganizations)
      .where(and(eq(userOrganizations.userId, input.userId), eq(userOrganizations.isPrimary, true)))
      .limit(1);
    await tx
      .insert(userOrganizations)
      .values({
        userId: input.userId,
        organizationId: invitation.organizationId,
        role: invitation.role,
        isPrimary: primary === undefined,
      })
      .onConflictDoNothing();
    await tx
      .insert(users)
      .values({
        userId: input.userId,
        organizationId: invitation.organizationId,
        name: input.name,
        email: input.email,
        role: invitation.role,
      })
      .onConflictDoNothing();
    return invitation;
  });
}

/**
 * Changes a member's role or removes them, keeping at least one owner: the
 * organization's owner rows are locked first, so two owners demoting each
 * other at once cannot both succeed.
 */
export async function changeMembership(
  db: Database,
  input: { organizationId: string; userId: string; newRole: MemberRole | null },
): Promise<'ok' | 'not-found' | 'last-owner'> {
  return db.transaction(async (tx) => {
    const owners = await tx
      .select({ userId: userOrganizations.userId })
      .from(userOrganizations)
      .where(
        and(eq(userOrganizations.organizationId, input.organizationId), eq(userOrganizations.role, 'owner')),
      )
      // One lock order for everyone, so concurrent changes queue instead of deadlocking.
      .orderBy(asc(userOrganizations.userId))
      .for('update');
    const [member] = await tx
      .select({ role: userOrganizations.role })
      .from(userOrganizations)
      .where(
        and(
          eq(userOrganizations.organizationId, input.organizationId),
          eq(userOrganizations.userId, input.userId),
        ),
      )
      .for('update');
    if (!member) return 'not-found';
    const isLosingOwner = member.role === 'owner' && input.newRole !== 'owner';
    if (isLosingOwner && owners.length <= 1) return 'last-owner';
    const where = and(
      eq(userOrganizations.organizationId, input.organizationId),
      eq(userOrganizations.userId, input.userId),
    );
    if (input.newRole === null) await tx.delete(userOrganizations).where(where);
    else await tx.update(userOrganizations).set({ role: input.newRole }).where(where);
    return 'ok';
  });
}
