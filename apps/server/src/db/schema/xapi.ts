import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  customType,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  uuid,
} from 'drizzle-orm/pg-core';
import { isOneOf, timestamptz } from './columns';
import { organizationId } from './organizations';

/** Binary content (documents and attachments are stored as sent, whatever their type). */
export const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  toDriver: (value) => value,
  // node-postgres answers a Buffer, PGlite a Uint8Array.
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});

/**
 * The Learning Record Store's statements, each kept whole as stored (with
 * the `id`, `stored`, `authority`, `timestamp` and `version` the LRS set), in
 * the organization of the API key that sent it. The other columns are what
 * the statement queries filter on, extracted once at write time.
 */
export const xapiStatements = pgTable(
  'xapi_statements',
  {
    organizationId: organizationId(),
    /** The statement's id (the sender's, or one the LRS gave it). */
    id: uuid('id').notNull(),
    stored: timestamptz('stored').notNull(),
    timestamp: timestamptz('timestamp').notNull(),
    verbId: text('verb_id').notNull(),
    /** The actor's inverse functional identifier (`mbox:mailto:…`, `account:…`); null for an anonymous group. */
    actorKey: text('actor_key'),
    /** The object's identifier: an activity id, an agent's key, or a referenced statement's id. */
    objectActivityId: text('object_activity_id'),
    objectAgentKey: text('object_agent_key'),
    objectStatementId: uuid('object_statement_id'),
    registration: uuid('registration'),
    /**
     * What the statement queries match, as terms of one GIN index:
     * `<organization>|v|<verb>`, `|ag|` the actor or object agent, `|rag|`
     * every agent mentioned (authority, instructor, team, members,
     * sub-statement), `|ac|` the object activity, `|rac|` every activity
     * mentioned (context activities, sub-statement), `|r|` the registration.
     * One index instead of one per filter keeps each insert cheap; the
     * organization inside the term keeps a verb every tenant uses selective.
     */
    searchKeys: text('search_keys').array().notNull(),
    isVoiding: boolean('is_voiding').notNull().default(false),
    /** Voided by a later statement: hidden from queries, still readable by `voidedStatementId`. */
    voided: boolean('voided').notNull().default(false),
    statement: jsonb('statement').$type<Record<string, unknown>>().notNull(),
    /** Why the statement made no CourseLens facts (null: it did). */
    unmappedReason: text('unmapped_reason'),
    apiKeyId: uuid('api_key_id'),
  },
  (table) => [
    primaryKey({ name: 'xapi_statements_pk', columns: [table.organizationId, table.id] }),
    // The unfiltered query and every page of it: newest stored first (or oldest, ascending).
    index('xapi_statements_stored_idx').on(table.organizationId, table.stored, table.id),
    // Statements that point at another one (voiding, StatementRef filters).
    index('xapi_statements_object_statement_idx')
      .on(table.organizationId, table.objectStatementId)
      .where(sql`${table.objectStatementId} is not null`),
    index('xapi_statements_search_idx').using('gin', table.searchKeys),
    // The latest statements that made no data, for the API keys tab.
    index('xapi_statements_unmapped_idx')
      .on(table.organizationId, table.stored)
      .where(sql`${table.unmappedReason} is not null`),
  ],
);

/** An attachment's content, once per organization and SHA-256 (statements refer to it by `sha2`). */
export const xapiAttachments = pgTable(
  'xapi_attachments',
  {
    organizationId: organizationId(),
    sha2: text('sha2').notNull(),
    contentType: text('content_type').notNull(),
    content: bytea('content').notNull(),
    storedAt: timestamptz('stored_at').notNull().defaultNow(),
  },
  (table) => [primaryKey({ name: 'xapi_attachments_pk', columns: [table.organizationId, table.sha2] })],
);

export const XAPI_DOCUMENT_KINDS = ['state', 'activity_profile', 'agent_profile'] as const;
export type XapiDocumentKind = (typeof XAPI_DOCUMENT_KINDS)[number];

/**
 * The State, Activity Profile and Agent Profile documents. The parts of the
 * key a kind does not use are '' (not null), so one primary key covers all
 * three kinds.
 */
export const xapiDocuments = pgTable(
  'xapi_documents',
  {
    organizationId: organizationId(),
    kind: text('kind').$type<XapiDocumentKind>().notNull(),
    activityId: text('activity_id').notNull().default(''),
    agentKey: text('agent_key').notNull().default(''),
    registration: text('registration').notNull().default(''),
    documentId: text('document_id').notNull(),
    contentType: text('content_type').notNull(),
    content: bytea('content').notNull(),
    /** SHA-1 of the content, quoted as HTTP sends it. */
    etag: text('etag').notNull(),
    updatedAt: timestamptz('updated_at').notNull(),
  },
  (table) => [
    primaryKey({
      name: 'xapi_documents_pk',
      columns: [
        table.organizationId,
        table.kind,
        table.activityId,
        table.agentKey,
        table.registration,
        table.documentId,
      ],
    }),
    check('xapi_documents_kind_check', isOneOf(table.kind, XAPI_DOCUMENT_KINDS)),
  ],
);

/** The latest definition the LRS was sent for each activity (`GET /xapi/activities`). */
export const xapiActivities = pgTable(
  'xapi_activities',
  {
    organizationId: organizationId(),
    activityId: text('activity_id').notNull(),
    definition: jsonb('definition').$type<Record<string, unknown>>().notNull(),
    updatedAt: timestamptz('updated_at').notNull(),
  },
  (table) => [primaryKey({ name: 'xapi_activities_pk', columns: [table.organizationId, table.activityId] })],
);

/**
 * Which course a registration belongs to, learnt from its first mapped
 * statement: a later statement of the registration that names no course
 * (a bare `answered` with only a parent slide) still finds it.
 */
export const xapiRegistrations = pgTable(
  'xapi_registrations',
  {
    organizationId: organizationId(),
    registration: uuid('registration').notNull(),
    courseActivityId: text('course_activity_id').notNull(),
  },
  (table) => [
    primaryKey({ name: 'xapi_registrations_pk', columns: [table.organizationId, table.registration] }),
  ],
);

/**
 * The number of each slide activity within its course: xAPI slides have ids,
 * not positions, so a slide gets its course's next number when first seen.
 */
export const xapiSlides = pgTable(
  'xapi_slides',
  {
    organizationId: organizationId(),
    courseActivityId: text('course_activity_id').notNull(),
    slideActivityId: text('slide_activity_id').notNull(),
    number: integer('number').notNull(),
  },
  (table) => [
    primaryKey({
      name: 'xapi_slides_pk',
      columns: [table.organizationId, table.courseActivityId, table.slideActivityId],
    }),
  ],
);

export type XapiStatementRow = typeof xapiStatements.$inferInsert;
export type XapiDocumentRow = typeof xapiDocuments.$inferSelect;
