import { createHash, randomBytes } from 'node:crypto';
import {
  AUTH_MESSAGES,
  INVITATION_TTL_DAYS,
  TEAM_MESSAGES,
  type InvitationBody,
  type InvitationPreview,
  type Member,
  type MemberRole,
  type SentInvitation,
  type SignupResponse,
} from '@courselens/contracts';
import type { Database } from '../../db/client';
import { AppError } from '../../errors';
import type { Auth } from '../auth/auth';
import { deleteAuthUser, findAuthUserByEmail, findAuthUserById } from '../auth/auth.queries';
import { insertActivity } from '../organizations/organizations.queries';
import type { InvitationMailer } from './invitation-mailer';
import {
  acceptInvitationRows,
  changeMembership,
  findInvitationByTokenHash,
  findInvitationRow,
  findPendingInvitationByEmail,
  insertInvitationRow,
  isMemberByEmail,
  listMemberRows,
  listPendingInvitationRows,
  revokeInvitationRow,
  rotateInvitationToken,
} from './team.queries';

const INVITATION_TTL_MS = INVITATION_TTL_DAYS * 24 * 3600 * 1000;

function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

type InvitationRow = {
  id: string;
  email: string;
  role: MemberRole;
  status: InvitationBody['status'];
  inviterName: string | null;
  expiresAt: Date;
  createdAt: Date;
};

function toInvitationBody(row: InvitationRow): InvitationBody {
  return { ...row, expiresAt: row.expiresAt.toISOString(), createdAt: row.createdAt.toISOString() };
}

export async function listMembers(db: Database, organizationId: string): Promise<Member[]> {
  return (await listMemberRows(db, organizationId)).map((row) => ({
    ...row,
    joinedAt: row.joinedAt.toISOString(),
  }));
}

export async function listInvitations(db: Database, organizationId: string): Promise<InvitationBody[]> {
  return (await listPendingInvitationRows(db, organizationId)).map(toInvitationBody);
}

export type InvitationContext = {
  db: Database;
  mailer: InvitationMailer;
  /** Origin of the web app, e.g. https://app.example.com; the link is `${origin}/team-signup?token=…`. */
  origin: string;
};

async function deliver(
  context: InvitationContext,
  input: {
    organizationId: string;
    organizationName: string;
    inviterName: string;
    invitationId: string;
    token: string;
    email: string;
  },
): Promise<SentInvitation> {
  const link = `${context.origin}/team-signup?token=${encodeURIComponent(input.token)}`;
  const row = await findInvitationRow(context.db, input.organizationId, input.invitationId);
  if (!row) throw new AppError('NOT_FOUND', TEAM_MESSAGES.invitationNotFound);
  const isEmailed = await context.mailer({
    to: input.email,
    organizationName: input.organizationName,
    inviterName: input.inviterName,
    link,
  });
  return { invitation: toInvitationBody(row), link, token: input.token, isEmailed };
}

function newToken(now: Date) {
  const token = randomBytes(32).toString('base64url');
  return { token, tokenHash: hashToken(token), expiresAt: new Date(now.getTime() + INVITATION_TTL_MS) };
}

/**
 * Invites a person by e-mail (owners). The token is random (256 bits) and
 * only its hash is kept; the link is returned to the owner in every case and
 * e-mailed when SMTP is configured. Inviting an address with a pending
 * invitation re-sends that one with a new token.
 */
export async function inviteMember(
  context: InvitationContext,
  input: {
    organizationId: string | undefined;
    organizationName: string;
    inviterId: string | undefined;
    email: string;
    role: MemberRole;
  },
  now = new Date(),
): Promise<SentInvitation> {
  const { db } = context;
  if (!input.organizationId) throw new AppError('BAD_REQUEST', TEAM_MESSAGES.noOrganization);
  if (!input.inviterId) throw new AppError('UNAUTHENTICATED', TEAM_MESSAGES.unknownUser);
  const inviter = await findAuthUserById(db, input.inviterId);
  if (!inviter) throw new AppError('BAD_REQUEST', TEAM_MESSAGES.unknownInviter);
  if (await isMemberByEmail(db, input.organizationId, input.email))
    throw new AppError('CONFLICT', TEAM_MESSAGES.alreadyMember);
  const fresh = newToken(now);
  const pending = await findPendingInvitationByEmail(db, input.organizationId, input.email);
  const saved = pending
    ? await rotateInvitationToken(db, input.organizationId, pending.id, {
        tokenHash: fresh.tokenHash,
        expiresAt: fresh.expiresAt,
        inviterId: inviter.id,
        role: input.role,
      })
    : await insertInvitationRow(db, {
        organizationId: input.organizationId,
        email: input.email,
        role: input.role,
        tokenHash: fresh.tokenHash,
        inviterId: inviter.id,
        expiresAt: fresh.expiresAt,
      });
  if (!saved) throw new AppError('CONFLICT', TEAM_MESSAGES.invitationUsed);
  await insertActivity(db, {
    organizationId: input.organizationId,
    actorUserId: inviter.id,
    kind: 'member.invited',
    subjectType: 'invitation',
    subjectId: saved.id,
    summary: `${inviter.name} invited ${input.email}`,
    details: { email: input.email, role: input.role },
  });
  return deliver(context, {
    organizationId: input.organizationId,
    organizationName: input.organizationName,
    inviterName: inviter.name,
    invitationId: saved.id,
    token: fresh.token,
    email: input.email,
  });
}

