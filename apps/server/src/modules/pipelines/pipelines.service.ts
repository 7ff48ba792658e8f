import { randomUUID } from 'node:crypto';
import {
  PIPELINE_MESSAGES,
  isSourceType,
  nodeName,
  validatePipelineGraph,
  withEdgeIds,
  type PipelineDetail,
  type PipelineEdgeInput,
  type PipelineGraph,
  type PipelineListResponse,
  type PipelineNode,
  type PipelineProblem,
  type PipelineRunDetail,
  type PipelineRunStatus,
  type PipelineRunSummary,
  type PipelineSourceType,
  type PipelineStatus,
  type PipelineSummary,
  type PipelineTriggerKind,
  type pipelineVersionsResponse,
} from '@courselens/contracts';
import type { z } from 'zod';
import type { Database } from '../../db/client';
import type { PipelineRun } from '../../db/schema';
import { AppError } from '../../errors';
import { insertActivity } from '../organizations/organizations.queries';
import { applyCourseVariableMappings } from '../variables/variable-mappings.service';
import {
  isSameGraph,
  mappingsOf,
  readGraph,
  referencesOf,
  sourcesOf,
  withoutCourse,
  type VariableMapping,
} from './pipeline-graph';
import type { PipelineQueue } from './pipeline-queue';
import {
  countPipelines,
  deletePipelineRow,
  existingReferences,
  findPipelineRow,
  findVersion,
  insertPipelineRow,
  insertVersionRow,
  selectActivePipelines,
  selectPipelineListRow,
  selectPipelinePage,
  selectPipelinesNamingCourse,
  selectPipelinesWithCourse,
  selectVersions,
  setProblemCount,
  touchLastRun,
  updatePipelineRow,
  type PipelineListRow,
  type PipelineSortKey,
} from './pipelines.queries';
import {
  copyGoodSteps,
  countRuns,
  findLearnerByEmail,
  findRun,
  insertRuns,
  selectRunPage,
  selectSteps,
} from './runs.queries';
import { subjectOfTrigger } from './run-subject';

/** The list's run counts cover this many days. */
const RUN_COUNT_DAYS = 30;
/** Versions the versions list shows, newest first. */
const MAX_VERSIONS_LISTED = 200;

const toIso = (value: Date | string) => (value instanceof Date ? value : new Date(value)).toISOString();
const toIsoOrNull = (value: Date | string | null) => (value === null ? null : toIso(value));

function since(now: Date): Date {
  return new Date(now.getTime() - RUN_COUNT_DAYS * 24 * 3600 * 1000);
}

function notFound(): AppError {
  return new AppError('NOT_FOUND', PIPELINE_MESSAGES.notFound);
}

function toSummary(row: PipelineListRow): PipelineSummary {
  const { graph } = readGraph(row);
  const sources: PipelineSourceType[] = [];
  for (const node of graph.nodes) {
    if (isSourceType(node.type) && !sources.includes(node.type)) sources.push(node.type);
  }
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    active: row.active,
    status: row.status,
    version: Number(row.version),
    sources,
    nodeCount: Array.isArray(row.nodes) ? row.nodes.length : 0,
    lastRunAt: toIsoOrNull(row.last_run_at),
    lastRunStatus: row.last_run_status,
    runs: {
      total: Number(row.runs_total),
      succeeded: Number(row.runs_succeeded),
      failed: Number(row.runs_failed),
      running: Number(row.runs_running),
    },
    createdAt: toIso(row.created_at),
    updatedAt: toIso(row.updated_at),
  };
}

// ---- problems ----------------------------------------------------------------------------------

/**
 * Everything that stands in the way of running a graph: the contract's
 * structural check, nodes that no longer read, and references that must
 * exist (live courses, actions, chatbots, variables), and variables another
 * active pipeline already maps.
 */
