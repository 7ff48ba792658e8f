import type { ReportQuery } from '@courselens/contracts';
import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  unique,
  uuid,
} from 'drizzle-orm/pg-core';
import { authUsers } from './auth';
import { isOneOf, tenantId, timestamps } from './columns';
import { organizationId } from './organizations';

export const CUSTOM_REPORT_TYPES = ['table', 'bar', 'line', 'pie', 'leaderboard', 'comparison'] as const;
export type CustomReportType = (typeof CUSTOM_REPORT_TYPES)[number];

/**
 * A saved report. It is readable without sign-in only while `is_public` and
 * through `public_share_token` (at least 128 random bits; rotating replaces it).
 */
export const customReports = pgTable(
  'custom_reports',
  {
    id: tenantId(),
    organizationId: organizationId(),
    name: text('name').notNull(),
    description: text('description'),
    reportType: text('report_type').$type<CustomReportType>().notNull().default('table'),
    /** Builder settings (filters, date range, chart options). */
    config: jsonb('config').$type<Record<string, unknown>>().notNull().default({}),
    isPublic: boolean('is_public').notNull().default(false),
    publicShareToken: text('public_share_token'),
    /** Visits of the public link. */
    viewCount: integer('view_count').notNull().default(0),
    createdBy: uuid('created_by').references(() => authUsers.id, { onDelete: 'set null' }),
    ...timestamps(),
  },
  (table) => [
    primaryKey({ name: 'custom_reports_pk', columns: [table.organizationId, table.id] }),
    // Unique within the organization (a distributed table's keys must hold
    // it); the token leads so that the public link, opened without an
    // organization, is found by this index.
    unique('custom_reports_public_share_token_unique').on(table.publicShareToken, table.organizationId),
    check('custom_reports_report_type_check', isOneOf(table.reportType, CUSTOM_REPORT_TYPES)),
    check('custom_reports_view_count_non_negative', sql`${table.viewCount} >= 0`),
    check(
      'custom_reports_public_has_token',
      sql`not ${table.isPublic} or ${table.publicShareToken} is not null`,
    ),
    index('custom_reports_org_created_idx').on(table.organizationId, table.createdAt.desc().nullsFirst()),
  ],
);

/** Charts an item may ask for (`auto` lets the data decide). */
export const REPORT_ITEM_CHARTS = ['auto', 'number', 'table', 'bar', 'line', 'pie', 'leaderboard'] as const;

/**
 * One item of a report: a query of the report model (subject, measure,
 * breakdown, filters, sort, limit) kept whole as validated JSON, since the
 * model grows (new subjects such as chatbot variables) faster than columns
 * should. What a query names (variables, questions, courses) is checked on
 * write; an item whose subject is gone later reads as unavailable.
 */
export const customReportItems = pgTable(
  'custom_report_items',
  {
    id: tenantId(),
    organizationId: organizationId(),
    reportId: uuid('report_id').notNull(),
    displayOrder: integer('display_order').notNull().default(0),
    displayName: text('display_name'),
    chart: text('chart').$type<(typeof REPORT_ITEM_CHARTS)[number]>().notNull().default('auto'),
    query: jsonb('query').$type<ReportQuery>().notNull(),
    ...timestamps(),
  },
  (table) => [
    primaryKey({ name: 'custom_report_items_pk', columns: [table.organizationId, table.id] }),
    foreignKey({
      name: 'custom_report_items_report_fk',
      columns: [table.organizationId, table.reportId],
      foreignColumns: [customReports.organizationId, customReports.id],
    }).onDelete('cascade'),
    check('custom_report_items_chart_check', isOneOf(table.chart, REPORT_ITEM_CHARTS)),
    index('custom_report_items_report_idx').on(table.organizationId, table.reportId, table.displayOrder),
  ],
);

export type CustomReport = typeof customReports.$inferSelect;
export type NewCustomReport = typeof customReports.$inferInsert;
export type CustomReportItem = typeof customReportItems.$inferSelect;
export type NewCustomReportItem = typeof customReportItems.$inferInsert;
