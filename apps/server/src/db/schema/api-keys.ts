import { check, index, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { authUsers } from './auth';
import { isOneOf, primaryId, timestamps, timestamptz } from './columns';
import { organizationId } from './organizations';

/** `ingest`: write-only, safe to embed in a course. `full`: the whole API. */
export const API_KEY_SCOPES = ['ingest', 'full'] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

/**
 * Keys for the ingestion and public API. The secret is shown once; only its
 * SHA-256 (hex) is stored, with a short non-secret prefix for display.
 */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: primaryId(),
    organizationId: organizationId(),
    name: text('name').notNull(),
    prefix: text('prefix').notNull(),
    keyHash: text('key_hash').notNull().unique('api_keys_key_hash_unique'),
    scope: text('scope').$type<ApiKeyScope>().notNull().default('ingest'),
    expiresAt: timestamptz('expires_at'),
    revokedAt: timestamptz('revoked_at'),
    lastUsedAt: timestamptz('last_used_at'),
    createdBy: uuid('created_by').references(() => authUsers.id, { onDelete: 'set null' }),
    ...timestamps(),
  },
  (table) => [
    check('api_keys_scope_check', isOneOf(table.scope, API_KEY_SCOPES)),
    index('api_keys_org_created_idx').on(table.organizationId, table.createdAt),
  ],
);

export type ApiKey = typeof apiKeys.$inferSelect;
export type NewApiKey = typeof apiKeys.$inferInsert;