/** A new token and 7 more days for a pending invitation; the previous link stops working. */
export async function resendInvitation(
  context: InvitationContext,
  input: { organizationId: string; organizationName: string; inviterId: string; invitationId: string },
  now = new Date(),
): Promise<SentInvitation> {
  const inviter = await findAuthUserById(context.db, input.inviterId);
  if (!inviter) throw new AppError('BAD_REQUEST', TEAM_MESSAGES.unknownInviter);
  const fresh = newToken(now);
  const saved = await rotateInvitationToken(context.db, input.organizationId, input.invitationId, {
    tokenHash: fresh.tokenHash,
    expiresAt: fresh.expiresAt,
    inviterId: inviter.id,
  });
  if (!saved) throw new AppError('CONFLICT', TEAM_MESSAGES.invitationUsed);
  const row = await findInvitationRow(context.db, input.organizationId, input.invitationId);
  return deliver(context, {
    organizationId: input.organizationId,
    organizationName: input.organizationName,
    inviterName: inviter.name,
    invitationId: input.invitationId,
    token: fresh.token,
    email: row?.email ?? '',
  });
}

export async function revokeInvitation(
  db: Database,
  input: { organizationId: string; invitationId: string },
  now = new Date(),
): Promise<InvitationBody> {
  await revokeInvitationRow(db, input.organizationId, input.invitationId, now);
  const row = await findInvitationRow(db, input.organizationId, input.invitationId);
  if (!row) throw new AppError('NOT_FOUND', TEAM_MESSAGES.invitationNotFound);
  return toInvitationBody(row);
}

/** The pending, unexpired invitation behind a link, or the reason it cannot be used. */
async function usableInvitation(db: Database, token: string, now: Date) {
  const invitation = await findInvitationByTokenHash(db, hashToken(token));
  if (!invitation) throw new AppError('NOT_FOUND', TEAM_MESSAGES.invitationNotFound);
  if (invitation.status !== 'pending') throw new AppError('CONFLICT', TEAM_MESSAGES.invitationUsed);
  if (invitation.expiresAt.getTime() <= now.getTime())
    throw new AppError('CONFLICT', TEAM_MESSAGES.invitationExpired);
  if (!invitation.inviterName) throw new AppError('CONFLICT', TEAM_MESSAGES.unknownInviter);
  return { ...invitation, inviterName: invitation.inviterName };
}

/** What /team-signup shows before anyone signs in. */
export async function previewInvitation(
  db: Database,
  token: string,
  now = new Date(),
): Promise<InvitationPreview> {
  const invitation = await usableInvitation(db, token, now);
  return {
    organizationName: invitation.organizationName,
    inviterName: invitation.inviterName,
    email: invitation.email,
    role: invitation.role,
    expiresAt: invitation.expiresAt.toISOString(),
  };
}

async function recordJoined(
  db: Database,
  organizationId: string,
  user: { id: string; name: string; email: string },
) {
  await insertActivity(db, {
    organizationId,
    actorUserId: user.id,
    kind: 'member.joined',
    subjectType: 'user',
    subjectId: user.id,
    summary: `${user.name} joined the organization`,
    details: { email: user.email },
  });
}

/**
 * A new person joins through an invitation: the account is created for the
 * invited address, then the invitation is accepted (membership, profile) in
 * one transaction; when that fails the account is removed again.
 */
