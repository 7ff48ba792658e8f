import { index, jsonb, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { authUsers } from './auth';
import { tenantId, timestamps } from './columns';
import { organizationId } from './organizations';

/**
 * Kinds the activity feed knows today. The column is open text (no check) so
 * a new capability can log a new kind without a migration.
 */
export const ACTIVITY_KINDS = [
  'events.ingested',
  'course.created',
  'course.updated',
  'course.deleted',
  'broadcast.set',
  'api_key.created',
  'api_key.revoked',
  'member.invited',
  'member.joined',
  'member.role_changed',
  'member.removed',
  'report.created',
  'report.shared',
  'report.unshared',
  'organization.updated',
  'pipeline.created',
  'pipeline.updated',
  'pipeline.activated',
  'pipeline.deactivated',
  'pipeline.deleted',
  'pipeline.run_failed',
  'action.created',
  'action.updated',
  'action.deleted',
  'action.secret_rotated',
  'action.email_sent',
  'action.notification',
  'chatbot.created',
  'chatbot.updated',
  'chatbot.deleted',
  'analytics.settings_updated',
  'analytics.funnel_saved',
  'analytics.funnel_deleted',
  'billing.plan_changed',
  'billing.usage_notice',
  'billing.cap_reached',
  'billing.payment_failed',
] as const;
export type ActivityKind = (typeof ACTIVITY_KINDS)[number];

/** The organization's activity feed: team actions and summarized ingestion. */
export const activityEvents = pgTable(
  'activity_events',
  {
    id: tenantId(),
    organizationId: organizationId(),
    /** Null for system activity (ingestion through an API key). */
    actorUserId: uuid('actor_user_id').references(() => authUsers.id, { onDelete: 'set null' }),
    kind: text('kind').notNull(),
    /** What the activity is about, e.g. `course` + its id; no foreign key, the subject may be gone. */
    subjectType: text('subject_type'),
    subjectId: text('subject_id'),
    summary: text('summary'),
    details: jsonb('details').$type<Record<string, unknown>>().notNull().default({}),
    ...timestamps(),
  },
  (table) => [
    primaryKey({ name: 'activity_events_pk', columns: [table.organizationId, table.id] }),
    index('activity_events_org_created_idx').on(table.organizationId, table.createdAt.desc().nullsFirst()),
    index('activity_events_org_kind_created_idx').on(
      table.organizationId,
      table.kind,
      table.createdAt.desc().nullsFirst(),
    ),
  ],
);

export type ActivityEvent = typeof activityEvents.$inferSelect;
export type NewActivityEvent = typeof activityEvents.$inferInsert;
