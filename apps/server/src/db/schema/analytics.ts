import { index, jsonb, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { authUsers } from './auth';
import { tenantId, timestamps } from './columns';
import { organizationId } from './organizations';

/** One settings document per organization for the analytics screens. */
export const analyticsSettings = pgTable(
  'analytics_settings',
  {
    id: tenantId(),
    organizationId: organizationId().unique('analytics_settings_organization_unique'),
    config: jsonb('config').$type<Record<string, unknown>>().notNull().default({}),
    ...timestamps(),
  },
  (table) => [primaryKey({ name: 'analytics_settings_pk', columns: [table.organizationId, table.id] })],
);

/** A saved funnel (its steps and filters live in `config`). */
export const analyticsFunnels = pgTable(
  'analytics_funnels',
  {
    id: tenantId(),
    organizationId: organizationId(),
    name: text('name').notNull(),
    description: text('description'),
    config: jsonb('config').$type<Record<string, unknown>>().notNull().default({}),
    createdBy: uuid('created_by').references(() => authUsers.id, { onDelete: 'set null' }),
    ...timestamps(),
  },
  (table) => [
    primaryKey({ name: 'analytics_funnels_pk', columns: [table.organizationId, table.id] }),
    index('analytics_funnels_org_created_idx').on(table.organizationId, table.createdAt),
  ],
);

export type AnalyticsSettings = typeof analyticsSettings.$inferSelect;
export type NewAnalyticsSettings = typeof analyticsSettings.$inferInsert;
export type AnalyticsFunnel = typeof analyticsFunnels.$inferSelect;
export type NewAnalyticsFunnel = typeof analyticsFunnels.$inferInsert;