export async function signUpWithInvitation(
  db: Database,
  auth: Auth,
  input: { token: string; name: string; password: string },
  now = new Date(),
): Promise<SignupResponse> {
  const invitation = await usableInvitation(db, input.token, now);
  if (await findAuthUserByEmail(db, invitation.email))
    throw new AppError('CONFLICT', AUTH_MESSAGES.emailTaken);
  const created = await auth.api
    .signUpEmail({ body: { name: input.name, email: invitation.email, password: input.password } })
    .catch((error: unknown) => {
      // Someone registered the address a moment ago.
      if ((error as { statusCode?: unknown }).statusCode === 422)
        throw new AppError('CONFLICT', AUTH_MESSAGES.emailTaken);
      throw error;
    });
  try {
    const accepted = await acceptInvitationRows(db, {
      invitationId: invitation.id,
      userId: created.user.id,
      name: created.user.name,
      email: created.user.email,
      now,
    });
    if (!accepted) throw new AppError('CONFLICT', TEAM_MESSAGES.invitationUsed);
    if (!created.token) throw new Error('Better Auth returned no session token');
    await recordJoined(db, invitation.organizationId, created.user);
    return {
      token: created.token,
      user: { id: created.user.id, name: created.user.name, email: created.user.email },
      organization: {
        id: invitation.organizationId,
        name: invitation.organizationName,
        subdomain: invitation.organizationSubdomain,
      },
    };
  } catch (error) {
    await deleteAuthUser(db, created.user.id);
    throw error;
  }
}

/** A signed-in person accepts an invitation sent to their e-mail address. */
export async function acceptInvitation(
  db: Database,
  input: { token: string; userId: string },
  now = new Date(),
): Promise<{ id: string; name: string; subdomain: string }> {
  const user = await findAuthUserById(db, input.userId);
  if (!user) throw new AppError('UNAUTHENTICATED', TEAM_MESSAGES.unknownUser);
  const invitation = await usableInvitation(db, input.token, now);
  if (invitation.email !== user.email.toLowerCase())
    throw new AppError('FORBIDDEN', TEAM_MESSAGES.otherEmail);
  const accepted = await acceptInvitationRows(db, {
    invitationId: invitation.id,
    userId: user.id,
    name: user.name,
    email: user.email,
    now,
  });
  if (!accepted) throw new AppError('CONFLICT', TEAM_MESSAGES.invitationUsed);
  await recordJoined(db, invitation.organizationId, user);
  return {
    id: invitation.organizationId,
    name: invitation.organizationName,
    subdomain: invitation.organizationSubdomain,
  };
}

/** Owners change a member's role; the last owner cannot be demoted. */
export async function updateMemberRole(
  db: Database,
  input: { organizationId: string; actorUserId: string; userId: string; role: MemberRole },
): Promise<Member> {
  // The member is looked up before anything is written, so a 404 changes nothing.
  const member = (await listMembers(db, input.organizationId)).find((row) => row.userId === input.userId);
  if (!member) throw new AppError('NOT_FOUND', TEAM_MESSAGES.memberNotFound);
  const outcome = await changeMembership(db, {
    organizationId: input.organizationId,
    userId: input.userId,
    newRole: input.role,
  });
  if (outcome === 'not-found') throw new AppError('NOT_FOUND', TEAM_MESSAGES.memberNotFound);
  if (outcome === 'last-owner') throw new AppError('CONFLICT', TEAM_MESSAGES.lastOwner);
  await insertActivity(db, {
    organizationId: input.organizationId,
    actorUserId: input.actorUserId,
    kind: 'member.role_changed',
    subjectType: 'user',
    subjectId: input.userId,
    summary: `Role changed to ${input.role}`,
    details: { role: input.role },
  });
  return { ...member, role: input.role };
}

/** Owners remove a member (their sign-in stays; the membership goes); never the last owner. */
export async function removeMember(
  db: Database,
  input: { organizationId: string; actorUserId: string; userId: string },
): Promise<void> {
  const outcome = await changeMembership(db, {
    organizationId: input.organizationId,
    userId: input.userId,
    newRole: null,
  });
  if (outcome === 'not-found') throw new AppError('NOT_FOUND', TEAM_MESSAGES.memberNotFound);
  if (outcome === 'last-owner') throw new AppError('CONFLICT', TEAM_MESSAGES.lastOwner);
  await insertActivity(db, {
    organizationId: input.organizationId,
    actorUserId: input.actorUserId,
    kind: 'member.removed',
    subjectType: 'user',
    subjectId: input.userId,
    summary: 'Member removed',
    details: {},
  });
}
