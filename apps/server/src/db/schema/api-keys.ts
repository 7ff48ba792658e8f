import { check, index, pgTable, primaryKey, text, unique, uuid } from 'drizzle-orm/pg-core';
import { authUsers } from './auth';
import { isOneOf, tenantId, timestamps, timestamptz } from './columns';
import { organizationId } from './organizations';

/**
 * `ingest`: write-only, safe to embed in a course; the one scope (decision
 * 008). Keys once issued as `full` were turned into ingest keys.
 */
export const API_KEY_SCOPES = ['ingest'] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

/**
 * Keys for the ingestion and public API. The secret is shown once; only its
 * SHA-256 (hex) is stored, with a short non-secret prefix for display.
 */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: tenantId(),
    organizationId: organizationId(),
    name: text('name').notNull(),
    prefix: text('prefix').notNull(),
    keyHash: text('key_hash').notNull(),
    scope: text('scope').$type<ApiKeyScope>().notNull().default('ingest'),
    expiresAt: timestamptz('expires_at'),
    revokedAt: timestamptz('revoked_at'),
    lastUsedAt: timestamptz('last_used_at'),
    createdBy: uuid('created_by').references(() => authUsers.id, { onDelete: 'set null' }),
    ...timestamps(),
  },
  (table) => [
    primaryKey({ name: 'api_keys_pk', columns: [table.organizationId, table.id] }),
    check('api_keys_scope_check', isOneOf(table.scope, API_KEY_SCOPES)),
    // Unique within the organization, as a distributed table's keys must be;
    // a SHA-256 of 256 random bits does not collide across organizations.
    // The hash leads, so the key lookup (by hash alone, before the
    // organization is known) is served by this index.
    unique('api_keys_key_hash_unique').on(table.keyHash, table.organizationId),
    index('api_keys_org_created_idx').on(table.organizationId, table.createdAt),
  ],
);

export type ApiKey = typeof apiKeys.$inferSelect;
export type NewApiKey = typeof apiKeys.$inferInsert;