export async function graphProblems(
  db: Database,
  input: {
    organizationId: string;
    graph: PipelineGraph;
    /** Problems found reading the stored graph (nodes that no longer parse). */
    readProblems?: readonly PipelineProblem[];
    /** The pipeline itself, whose own mappings are no conflict. */
    pipelineId?: string | null;
  },
): Promise<PipelineProblem[]> {
  const { graph } = input;
  const problems: PipelineProblem[] = [...(input.readProblems ?? []), ...validatePipelineGraph(graph)];
  const existing = await existingReferences(db, input.organizationId, referencesOf(graph));
  for (const node of graph.nodes) {
    const name = nodeName(node);
    switch (node.type) {
      case 'course':
        if (!existing.courses.has(node.data.courseId))
          problems.push({ nodeId: node.id, message: PIPELINE_MESSAGES.unknownCourse(name) });
        break;
      case 'action':
        if (!existing.actions.has(node.data.actionId))
          problems.push({ nodeId: node.id, message: PIPELINE_MESSAGES.unknownAction(name) });
        break;
      case 'chatbot':
        if (!existing.chatbots.has(node.data.chatbotId))
          problems.push({ nodeId: node.id, message: PIPELINE_MESSAGES.unknownChatbot(name) });
        break;
      case 'map_variables':
        if (!existing.variables.has(node.data.destinationVariableId))
          problems.push({ nodeId: node.id, message: PIPELINE_MESSAGES.unknownVariable(name) });
        if (node.data.sources.some((source) => !existing.courses.has(source.courseId)))
          problems.push({ nodeId: node.id, message: PIPELINE_MESSAGES.unknownCourse(name) });
        break;
      default:
        break;
    }
  }
  const mine = mappingsOf(graph);
  if (mine.length > 0) {
    const others = (await selectActivePipelines(db, input.organizationId)).filter(
      (pipeline) => pipeline.id !== input.pipelineId,
    );
    for (const other of others) {
      const theirs = mappingsOf(readGraph(other).graph);
      for (const mapping of mine) {
        if (
          !theirs.some(
            (m) => m.courseId === mapping.courseId && m.sourceVariableName === mapping.sourceVariableName,
          )
        )
          continue;
        const node = graph.nodes.find(
          (candidate) =>
            candidate.type === 'map_variables' &&
            candidate.data.sources.some(
              (source) =>
                source.courseId === mapping.courseId && source.variableName === mapping.sourceVariableName,
            ),
        );
        problems.push({
          nodeId: node?.id ?? null,
          message: PIPELINE_MESSAGES.mappingTaken(mapping.sourceVariableName, other.name),
        });
      }
    }
  }
  return problems;
}

function cannotActivate(problems: readonly PipelineProblem[]): AppError {
  return new AppError(
    'VALIDATION_ERROR',
    PIPELINE_MESSAGES.cannotActivate,
    problems.map((problem) => ({
      path: problem.nodeId ? `nodes.${problem.nodeId}` : 'graph',
      message: problem.message,
    })),
  );
}

/** The mappings every active pipeline of the organization holds (the first pipeline to map a source wins). */
async function activeMappings(db: Database, organizationId: string): Promise<VariableMapping[]> {
  const mappings: VariableMapping[] = [];
  for (const pipeline of await selectActivePipelines(db, organizationId)) {
    for (const mapping of mappingsOf(readGraph(pipeline).graph)) {
      if (
        !mappings.some(
          (m) => m.courseId === mapping.courseId && m.sourceVariableName === mapping.sourceVariableName,
        )
      )
        mappings.push(mapping);
    }
  }
  return mappings;
}

/**
 * Runs `change` (which turns pipelines on or off, changes or deletes them)
 * and brings the course-variable mappings in step with the active
 * pipelines' map-variables nodes, in the same transaction.
 */
async function withMappingsInStep<T>(
  tx: Database,
  organizationId: string,
  change: () => Promise<T>,
): Promise<T> {
  const before = await activeMappings(tx, organizationId);
  const result = await change();
  const after = await activeMappings(tx, organizationId);
  if (before.length > 0 || after.length > 0) {
    await applyCourseVariableMappings(tx, organizationId, { remove: before, keep: after });
  }
  return result;
}

// ---- read ----------------------------------------------------------------------------------------

