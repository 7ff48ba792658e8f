import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  unique,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { authUsers } from './auth';
import { isOneOf, primaryId, tenantId, timestamps, timestamptz } from './columns';

/** The plan ids of `packages/contracts/src/plans.ts` (a schema test keeps them equal). */
export const ORGANIZATION_PLANS = ['free', 'team', 'business'] as const;
export type OrganizationPlan = (typeof ORGANIZATION_PLANS)[number];

export const MEMBER_ROLES = ['owner', 'team_member'] as const;
export type MemberRole = (typeof MEMBER_ROLES)[number];

export const INVITATION_STATUSES = ['pending', 'accepted', 'revoked'] as const;
export type InvitationStatus = (typeof INVITATION_STATUSES)[number];

/** The tenant. Every tenant-owned row references it and is deleted with it. */
export const organizations = pgTable(
  'organizations',
  {
    id: primaryId(),
    name: text('name').notNull(),
    /** Validated by the contracts' subdomain rules; the check is a last line of defence. */
    subdomain: text('subdomain').notNull().unique('organizations_subdomain_unique'),
    ownerId: uuid('owner_id').references(() => authUsers.id, { onDelete: 'set null' }),
    plan: text('plan').$type<OrganizationPlan>().notNull().default('free'),
    /**
     * Caps, copied from the plan whenever it changes (or an operator's
     * override, kept by billing); null reads as the plan's limit.
     */
    maxLearners: integer('max_learners'),
    maxCourses: integer('max_courses'),
    maxChatbots: integer('max_chatbots'),
    /** Ingestion registers unknown courses and variables on first sight when true. */
    autoRegister: boolean('auto_register').notNull().default(true),
    /** Learning events older than this many months are deleted from the log; null keeps them. */
    eventRetentionMonths: integer('event_retention_months'),
    ...timestamps(),
  },
  (table) => [
    check('organizations_plan_check', isOneOf(table.plan, ORGANIZATION_PLANS)),
    check(
      'organizations_subdomain_format',
      sql`char_length(${table.subdomain}) between 3 and 50 and ${table.subdomain} ~ '^[a-z0-9]+(-[a-z0-9]+)*$'`,
    ),
    check(
      'organizations_caps_non_negative',
      sql`coalesce(${table.maxLearners}, 0) >= 0 and coalesce(${table.maxCourses}, 0) >= 0 and coalesce(${table.maxChatbots}, 0) >= 0`,
    ),
    index('organizations_owner_idx').on(table.ownerId),
  ],
);

/**
 * `organization_id uuid not null`, for the high-volume tables whose composite
 * foreign keys (organization_id, parent_id) -> parent (organization_id, id)
 * already tie the row to its organization (and cascade from it through the
 * parent). Those keys also guarantee a row never points at another
 * organization's parent, cost one trigger instead of two, and keep the
 * organization in every key (the shape Citus needs for co-located tables).
 */
export const tenantOrganizationId = () => uuid('organization_id').notNull();

/** `organization_id uuid not null references organizations on delete cascade`. */
export const organizationId = () =>
  uuid('organization_id')
    .notNull()
    .references(() => organizations.id, { onDelete: 'cascade' });

/**
 * A person's profile (spec `users`): one per auth identity. `organization_id`
 * is the organization created at sign-up (nullable: the identity outlives it);
 * memberships live in `user_organizations`.
 */
export const users = pgTable(
  'users',
  {
    id: primaryId(),
    userId: uuid('user_id')
      .notNull()
      .unique('users_user_id_unique')
      .references(() => authUsers.id, { onDelete: 'cascade' }),
    organizationId: uuid('organization_id').references(() => organizations.id, {
      onDelete: 'set null',
    }),
    name: text('name').notNull(),
    email: text('email').notNull(),
    role: text('role').$type<MemberRole>().notNull(),
    ...timestamps(),
  },
  (table) => [
    check('users_role_check', isOneOf(table.role, MEMBER_ROLES)),
    index('users_organization_idx').on(table.organizationId),
  ],
);

/** Membership of an auth user in an organization; at most one primary per user. */
export const userOrganizations = pgTable(
  'user_organizations',
  {
    id: primaryId(),
    userId: uuid('user_id')
      .notNull()
      .references(() => authUsers.id, { onDelete: 'cascade' }),
    organizationId: organizationId(),
    role: text('role').$type<MemberRole>().notNull(),
    isPrimary: boolean('is_primary').notNull().default(false),
    ...timestamps(),
  },
  (table) => [
    check('user_organizations_role_check', isOneOf(table.role, MEMBER_ROLES)),
    unique('user_organizations_user_org_unique').on(table.userId, table.organizationId),
    uniqueIndex('user_organizations_one_primary_per_user')
      .on(table.userId)
      .where(sql`${table.isPrimary}`),
    index('user_organizations_org_role_idx').on(table.organizationId, table.role),
  ],
);

/**
 * An invitation to join an organization. Only the SHA-256 (hex) of the token
 * is stored; the link is shown when it is created or re-sent (re-sending
 * rotates the token).
 */
export const invitations = pgTable(
  'invitations',
  {
    id: tenantId(),
    organizationId: organizationId(),
    /** Lower-case. */
    email: text('email').notNull(),
    role: text('role').$type<MemberRole>().notNull().default('team_member'),
    status: text('status').$type<InvitationStatus>().notNull().default('pending'),
    tokenHash: text('token_hash').notNull(),
    inviterId: uuid('inviter_id').references(() => authUsers.id, { onDelete: 'set null' }),
    expiresAt: timestamptz('expires_at').notNull(),
    acceptedAt: timestamptz('accepted_at'),
    acceptedBy: uuid('accepted_by').references(() => authUsers.id, { onDelete: 'set null' }),
    revokedAt: timestamptz('revoked_at'),
    ...timestamps(),
  },
  (table) => [
    primaryKey({ name: 'invitations_pk', columns: [table.organizationId, table.id] }),
    // Unique within the organization (a distributed table's keys must hold
    // it); the hash leads so that accepting by token, before the
    // organization is known, is served by this index.
    unique('invitations_token_hash_unique').on(table.tokenHash, table.organizationId),
    check('invitations_status_check', isOneOf(table.status, INVITATION_STATUSES)),
    check('invitations_role_check', isOneOf(table.role, MEMBER_ROLES)),
    check('invitations_email_lowercase', sql`${table.email} = lower(${table.email})`),
    check(
      'invitations_accepted_has_time',
      sql`${table.status} <> 'accepted' or ${table.acceptedAt} is not null`,
    ),
    index('invitations_org_status_idx').on(table.organizationId, table.status, table.createdAt),
    uniqueIndex('invitations_one_pending_per_email')
      .on(table.organizationId, table.email)
      .where(sql`${table.status} = 'pending'`),
  ],
);

export type Organization = typeof organizations.$inferSelect;
export type NewOrganization = typeof organizations.$inferInsert;
export type UserProfile = typeof users.$inferSelect;
export type NewUserProfile = typeof users.$inferInsert;
export type UserOrganization = typeof userOrganizations.$inferSelect;
export type NewUserOrganization = typeof userOrganizations.$inferInsert;
export type Invitation = typeof invitations.$inferSelect;
export type NewInvitation = typeof invitations.$inferInsert;
