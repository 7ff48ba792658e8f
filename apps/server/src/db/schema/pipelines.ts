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
import { isOneOf, tenantId, timestamps, timestamptz } from './columns';
import { organizationId, tenantOrganizationId } from './organizations';

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
    /** The version `nodes` / `edges` are (every save of the graph is one, see `pipeline_versions`). */
    version: integer('version').notNull().default(1),
    /** When the latest run started (the list sorts by it). */
    lastRunAt: timestamptz('last_run_at'),
    /**
     * Problems of the graph when it was last checked (a save, a deleted
     * course): the list's "invalid" status and filter read it; the detail
     * checks again.
     */
    problemCount: integer('problem_count').notNull().default(0),
    /** Finished runs older than this many days are deleted by the daily prune. */
    runRetentionDays: integer('run_retention_days').notNull().default(30),
    createdBy: uuid('created_by').references(() => authUsers.id, { onDelete: 'set null' }),
    ...timestamps(),
  },
  (table) => [
    primaryKey({ name: 'pipelines_pk', columns: [table.organizationId, table.id] }),
    index('pipelines_org_created_idx').on(table.organizationId, table.createdAt),
    // The list: newest changes first.
    index('pipelines_org_updated_idx').on(table.organizationId, table.updatedAt.desc()),
    // Matching an event: the organization's active pipelines only.
    index('pipelines_org_active_idx')
      .on(table.organizationId)
      .where(sql`${table.active}`),
    check('pipelines_run_retention_days_check', sql`${table.runRetentionDays} in (7, 30, 90, 365)`),
  ],
);

/** Every save of a pipeline's graph; a run records the version it ran. */
export const pipelineVersions = pgTable(
  'pipeline_versions',
  {
    organizationId: tenantOrganizationId(),
    pipelineId: uuid('pipeline_id').notNull(),
    version: integer('version').notNull(),
    nodes: jsonb('nodes').$type<PipelineNode[]>().notNull(),
    edges: jsonb('edges').$type<PipelineEdge[]>().notNull(),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    createdBy: uuid('created_by').references(() => authUsers.id, { onDelete: 'set null' }),
  },
  (table) => [
    primaryKey({
      name: 'pipeline_versions_pk',
      columns: [table.organizationId, table.pipelineId, table.version],
    }),
    foreignKey({
      name: 'pipeline_versions_pipeline_fk',
      columns: [table.organizationId, table.pipelineId],
      foreignColumns: [pipelines.organizationId, pipelines.id],
    }).onDelete('cascade'),
  ],
);

export const PIPELINE_RUN_STATUS_VALUES = [
  'queued',
  'running',
  'waiting',
  'succeeded',
  'failed',
  'skipped',
] as const;
export type PipelineRunStatusValue = (typeof PIPELINE_RUN_STATUS_VALUES)[number];
export const PIPELINE_TRIGGER_KIND_VALUES = ['event', 'schedule', 'manual', 'test', 'retry'] as const;
export type PipelineTriggerKindValue = (typeof PIPELINE_TRIGGER_KIND_VALUES)[number];
export const PIPELINE_STEP_STATUS_VALUES = ['running', 'waiting', 'succeeded', 'failed', 'skipped'] as const;
export type PipelineStepStatusValue = (typeof PIPELINE_STEP_STATUS_VALUES)[number];

/**
 * One run of one pipeline version. `trigger_key` names what started it
 * (`event:<event id>`, `schedule:<node>:<job>`, `manual:<uuid>`...): unique
 * per pipeline version, so one trigger runs each version at most once,
 * whoever inserts it and however often. A worker holds a running run by its
 * lease (`lease_until`, renewed while it works); a run whose lease ran out
 * belongs to whichever worker picks it up next.
 */