export async function listPipelines(
  db: Database,
  input: {
    organizationId: string;
    q?: string | undefined;
    status?: PipelineStatus | undefined;
    sort: PipelineSortKey;
    order: 'asc' | 'desc';
    page: number;
    pageSize: number;
    now?: Date;
  },
): Promise<PipelineListResponse> {
  const filter = { organizationId: input.organizationId, q: input.q, status: input.status };
  const [rows, total] = await Promise.all([
    selectPipelinePage(db, {
      ...filter,
      sort: input.sort,
      order: input.order,
      limit: input.pageSize,
      offset: (input.page - 1) * input.pageSize,
      since: since(input.now ?? new Date()),
    }),
    countPipelines(db, filter),
  ]);
  return { items: rows.map(toSummary), total, page: input.page, pageSize: input.pageSize };
}

/** A pipeline with its graph and what stands in the way of running it (checked now). */
export async function getPipeline(
  db: Database,
  organizationId: string,
  pipelineId: string,
  now = new Date(),
): Promise<PipelineDetail> {
  const row = await selectPipelineListRow(db, organizationId, pipelineId, since(now));
  if (!row) throw notFound();
  const { graph, problems: readProblems } = readGraph(row);
  const problems = await graphProblems(db, { organizationId, graph, readProblems, pipelineId });
  // The check of now decides, whatever the list's stored count says.
  const status: PipelineStatus = !row.active
    ? 'inactive'
    : problems.length > 0
      ? 'invalid'
      : row.last_run_status === 'failed'
        ? 'failing'
        : 'active';
  return {
    ...toSummary(row),
    status,
    nodes: graph.nodes,
    edges: graph.edges,
    problems,
    createdByName: row.created_by_name,
    runRetentionDays: Number(row.run_retention_days),
  };
}

// ---- write -----------------------------------------------------------------------------------

type GraphInput = { nodes: PipelineNode[]; edges: PipelineEdgeInput[] };

function graphOf(input: GraphInput): PipelineGraph {
  return withEdgeIds({ nodes: input.nodes, edges: input.edges.map((edge) => ({ ...edge })) });
}

/** Creates a pipeline (version 1); on only when its graph has no problem. */
export async function createPipeline(
  db: Database,
  queue: PipelineQueue,
  input: {
    organizationId: string;
    userId: string;
    name: string;
    description?: string | null | undefined;
    nodes: PipelineNode[];
    edges: PipelineEdgeInput[];
    active: boolean;
  },
): Promise<PipelineDetail> {
  const { organizationId } = input;
  const graph = graphOf(input);
  const problems = await graphProblems(db, { organizationId, graph });
  if (input.active && problems.length > 0) throw cannotActivate(problems);
  const row = await db.transaction((tx) =>
    withMappingsInStep(tx, organizationId, async () => {
      const inserted = await insertPipelineRow(tx, {
        organizationId,
        name: input.name,
        description: input.description ?? null,
        nodes: graph.nodes,
        edges: graph.edges,
        active: input.active,
        problemCount: problems.length,
        createdBy: input.userId,
      });
      await insertActivity(tx, {
        organizationId,
        actorUserId: input.userId,
        kind: 'pipeline.created',
        subjectType: 'pipeline',
        subjectId: inserted.id,
        summary: `Pipeline “${input.name}” created${input.active ? ' and turned on' : ''}`,
        details: { nodes: graph.nodes.length, active: input.active },
      });
      return inserted;
    }),
  );
  if (input.active) {
    await queue.syncSchedules({ organizationId, pipelineId: row.id, active: true, graph });
  }
  return getPipeline(db, organizationId, row.id);
}

/**
 * Changes a pipeline. A changed graph is saved as a new version (a run
 * keeps the version it ran). Turning it on, or changing the graph of a
 * pipeline that is on, is refused while the graph has problems.
 */
