import { sql } from 'drizzle-orm';
import { check, index, pgTable, text, unique, uuid } from 'drizzle-orm/pg-core';
import { apiKeys } from './api-keys';
import { isOneOf, primaryId, timestamps, timestamptz } from './columns';
import { courses } from './courses';
import { learners } from './learners';
import { organizationId } from './organizations';

export const INGESTED_EVENT_TYPES = [
  'course.started',
  'variable.set',
  'question.answered',
  'course.completed',
] as const;
export type IngestedEventType = (typeof INGESTED_EVENT_TYPES)[number];

/**
 * One row per accepted ingestion event: `(organization_id, event_id)` is the
 * idempotency key (insert ... on conflict do nothing, in the same transaction
 * as the event's effects).
 */
export const ingestedEvents = pgTable(
  'ingested_events',
  {
    id: primaryId(),
    organizationId: organizationId(),
    /** The client's id of the event, 1 to 128 characters. */
    eventId: text('event_id').notNull(),
    type: text('type').$type<IngestedEventType>().notNull(),
    apiKeyId: uuid('api_key_id').references(() => apiKeys.id, { onDelete: 'set null' }),
    courseId: uuid('course_id').references(() => courses.id, { onDelete: 'set null' }),
    learnerId: uuid('learner_id').references(() => learners.id, { onDelete: 'set null' }),
    /** The event's own timestamp (default: when received). */
    occurredAt: timestamptz('occurred_at').notNull().defaultNow(),
    receivedAt: timestamptz('received_at').notNull().defaultNow(),
    ...timestamps(),
  },
  (table) => [
    unique('ingested_events_org_event_unique').on(table.organizationId, table.eventId),
    check('ingested_events_type_check', isOneOf(table.type, INGESTED_EVENT_TYPES)),
    check('ingested_events_event_id_length', sql`char_length(${table.eventId}) between 1 and 128`),
    index('ingested_events_org_received_idx').on(table.organizationId, table.receivedAt.desc().nullsFirst()),
  ],
);

export type IngestedEvent = typeof ingestedEvents.$inferSelect;
export type NewIngestedEvent = typeof ingestedEvents.$inferInsert;