export const pipelineRuns = pgTable(
  'pipeline_runs',
  {
    id: tenantId(),
    organizationId: tenantOrganizationId(),
    pipelineId: uuid('pipeline_id').notNull(),
    version: integer('version').notNull(),
    triggerKind: text('trigger_kind').$type<PipelineTriggerKindValue>().notNull(),
    triggerKey: text('trigger_key').notNull(),
    /** The source nodes the run starts from. */
    startNodeIds: jsonb('start_node_ids').$type<string[]>().notNull().default([]),
    /** The learning event that triggered it (its sender's id), when one did. */
    eventId: text('event_id'),
    eventType: text('event_type'),
    /** The event (or the manual or scheduled trigger) as the actions get it. */
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull().default({}),
    /** No foreign key: a run's history outlives the learner. */
    learnerId: uuid('learner_id'),
    learnerEmail: text('learner_email'),
    status: text('status').$type<PipelineRunStatusValue>().notNull().default('queued'),
    /** Times a worker took the run (1 when nothing went wrong). */
    attempts: integer('attempts').notNull().default(0),
    leaseUntil: timestamptz('lease_until'),
    /** A waiting run goes on at this time (a delay, a webhook retry). */
    resumeAt: timestamptz('resume_at'),
    error: text('error'),
    /** The run this one retries. */
    retryOf: uuid('retry_of'),
    startedAt: timestamptz('started_at').notNull().defaultNow(),
    finishedAt: timestamptz('finished_at'),
    ...timestamps(),
  },
  (table) => [
    primaryKey({ name: 'pipeline_runs_pk', columns: [table.organizationId, table.id] }),
    foreignKey({
      name: 'pipeline_runs_version_fk',
      columns: [table.organizationId, table.pipelineId, table.version],
      foreignColumns: [
        pipelineVersions.organizationId,
        pipelineVersions.pipelineId,
        pipelineVersions.version,
      ],
    }).onDelete('cascade'),
    unique('pipeline_runs_trigger_unique').on(
      table.organizationId,
      table.pipelineId,
      table.version,
      table.triggerKey,
    ),
    check('pipeline_runs_status_check', isOneOf(table.status, PIPELINE_RUN_STATUS_VALUES)),
    check('pipeline_runs_trigger_kind_check', isOneOf(table.triggerKind, PIPELINE_TRIGGER_KIND_VALUES)),
    // A pipeline's runs, newest first (the Runs tab, the last run, counts of 30 days).
    index('pipeline_runs_pipeline_started_idx').on(
      table.organizationId,
      table.pipelineId,
      table.startedAt.desc(),
    ),
    // Recovery: runs whose worker died (lease over), waiting runs due, queued runs left behind.
    index('pipeline_runs_running_lease_idx')
      .on(table.leaseUntil)
      .where(sql`${table.status} = 'running'`),
    index('pipeline_runs_waiting_resume_idx')
      .on(table.resumeAt)
      .where(sql`${table.status} = 'waiting'`),
    index('pipeline_runs_queued_idx')
      .on(table.createdAt)
      .where(sql`${table.status} = 'queued'`),
  ],
);

/** What one node did in one run: each node runs at most once per run. */
export const pipelineRunSteps = pgTable(
  'pipeline_run_steps',
  {
    id: tenantId(),
    organizationId: tenantOrganizationId(),
    runId: uuid('run_id').notNull(),
    nodeId: text('node_id').notNull(),
    nodeType: text('node_type').notNull(),
    /** The node's name when it ran (the graph may change later). */
    nodeName: text('node_name').notNull(),
    /** Order of the steps within the run. */
    position: integer('position').notNull(),
    status: text('status').$type<PipelineStepStatusValue>().notNull(),
    attempts: integer('attempts').notNull().default(1),
    input: jsonb('input'),
    output: jsonb('output'),
    /** The nodes the run went on to from this one (a filter that stopped it: none). */
    next: jsonb('next').$type<string[]>().notNull().default([]),
    error: text('error'),
    startedAt: timestamptz('started_at').notNull().defaultNow(),
    finishedAt: timestamptz('finished_at'),
    durationMs: integer('duration_ms'),
    resumeAt: timestamptz('resume_at'),
  },
  (table) => [
    primaryKey({ name: 'pipeline_run_steps_pk', columns: [table.organizationId, table.id] }),
    foreignKey({
      name: 'pipeline_run_steps_run_fk',
      columns: [table.organizationId, table.runId],
      foreignColumns: [pipelineRuns.organizationId, pipelineRuns.id],
    }).onDelete('cascade'),
    unique('pipeline_run_steps_node_unique').on(table.organizationId, table.runId, table.nodeId),
    check('pipeline_run_steps_status_check', isOneOf(table.status, PIPELINE_STEP_STATUS_VALUES)),
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
export type PipelineVersion = typeof pipelineVersions.$inferSelect;
export type PipelineRun = typeof pipelineRuns.$inferSelect;
export type NewPipelineRun = typeof pipelineRuns.$inferInsert;
export type PipelineRunStep = typeof pipelineRunSteps.$inferSelect;
export type Action = typeof actions.$inferSelect;
export type NewAction = typeof actions.$inferInsert;