export async function updatePipeline(
  db: Database,
  queue: PipelineQueue,
  input: {
    organizationId: string;
    userId: string;
    pipelineId: string;
    name?: string | undefined;
    description?: string | null | undefined;
    nodes?: PipelineNode[] | undefined;
    edges?: PipelineEdgeInput[] | undefined;
    active?: boolean | undefined;
    runRetentionDays?: number | undefined;
    /** Restoring a version: the activity says so. */
    restoredFrom?: number;
  },
): Promise<PipelineDetail> {
  const { organizationId, pipelineId } = input;
  const outcome = await db.transaction(async (tx) => {
    const current = await findPipelineRow(tx, organizationId, pipelineId, { forUpdate: true });
    if (!current) throw notFound();
    const stored = readGraph(current);
    const graph =
      input.nodes !== undefined && input.edges !== undefined
        ? graphOf({ nodes: input.nodes, edges: input.edges })
        : stored.graph;
    const isNewGraph = input.nodes !== undefined && !isSameGraph(graph, current);
    const active = input.active ?? current.active;
    const problems = await graphProblems(tx, {
      organizationId,
      graph,
      readProblems: isNewGraph ? [] : stored.problems,
      pipelineId,
    });
    if (active && problems.length > 0 && (input.active === true || isNewGraph))
      throw cannotActivate(problems);
    const version = isNewGraph ? current.version + 1 : current.version;
    await withMappingsInStep(tx, organizationId, async () => {
      if (isNewGraph) {
        await insertVersionRow(tx, {
          organizationId,
          pipelineId,
          version,
          nodes: graph.nodes,
          edges: graph.edges,
          createdBy: input.userId,
        });
      }
      await updatePipelineRow(tx, organizationId, pipelineId, {
        ...(input.name !== undefined ? { name: input.name } : {}),
        ...(input.description !== undefined ? { description: input.description ?? null } : {}),
        ...(isNewGraph ? { nodes: graph.nodes, edges: graph.edges, version } : {}),
        ...(input.runRetentionDays !== undefined ? { runRetentionDays: input.runRetentionDays } : {}),
        active,
        problemCount: problems.length,
      });
    });
    const name = input.name ?? current.name;
    const summary =
      input.restoredFrom !== undefined
        ? `Pipeline “${name}” restored to version ${input.restoredFrom} (now version ${version})`
        : active !== current.active
          ? `Pipeline “${name}” turned ${active ? 'on' : 'off'}`
          : isRetentionOnly(input, current)
            ? `Pipeline “${name}” keeps runs ${input.runRetentionDays} days`
            : `Pipeline “${name}” updated${isNewGraph ? ` (version ${version})` : ''}`;
    await insertActivity(tx, {
      organizationId,
      actorUserId: input.userId,
      kind:
        active !== current.active
          ? active
            ? 'pipeline.activated'
            : 'pipeline.deactivated'
          : 'pipeline.updated',
      subjectType: 'pipeline',
      subjectId: pipelineId,
      summary,
      details: { version, isNewVersion: isNewGraph },
    });
    return { graph, active, isChanged: isNewGraph || active !== current.active };
  });
  if (outcome.isChanged) {
    await queue.syncSchedules({ organizationId, pipelineId, active: outcome.active, graph: outcome.graph });
  }
  return getPipeline(db, organizationId, pipelineId);
}

/** Only the run history's retention changes (the activity names it). */
function isRetentionOnly(
  input: { runRetentionDays?: number | undefined; name?: string | undefined; nodes?: unknown },
  current: { runRetentionDays: number },
): boolean {
  return (
    input.runRetentionDays !== undefined &&
    input.runRetentionDays !== current.runRetentionDays &&
    input.name === undefined &&
    input.nodes === undefined
  );
}

export async function deletePipeline(
  db: Database,
  queue: PipelineQueue,
  input: { organizationId: string; userId: string; pipelineId: string },
): Promise<void> {
  const { organizationId, pipelineId } = input;
  await db.transaction(async (tx) => {
    const current = await findPipelineRow(tx, organizationId, pipelineId, { forUpdate: true });
    if (!current) throw notFound();
    await withMappingsInStep(tx, organizationId, () => deletePipelineRow(tx, organizationId, pipelineId));
    await insertActivity(tx, {
      organizationId,
      actorUserId: input.userId,
      kind: 'pipeline.deleted',
      subjectType: 'pipeline',
      subjectId: pipelineId,
      summary: `Pipeline “${current.name}” deleted`,
      details: {},
    });
  });
  await queue.syncSchedules({ organizationId, pipelineId, active: false, graph: { nodes: [], edges: [] } });
}

