import { boolean, index, jsonb, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { authUsers } from './auth';
import { tenantId, timestamps } from './columns';
import { organizationId } from './organizations';

/** A node of the pipeline editor (@xyflow/react shape); course nodes carry `data.courseId`. */
export type PipelineNode = {
  id: string;
  type: string;
  position?: { x: number; y: number };
  data?: Record<string, unknown>;
};

export type PipelineEdge = {
  id: string;
  source: string;
  target: string;
  sourceHandle?: string | null;
  targetHandle?: string | null;
  data?: Record<string, unknown>;
};

export const pipelines = pgTable(
  'pipelines',
  {
    id: tenantId(),
    organizationId: organizationId(),
    name: text('name').notNull(),
    description: text('description'),
    nodes: jsonb('nodes').$type<PipelineNode[]>().notNull().default([]),
    edges: jsonb('edges').$type<PipelineEdge[]>().notNull().default([]),
    active: boolean('active').notNull().default(false),
    createdBy: uuid('created_by').references(() => authUsers.id, { onDelete: 'set null' }),
    ...timestamps(),
  },
  (table) => [
    primaryKey({ name: 'pipelines_pk', columns: [table.organizationId, table.id] }),
    index('pipelines_org_created_idx').on(table.organizationId, table.createdAt),
  ],
);

/**
 * A reusable step a pipeline can run (send a webhook, set a variable, post a
 * broadcast...). `action_type` is open: the pipelines issue defines the set.
 */
export const actions = pgTable(
  'actions',
  {
    id: tenantId(),
    organizationId: organizationId(),
    name: text('name').notNull(),
    description: text('description'),
    actionType: text('action_type').notNull(),
    config: jsonb('config').$type<Record<string, unknown>>().notNull().default({}),
    active: boolean('active').notNull().default(true),
    createdBy: uuid('created_by').references(() => authUsers.id, { onDelete: 'set null' }),
    ...timestamps(),
  },
  (table) => [
    primaryKey({ name: 'actions_pk', columns: [table.organizationId, table.id] }),
    index('actions_org_created_idx').on(table.organizationId, table.createdAt),
  ],
);

export type Pipeline = typeof pipelines.$inferSelect;
export type NewPipeline = typeof pipelines.$inferInsert;
export type Action = typeof actions.$inferSelect;
export type NewAction = typeof actions.$inferInsert;
