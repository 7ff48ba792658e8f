import type { PipelineStatus } from '@courselens/contracts';
import { and, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client';
import {
  actions,
  chatbots,
  courses,
  pipelineVersions,
  pipelines,
  variables,
  type Pipeline,
  type PipelineEdge,
  type PipelineNode,
} from '../../db/schema';
import { escapeLike } from '../variables/variables.queries';

/** A pipeline as the list and the detail show it. */
export type PipelineListRow = {
  id: string;
  name: string;
  description: string | null;
  active: boolean;
  version: number;
  nodes: unknown;
  edges: unknown;
  problem_count: number;
  run_retention_days: number;
  status: PipelineStatus;
  last_run_at: Date | string | null;
  last_run_status: string | null;
  created_by_name: string | null;
  runs_total: number;
  runs_succeeded: number;
  runs_failed: number;
  runs_running: number;
  created_at: Date | string;
  updated_at: Date | string;
};

export type PipelineSortKey = 'updatedAt' | 'name' | 'lastRunAt' | 'createdAt';

const SORT_COLUMNS: Record<PipelineSortKey, string> = {
  updatedAt: 'l.updated_at',
  name: 'lower(l.name)',
  lastRunAt: 'l.last_run_at',
  createdAt: 'l.created_at',
};

type ListFilter = {
  organizationId: string;
  q?: string | undefined;
  status?: PipelineStatus | undefined;
  pipelineId?: string;
};

/**
 * The organization's pipelines with their status: off; on but unable to run
 * (its graph has problems); on and its latest run failed; or on.
 */
function listed(filter: ListFilter): SQL {
  const conditions: SQL[] = [sql`p.organization_id = ${filter.organizationId}`];
  if (filter.q) conditions.push(sql`p.name ilike ${`%${escapeLike(filter.q)}%`}`);
  if (filter.pipelineId) conditions.push(sql`p.id = ${filter.pipelineId}`);
  return sql`
    select p.*, lr.status as last_run_status,
      case when not p.active then 'inactive'
           when p.problem_count > 0 then 'invalid'
           when lr.status = 'failed' then 'failing'
           else 'active' end as status
    from ${pipelines} p
    left join lateral (
      select r.status from pipeline_runs r
      where r.organization_id = p.organization_id and r.pipeline_id = p.id
      order by r.started_at desc limit 1
    ) lr on true
    where ${sql.join(conditions, sql` and `)}`;
}

function statusCondition(status: PipelineStatus | undefined): SQL {
  return status ? sql`where l.status = ${status}` : sql``;
}

export async function selectPipelinePage(
  db: Database,
  input: ListFilter & {
    sort: PipelineSortKey;
    order: 'asc' | 'desc';
    limit: number;
    offset: number;
    since: Date;
  },
): Promise<PipelineListRow[]> {
  const direction = sql.raw(input.order === 'asc' ? 'asc' : 'desc');
  const column = sql.raw(SORT_COLUMNS[input.sort]);
  // Never-run pipelines last whichever the order; then the newest change, then the id (stable pages).
  const order = sql`${column} ${direction} nulls last, l.updated_at desc, l.id ${direction}`;
  const result = await db.execute<PipelineListRow>(sql`
    with l as (${listed(input)}),
    page as (select * from l ${statusCondition(input.status)} order by ${order} limit ${input.limit} offset ${input.offset})
    select l.id, l.name, l.description, l.active, l.version, l.nodes, l.edges, l.problem_count,
      l.run_retention_days, l.status,
      l.last_run_at, l.last_run_status, u.name as created_by_name,
      coalesce(rc.total, 0)::int as runs_total, coalesce(rc.succeeded, 0)::int as runs_succeeded,
      coalesce(rc.failed, 0)::int as runs_failed, coalesce(rc.running, 0)::int as runs_running,
      l.created_at, l.updated_at
    from page l
    left join auth_user u on u.id = l.created_by
    left join lateral (
      select count(*) as total,
        count(*) filter (where r.status = 'succeeded') as succeeded,
        count(*) filter (where r.status = 'failed') as failed,
        count(*) filter (where r.status in ('queued', 'running', 'waiting')) as running
      from pipeline_runs r
      where r.organization_id = l.organization_id and r.pipeline_id = l.id and r.started_at >= ${input.since}
    ) rc on true
    order by ${order}`);
  return result.rows;
}

export async function countPipelines(db: Database, filter: ListFilter): Promise<number> {
  const result = await db.execute<{ total: number }>(sql`
    with l as (${listed(filter)}) select count(*)::int as total from l ${statusCondition(filter.status)}`);
  return result.rows[0]?.total ?? 0;
}

export async function selectPipelineListRow(
  db: Database,
  organizationId: string,
  pipelineId: string,
  since: Date,
): Promise<PipelineListRow | undefined> {
  const [row] = await selectPipelinePage(db, {
    organizationId,
    pipelineId,
    sort: 'updatedAt',
    order: 'desc',
    limit: 1,
    offset: 0,
    since,
  });
  return row;
}

export async function findPipelineRow(
  db: Database,
  organizationId: string,
  pipelineId: string,
  options: { forUpdate?: boolean } = {},
): Promise<Pipeline | undefined> {
  const query = db
    .select()
    .from(pipelines)
    .where(and(eq(pipelines.organizationId, organizationId), eq(pipelines.id, pipelineId)))
    .limit(1);
  const [row] = options.forUpdate ? await query.for('update') : await query;
  return row;
}

export async function insertPipelineRow(
  db: Database,
  values: {
    organizationId: string;
    name: string;
    description: string | null;
    nodes: PipelineNode[];
    edges: PipelineEdge[];
    active: boolean;
    problemCount: number;
    createdBy: string | null;
  },
): Promise<Pipeline> {
  const [row] = await db
    .insert(pipelines)
    .values({ ...values, version: 1 })
    .returning();
  if (!row) throw new Error('the pipeline was not inserted');
  await db.insert(pipelineVersions).values({
    organizationId: values.organizationId,
    pipelineId: row.id,
    version: 1,
    nodes: values.nodes,
    edges: values.edges,
    createdBy: values.createdBy,
  });
  return row;
}

export async function updatePipelineRow(
  db: Database,
  organizationId: string,
  pipelineId: string,
  values: Partial<
    Pick<
      Pipeline,
      'name' | 'description' | 'nodes' | 'edges' | 'active' | 'version' | 'problemCount' | 'runRetentionDays'
    >
  >,
): Promise<void> {
  await db
    .update(pipelines)
    .set(values)
    .where(and(eq(pipelines.organizationId, organizationId), eq(pipelines.id, pipelineId)));
}

export async function insertVersionRow(
  db: Database,
  values: {
    organizationId: string;
    pipelineId: string;
    version: number;
    nodes: unknown[];
    edges: unknown[];
    createdBy: string | null;
  },
): Promise<void> {
  await db.insert(pipelineVersions).values({
    ...values,
    nodes: values.nodes as PipelineNode[],
    edges: values.edges as PipelineEdge[],
  });
}

export async function deletePipelineRow(
  db: Database,
  organizationId: string,
  pipelineId: string,
): Promise<boolean> {
  const rows = await db
    .delete(pipelines)
    .where(and(eq(pipelines.organizationId, organizationId), eq(pipelines.id, pipelineId)))
    .returning({ id: pipelines.id });
  return rows.length > 0;
}

export type VersionRow = {
  version: number;
  nodes: unknown;
  edges: unknown;
  created_at: Date | string;
  created_by_name: string | null;
  runs: number;
};

/** The newest versions of a pipeline first, with how many runs each had. */
export async function selectVersions(
  db: Database,
  organizationId: string,
  pipelineId: string,
  limit: number,
): Promise<VersionRow[]> {
  const result = await db.execute<VersionRow>(sql`
    select v.version, v.nodes, v.edges, v.created_at, u.name as created_by_name,
      (select count(*)::int from pipeline_runs r
        where r.organization_id = v.organization_id and r.pipeline_id = v.pipeline_id
          and r.version = v.version) as runs
    from pipeline_versions v
    left join auth_user u on u.id = v.created_by
    where v.organization_id = ${organizationId} and v.pipeline_id = ${pipelineId}
    order by v.version desc
    limit ${limit}`);
  return result.rows;
}

export async function findVersion(
  db: Database,
  organizationId: string,
  pipelineId: string,
  version: number,
): Promise<{ nodes: unknown; edges: unknown } | undefined> {
  const [row] = await db
    .select({ nodes: pipelineVersions.nodes, edges: pipelineVersions.edges })
    .from(pipelineVersions)
    .where(
      and(
        eq(pipelineVersions.organizationId, organizationId),
        eq(pipelineVersions.pipelineId, pipelineId),
        eq(pipelineVersions.version, version),
      ),
    )
    .limit(1);
  return row;
}

// ---- references ---------------------------------------------------------------------------

/** Which of the ids exist in the organization (courses: live ones only). */
export async function existingReferences(
  db: Database,
  organizationId: string,
  ids: { courseIds: string[]; actionIds: string[]; chatbotIds: string[]; variableIds: string[] },
): Promise<{ courses: Set<string>; actions: Set<string>; chatbots: Set<string>; variables: Set<string> }> {
  const pick = async (
    wanted: string[],
    find: (wanted: string[]) => Promise<{ id: string }[]>,
  ): Promise<Set<string>> =>
    wanted.length === 0 ? new Set() : new Set((await find(wanted)).map((r) => r.id));
  const [courseSet, actionSet, chatbotSet, variableSet] = await Promise.all([
    pick(ids.courseIds, (wanted) =>
      db
        .select({ id: courses.id })
        .from(courses)
        .where(
          and(
            eq(courses.organizationId, organizationId),
            inArray(courses.id, wanted),
            eq(courses.isDeleted, false),
          ),
        ),
    ),
    pick(ids.actionIds, (wanted) =>
      db
        .select({ id: actions.id })
        .from(actions)
        .where(and(eq(actions.organizationId, organizationId), inArray(actions.id, wanted))),
    ),
    pick(ids.chatbotIds, (wanted) =>
      db
        .select({ id: chatbots.id })
        .from(chatbots)
        .where(and(eq(chatbots.organizationId, organizationId), inArray(chatbots.id, wanted))),
    ),
    pick(ids.variableIds, (wanted) =>
      db
        .select({ id: variables.id })
        .from(variables)
        .where(and(eq(variables.organizationId, organizationId), inArray(variables.id, wanted))),
    ),
  ]);
  return { courses: courseSet, actions: actionSet, chatbots: chatbotSet, variables: variableSet };
}

/** The organization's active pipelines other than one (mapping conflicts, the mappings to keep). */
/** Whether the organization has a pipeline turned on (its partial index answers it). */
export async function hasActivePipeline(db: Database, organizationId: string): Promise<boolean> {
  const result = await db.execute<{ found: number }>(
    sql`select 1 as found from pipelines where organization_id = ${organizationId} and active limit 1`,
  );
  return result.rows.length > 0;
}

export async function selectActivePipelines(
  db: Database,
  organizationId: string,
): Promise<{ id: string; name: string; version: number; nodes: unknown; edges: unknown }[]> {
  return db
    .select({
      id: pipelines.id,
      name: pipelines.name,
      version: pipelines.version,
      nodes: pipelines.nodes,
      edges: pipelines.edges,
    })
    .from(pipelines)
    .where(and(eq(pipelines.organizationId, organizationId), eq(pipelines.active, true)))
    .orderBy(desc(pipelines.createdAt));
}

/**
 * Active pipelines with a source that events of the log start (a course or
 * a chatbot node), as the matcher reads them for each batch (nothing is
 * cached: another process may have changed them).
 */
export async function selectActiveEventPipelines(
  db: Database,
  organizationId: string,
): Promise<{ id: string; version: number; nodes: unknown; edges: unknown }[]> {
  const result = await db.execute<{ id: string; version: number; nodes: unknown; edges: unknown }>(sql`
    select p.id, p.version, p.nodes, p.edges from ${pipelines} p
    where p.organization_id = ${organizationId} and p.active
      and (p.nodes @> '[{"type": "course"}]'::jsonb or p.nodes @> '[{"type": "chatbot"}]'::jsonb)`);
  return result.rows;
}

/** Pipelines whose graph has a course node of the course (what deleting it with references changes). */
export async function selectPipelinesWithCourse(
  db: Database,
  organizationId: string,
  courseId: string,
): Promise<{ id: string; name: string; active: boolean; nodes: unknown; edges: unknown; version: number }[]> {
  const result = await db.execute<{
    id: string;
    name: string;
    active: boolean;
    nodes: unknown;
    edges: unknown;
    version: number;
  }>(sql`
    select p.id, p.name, p.active, p.nodes, p.edges, p.version from ${pipelines} p
    where p.organization_id = ${organizationId}
      and p.nodes @> jsonb_build_array(jsonb_build_object('type', 'course', 'data', jsonb_build_object('courseId', ${courseId}::text)))
    order by p.name, p.id`);
  return result.rows;
}

/** Pipelines naming a course anywhere (a course node or a mapping): their problems may have changed. */
export async function selectPipelinesNamingCourse(
  db: Database,
  organizationId: string,
  courseId: string,
): Promise<{ id: string; nodes: unknown; edges: unknown }[]> {
  const result = await db.execute<{ id: string; nodes: unknown; edges: unknown }>(sql`
    select p.id, p.nodes, p.edges from ${pipelines} p
    where p.organization_id = ${organizationId} and strpos(p.nodes::text, ${courseId}) > 0`);
  return result.rows;
}

export async function touchLastRun(
  db: Database,
  organizationId: string,
  pipelineIds: readonly string[],
  at: Date,
): Promise<void> {
  if (pipelineIds.length === 0) return;
  // Without bumping updated_at: a run is not a change of the pipeline.
  await db.execute(sql`
    update ${pipelines} set last_run_at = greatest(coalesce(last_run_at, ${at}), ${at})
    where organization_id = ${organizationId} and id in (${sql.join(
      pipelineIds.map((id) => sql`${id}::uuid`),
      sql`, `,
    )})`);
}

/** A new count of problems, without touching `updated_at` (nobody changed the pipeline). */
export async function setProblemCount(
  db: Database,
  organizationId: string,
  pipelineId: string,
  problemCount: number,
): Promise<void> {
  await db.execute(sql`
    update ${pipelines} set problem_count = ${problemCount}
    where organization_id = ${organizationId} and id = ${pipelineId}`);
}