// ---- versions ------------------------------------------------------------------------------

export async function listVersions(
  db: Database,
  organizationId: string,
  pipelineId: string,
): Promise<z.infer<typeof pipelineVersionsResponse>> {
  if (!(await findPipelineRow(db, organizationId, pipelineId))) throw notFound();
  const rows = await selectVersions(db, organizationId, pipelineId, MAX_VERSIONS_LISTED);
  return {
    items: rows.map((row) => ({
      version: Number(row.version),
      createdAt: toIso(row.created_at),
      createdByName: row.created_by_name,
      nodeCount: Array.isArray(row.nodes) ? row.nodes.length : 0,
      runs: Number(row.runs),
    })),
  };
}

/** Makes an earlier version's graph the current one, as a new version. */
export async function restoreVersion(
  db: Database,
  queue: PipelineQueue,
  input: { organizationId: string; userId: string; pipelineId: string; version: number },
): Promise<PipelineDetail> {
  const { organizationId, pipelineId } = input;
  if (!(await findPipelineRow(db, organizationId, pipelineId))) throw notFound();
  const found = await findVersion(db, organizationId, pipelineId, input.version);
  if (!found) throw new AppError('NOT_FOUND', PIPELINE_MESSAGES.versionNotFound);
  const { graph } = readGraph(found);
  return updatePipeline(db, queue, {
    organizationId,
    userId: input.userId,
    pipelineId,
    nodes: graph.nodes,
    edges: graph.edges,
    restoredFrom: input.version,
  });
}

/** The problems of a graph that is not saved (the editor checks as you build). */
export async function validateGraph(
  db: Database,
  input: { organizationId: string; nodes: PipelineNode[]; edges: PipelineEdgeInput[] },
): Promise<{ problems: PipelineProblem[] }> {
  const graph = graphOf(input);
  return { problems: await graphProblems(db, { organizationId: input.organizationId, graph }) };
}

// ---- runs -------------------------------------------------------------------------------------

export function toRunSummary(run: PipelineRun): PipelineRunSummary {
  return {
    id: run.id,
    pipelineId: run.pipelineId,
    version: run.version,
    status: run.status,
    trigger: run.triggerKind,
    eventId: run.eventId,
    eventType: run.eventType,
    learnerEmail: run.learnerEmail,
    startedAt: run.startedAt.toISOString(),
    finishedAt: run.finishedAt ? run.finishedAt.toISOString() : null,
    durationMs: run.finishedAt ? run.finishedAt.getTime() - run.startedAt.getTime() : null,
    error: run.error,
  };
}

/** The day after a YYYY-MM-DD date, at midnight UTC (periods include their last day). */
function dayAfter(date: string): Date {
  return new Date(new Date(`${date}T00:00:00.000Z`).getTime() + 24 * 3600 * 1000);
}

export async function listRuns(
  db: Database,
  input: {
    organizationId: string;
    pipelineId: string;
    q?: string | undefined;
    status?: PipelineRunStatus | undefined;
    trigger?: PipelineTriggerKind | undefined;
    from?: string | undefined;
    to?: string | undefined;
    order: 'asc' | 'desc';
    page: number;
    pageSize: number;
  },
) {
  if (!(await findPipelineRow(db, input.organizationId, input.pipelineId))) throw notFound();
  const filter = {
    organizationId: input.organizationId,
    pipelineId: input.pipelineId,
    q: input.q,
    status: input.status,
    trigger: input.trigger,
    from: input.from ? new Date(`${input.from}T00:00:00.000Z`) : undefined,
    to: input.to ? dayAfter(input.to) : undefined,
  };
  const [rows, total] = await Promise.all([
    selectRunPage(db, {
      ...filter,
      order: input.order,
      limit: input.pageSize,
      offset: (input.page - 1) * input.pageSize,
    }),
    countRuns(db, filter),
  ]);
  return { items: rows.map(toRunSummary), total, page: input.page, pageSize: input.pageSize };
}

