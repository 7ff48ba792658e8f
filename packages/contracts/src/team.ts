import { z } from 'zod';
import { uuidSchema } from './ids';
import { emailSchema, passwordSchema, personNameSchema } from './auth';
import { memberRoleSchema } from './organizations';

export const TEAM_MESSAGES = {
  noOrganization: 'No organization selected',
  unknownUser: 'Unable to identify the current user',
  unknownInviter: 'Could not identify the inviter',
  alreadyMember: 'This person is already a member of the organization',
  invitationNotFound: 'Invitation not found',
  invitationExpired: 'This invitation has expired',
  invitationUsed: 'This invitation is no longer valid',
  lastOwner: 'An organization needs at least one owner',
  memberNotFound: 'Member not found',
  otherEmail: 'This invitation was sent to another email address',
} as const;

export const INVITATION_TTL_DAYS = 7;

export const memberSchema = z.object({
  userId: z.string(),
  name: z.string(),
  email: z.string(),
  role: memberRoleSchema,
  joinedAt: z.string(),
});
export type Member = z.infer<typeof memberSchema>;
export const listMembersResponse = z.object({ members: z.array(memberSchema) });

export const invitationSchema = z.object({
  id: z.string(),
  email: z.string(),
  role: memberRoleSchema,
  status: z.enum(['pending', 'accepted', 'revoked']),
  inviterName: z.string().nullable(),
  expiresAt: z.string(),
  createdAt: z.string(),
});
export type InvitationBody = z.infer<typeof invitationSchema>;
export const listInvitationsResponse = z.object({ invitations: z.array(invitationSchema) });

/** POST /api/invitations. */
export const createInvitationInput = z.object({
  email: emailSchema,
  role: memberRoleSchema.default('team_member'),
});
export type CreateInvitationInput = z.input<typeof createInvitationInput>;

/** 201 of POST /api/invitations and 200 of POST /api/invitations/:id/resend: the link is shown now only. */
export const sentInvitationSchema = z.object({
  invitation: invitationSchema,
  link: z.string(),
  token: z.string(),
  isEmailed: z.boolean(),
});
export type SentInvitation = z.infer<typeof sentInvitationSchema>;

/** GET /api/invitations/:token (public), for /team-signup. */
export const invitationPreviewSchema = z.object({
  organizationName: z.string(),
  inviterName: z.string(),
  email: z.string(),
  role: memberRoleSchema,
  expiresAt: z.string(),
});
export type InvitationPreview = z.infer<typeof invitationPreviewSchema>;

/** POST /api/invitations/:token/signup (public): a new person joins. */
export const acceptInvitationSignupInput = z.object({
  name: personNameSchema,
  password: passwordSchema,
});
export type AcceptInvitationSignupInput = z.infer<typeof acceptInvitationSignupInput>;

export const updateMemberInput = z.object({ role: memberRoleSchema });
export type UpdateMemberInput = z.infer<typeof updateMemberInput>;

export const tokenParams = z.object({ token: z.string().min(1).max(200) });
export const memberParams = z.object({ userId: uuidSchema('Member not found') });
