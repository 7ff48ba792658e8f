import {
  INSIGHT_KINDS,
  INSIGHT_SEVERITIES,
  type InsightKind,
  type InsightSeverity,
} from '@courselens/contracts';
import {
  check,
  doublePrecision,
  index,
  jsonb,
  pgTable,
  primaryKey,
  text,
  unique,
  uuid,
} from 'drizzle-orm/pg-core';
import { authUsers } from './auth';
import { isOneOf, tenantId, timestamps, timestamptz } from './columns';
import { organizationId } from './organizations';

/** One settings document per organization for the analytics screens. */
export const analyticsSettings = pgTable(
  'analytics_settings',
  {
    id: tenantId(),
    organizationId: organizationId().unique('analytics_settings_organization_unique'),
    config: jsonb('config').$type<Record<string, unknown>>().notNull().default({}),
    /** When the insight job last looked at the organization (with or without findings). */
    insightsComputedAt: timestamptz('insights_computed_at'),
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

/**
 * A finding of the scheduled insight job ("the answer key of Q3 may be
 * wrong"), with the figures behind it. `fingerprint` names the finding
 * (kind, course, question...), so a later run updates it instead of adding
 * a twin, and a dismissed finding stays dismissed until its evidence
 * changes materially (the job clears `dismissed_at` then).
 */
export const analyticsInsights = pgTable(
  'analytics_insights',
  {
    id: tenantId(),
    organizationId: organizationId(),
    kind: text('kind').$type<InsightKind>().notNull(),
    fingerprint: text('fingerprint').notNull(),
    severity: text('severity').$type<InsightSeverity>().notNull().default('info'),
    title: text('title').notNull(),
    body: text('body').notNull(),
    /** The figures behind the finding, shown beside it. */
    evidence: jsonb('evidence').$type<Record<string, unknown>>().notNull().default({}),
    /** The screen that shows it (an app path). */
    link: text('link').notNull(),
    /** Orders the findings: larger is more important. */
    score: doublePrecision('score').notNull().default(0),
    courseId: uuid('course_id'),
    computedAt: timestamptz('computed_at').notNull().defaultNow(),
    dismissedAt: timestamptz('dismissed_at'),
    dismissedBy: uuid('dismissed_by').references(() => authUsers.id, { onDelete: 'set null' }),
    ...timestamps(),
  },
  (table) => [
    primaryKey({ name: 'analytics_insights_pk', columns: [table.organizationId, table.id] }),
    unique('analytics_insights_fingerprint_unique').on(table.organizationId, table.fingerprint),
    check('analytics_insights_kind_check', isOneOf(table.kind, INSIGHT_KINDS)),
    check('analytics_insights_severity_check', isOneOf(table.severity, INSIGHT_SEVERITIES)),
    index('analytics_insights_org_score_idx').on(table.organizationId, table.score),
  ],
);

export type AnalyticsSettings = typeof analyticsSettings.$inferSelect;
export type NewAnalyticsSettings = typeof analyticsSettings.$inferInsert;
export type AnalyticsFunnel = typeof analyticsFunnels.$inferSelect;
export type NewAnalyticsFunnel = typeof analyticsFunnels.$inferInsert;
export type AnalyticsInsight = typeof analyticsInsights.$inferSelect;
export type NewAnalyticsInsight = typeof analyticsInsights.$inferInsert;
