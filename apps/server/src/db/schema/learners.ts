import { sql } from 'drizzle-orm';
import { check, index, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { tenantId, timestamps, timestamptz } from './columns';
import { organizationId } from './organizations';

/**
 * A person taking courses, identified by e-mail within an organization.
 * E-mail is stored normalized (trimmed, lower-case; the check enforces the
 * case), so the unique index is case-insensitive.
 */
export const learners = pgTable(
  'learners',
  {
    id: tenantId(),
    organizationId: organizationId(),
    name: text('name'),
    email: text('email').notNull(),
    /**
     * When the learner last did anything in a course (ingestion keeps it with
     * greatest()); kept on the row so "sort by last activity" over 100 000
     * learners reads an index instead of aggregating every run.
     */
    lastActivityAt: timestamptz('last_activity_at'),
    ...timestamps(),
  },
  (table) => [
    // Also the target of the composite (organization_id, learner_id) foreign keys.
    primaryKey({ name: 'learners_pk', columns: [table.organizationId, table.id] }),
    check('learners_email_lowercase', sql`${table.email} = lower(${table.email})`),
    uniqueIndex('learners_org_email_unique').on(table.organizationId, table.email),
    // Sorted lists and keyset pagination by name.
    index('learners_org_name_idx').on(table.organizationId, table.name, table.id),
    // Case-insensitive prefix search (`lower(name) like 'ann%'`, `email like 'ann%'`);
    // text_pattern_ops makes LIKE prefixes indexable under any collation.
    index('learners_org_name_search_idx').on(
      table.organizationId,
      sql`lower(${table.name}) text_pattern_ops`,
    ),
    index('learners_org_email_search_idx').on(table.organizationId, table.email.op('text_pattern_ops')),
    index('learners_org_created_idx').on(table.organizationId, table.createdAt, table.id),
    index('learners_org_last_activity_idx').on(
      table.organizationId,
      table.lastActivityAt.desc().nullsLast(),
      table.id,
    ),
  ],
);

export type Learner = typeof learners.$inferSelect;
export type NewLearner = typeof learners.$inferInsert;