export async function getRun(
  db: Database,
  input: { organizationId: string; pipelineId: string; runId: string },
): Promise<PipelineRunDetail> {
  const run = await findRun(db, input.organizationId, input.pipelineId, input.runId);
  if (!run) throw new AppError('NOT_FOUND', PIPELINE_MESSAGES.runNotFound);
  const steps = await selectSteps(db, input.organizationId, input.runId);
  return {
    ...toRunSummary(run),
    steps: steps.map((step) => ({
      nodeId: step.nodeId,
      nodeType: step.nodeType,
      nodeName: step.nodeName,
      status: step.status,
      attempts: step.attempts,
      input: step.input,
      output: step.output,
      error: step.error,
      startedAt: step.startedAt.toISOString(),
      finishedAt: step.finishedAt ? step.finishedAt.toISOString() : null,
      durationMs: step.durationMs,
      resumeAt: step.resumeAt ? step.resumeAt.toISOString() : null,
    })),
  };
}

/**
 * Runs a failed run again, as a new run of the same version with the same
 * event: from the failed step (the steps that went well are kept, so no
 * action that succeeded runs twice) or from the start.
 */
export async function retryRun(
  db: Database,
  queue: PipelineQueue,
  input: {
    organizationId: string;
    userId: string;
    pipelineId: string;
    runId: string;
    from: 'failed' | 'start';
    now?: Date;
  },
): Promise<PipelineRunSummary> {
  const { organizationId, pipelineId } = input;
  const now = input.now ?? new Date();
  const original = await findRun(db, organizationId, pipelineId, input.runId);
  if (!original) throw new AppError('NOT_FOUND', PIPELINE_MESSAGES.runNotFound);
  if (original.status !== 'failed') throw new AppError('CONFLICT', PIPELINE_MESSAGES.retryNotFailed);
  const runId = await db.transaction(async (tx) => {
    const [inserted] = await insertRuns(tx, [
      {
        organizationId,
        pipelineId,
        version: original.version,
        triggerKind: 'retry',
        triggerKey: `retry:${original.id}:${randomUUID()}`,
        startNodeIds: original.startNodeIds,
        eventId: original.eventId,
        eventType: original.eventType,
        payload: original.payload,
        learnerId: original.learnerId,
        learnerEmail: original.learnerEmail,
        retryOf: original.id,
        startedAt: now,
      },
    ]);
    if (!inserted) throw new Error('the retry run was not inserted');
    if (input.from === 'failed') {
      await copyGoodSteps(tx, { organizationId, fromRunId: original.id, toRunId: inserted.id });
    }
    await touchLastRun(tx, organizationId, [pipelineId], now);
    await queue.queueRuns([{ organizationId, runId: inserted.id }], { tx });
    return inserted.id;
  });
  const run = await findRun(db, organizationId, pipelineId, runId);
  return toRunSummary(run!);
}

/** A run started by a person (the pipeline's "Run by hand" sources), optionally for one learner. */
export async function runManually(
  db: Database,
  queue: PipelineQueue,
  input: {
    organizationId: string;
    userId: string;
    pipelineId: string;
    learnerEmail?: string | undefined;
    now?: Date;
  },
): Promise<PipelineRunSummary> {
  const { organizationId, pipelineId } = input;
  const now = input.now ?? new Date();
  const pipeline = await findPipelineRow(db, organizationId, pipelineId);
  if (!pipeline) throw notFound();
  const { graph } = readGraph(pipeline);
  const starts = sourcesOf(graph, 'manual').map((node) => node.id);
  if (starts.length === 0) throw new AppError('VALIDATION_ERROR', PIPELINE_MESSAGES.manualNeedsManualSource);
  if (!pipeline.active) throw new AppError('VALIDATION_ERROR', PIPELINE_MESSAGES.inactiveSource);
  const learner = input.learnerEmail
    ? await findLearnerByEmail(db, organizationId, input.learnerEmail)
    : null;
  if (input.learnerEmail && !learner) throw new AppError('VALIDATION_ERROR', PIPELINE_MESSAGES.noLearner);
  const id = randomUUID();
  const subject = subjectOfTrigger({ id: `manual_${id}`, type: 'manual', at: now, learner: learner ?? null });
  const runId = await db.transaction(async (tx) => {
    const [inserted] = await insertRuns(tx, [
      {
        organizationId,
        pipelineId,
        version: pipeline.version,
        triggerKind: 'manual',
        triggerKey: `manual:${id}`,
        startNodeIds: starts,
        eventId: null,
        eventType: 'manual',
        payload: subject.event,
        learnerId: subject.learnerId,
        learnerEmail: learner?.email ?? null,
        startedAt: now,
      },
    ]);
    if (!inserted) throw new Error('the manual run was not inserted');
    await touchLastRun(tx, organizationId, [pipelineId], now);
    await queue.queueRuns([{ organizationId, runId: inserted.id }], { tx });
    return inserted.id;
  });
  return toRunSummary((await findRun(db, organizationId, pipelineId, runId))!);
}

// ---- course deletion ---------------------------------------------------------------------------

/**
 * The pipelines whose course nodes name a course, with how many: what a
 * deletion with `removePipelineReferences` changes. Read-only, for the
 * courses module to answer with before it publishes `course.deleted`.
 */
export async function listPipelinesReferencingCourse(
  db: Database,
  organizationId: string,
  courseId: string,
): Promise<{ id: string; name: string; removedNodes: number }[]> {
  const rows = await selectPipelinesWithCourse(db, organizationId, courseId);
  return rows
    .map((row) => ({ id: row.id, name: row.name, removedNodes: withoutCourse(row, courseId).removed }))
    .filter((row) => row.removedNodes > 0);
}

/**
 * `course.deleted`: with `removePipelineReferences`, each pipeline's nodes
 * of the course go with their edges (a new version each, by nobody); in any
 * case the problem counts of the pipelines naming it are checked again (an
 * active pipeline whose source is gone shows as unable to run).
 * Idempotent: a pipeline without the course's nodes is left alone.
 */
export async function removeCourseFromPipelines(
  db: Database,
  queue: PipelineQueue,
  input: { organizationId: string; courseId: string; removePipelineReferences: boolean },
): Promise<void> {
  const { organizationId, courseId } = input;
  if (input.removePipelineReferences) {
    for (const candidate of await selectPipelinesWithCourse(db, organizationId, courseId)) {
      const outcome = await db.transaction(async (tx) => {
        const current = await findPipelineRow(tx, organizationId, candidate.id, { forUpdate: true });
        if (!current) return null;
        const changed = withoutCourse(current, courseId);
        if (changed.removed === 0) return null;
        const version = current.version + 1;
        const { graph, problems: readProblems } = readGraph(changed);
        const problems = await graphProblems(tx, {
          organizationId,
          graph,
          readProblems,
          pipelineId: current.id,
        });
        await withMappingsInStep(tx, organizationId, async () => {
          await insertVersionRow(tx, {
            organizationId,
            pipelineId: current.id,
            version,
            nodes: changed.nodes,
            edges: changed.edges,
            createdBy: null,
          });
          await updatePipelineRow(tx, organizationId, current.id, {
            nodes: changed.nodes as PipelineNode[],
            edges: changed.edges as PipelineGraph['edges'],
            version,
            problemCount: problems.length,
          });
        });
        await insertActivity(tx, {
          organizationId,
          actorUserId: null,
          kind: 'pipeline.updated',
          subjectType: 'pipeline',
          subjectId: current.id,
          summary: `Pipeline “${current.name}”: ${changed.removed} ${changed.removed === 1 ? 'node' : 'nodes'} of a deleted course removed (version ${version})`,
          details: { courseId, removedNodes: changed.removed, version },
        });
        return { graph, active: current.active, pipelineId: current.id };
      });
      if (outcome) await queue.syncSchedules({ organizationId, ...outcome });
    }
  }
  for (const pipeline of await selectPipelinesNamingCourse(db, organizationId, courseId)) {
    const { graph, problems: readProblems } = readGraph(pipeline);
    const problems = await graphProblems(db, {
      organizationId,
      graph,
      readProblems,
      pipelineId: pipeline.id,
    });
    await setProblemCount(db, organizationId, pipeline.id, problems.length);
  }
}
