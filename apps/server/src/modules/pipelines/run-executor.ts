import { PIPELINE_MESSAGES, type ActionEvent, type PipelineGraph } from '@courselens/contracts';
import type { Database } from '../../db/client';
import type { PipelineRun } from '../../db/schema';
import type { ActionsRuntime } from '../actions/runtime';
import { insertActivity } from '../organizations/organizations.queries';
import { runLiveAction, type ActionStepContext } from './action-step';
import { readGraph } from './pipeline-graph';
import { runControlNode, runStatusOf, walkGraph, type ConditionLookups, type StepRecord } from './run-engine';
import type { RunSubject } from './run-subject';
import {
  claimRuns,
  countLearnerEvents,
  finishRuns,
  renewLeases,
  saveSteps,
  selectActionRows,
  selectLatestValue,
  selectSteps,
  type ClaimedRun,
  type RunOutcome,
} from './runs.queries';

/** How long a worker holds a run without renewing (it renews every third of it while busy). */
export const RUN_LEASE_MS = 30_000;
const HEARTBEAT_MS = RUN_LEASE_MS / 3;

/** What a worker needs to run pipelines. */
export type PipelineWorker = {
  db: Database;
  actions: ActionsRuntime;
  /** Queues the run's job (now, or when a wait ends). */
  queueRun: (run: { organizationId: string; runId: string }, startAfter?: Date) => Promise<void>;
  now?: () => Date;
};

/** Conditions' look-ups on the live data. */
export function liveLookups(db: Database, organizationId: string): ConditionLookups {
  return {
    latestValue: (learnerId, variableName, asOf) =>
      selectLatestValue(db, { organizationId, learnerId, variableName, asOf }),
    countEvents: (learnerId, courseId, type, asOf) =>
      countLearnerEvents(db, { organizationId, learnerId, courseId, type, asOf }),
  };
}

/** The subject of a stored run: its payload is the event the actions get. */
export function subjectOfRun(run: Pick<PipelineRun, 'payload' | 'learnerId' | 'startedAt'>): RunSubject {
  const event = run.payload as ActionEvent;
  const occurredAt = new Date(event.occurredAt);
  return {
    event,
    learnerId: run.learnerId,
    courseId: event.course?.id ?? null,
    occurredAt: Number.isNaN(occurredAt.getTime()) ? run.startedAt : occurredAt,
  };
}

/** Runs of one batch walked at once (their webhooks wait on the network together). */
const BATCH_CONCURRENCY = 16;

async function mapLimit<T, R>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const index = next++;
        results[index] = await work(items[index]!);
      }
    }),
  );
  return results;
}

/**
 * Works on runs until each ends or waits: takes those nobody else holds
 * (`claimRuns`: queued, due, or left by a worker that died), walks each
 * one's version of the graph from where it stood, then records all their
 * outcomes and steps in one transaction: done, failed (the owners hear of
 * it in the activity feed), or waiting (its job is queued for the time it
 * goes on). A run with several actions stores each action's step as soon
 * as it ends, so a crash does not run that action again; a run with one
 * action stores it with the outcome (a crash before that repeats the
 * delivery under the same webhook-id, which a receiver can tell apart).
 * Answers how many runs it took.
 */
export async function executeRuns(
  worker: PipelineWorker,
  target: { organizationId: string; runIds: readonly string[] },
): Promise<number> {
  const now = worker.now ?? (() => new Date());
  const { db } = worker;
  const { organizationId } = target;
  const runs = await claimRuns(db, {
    organizationId,
    runIds: [...new Set(target.runIds)],
    now: now(),
    leaseUntil: new Date(now().getTime() + RUN_LEASE_MS),
  });
  if (runs.length === 0) return 0;
  const held = runs.map((run) => ({ runId: run.id, attempt: run.attempts }));
  const lost = new Set<string>();
  const heartbeat = setInterval(() => {
    void renewLeases(db, { organizationId, runs: held, leaseUntil: new Date(now().getTime() + RUN_LEASE_MS) })
      .then((kept) => {
        for (const run of held) if (!kept.has(run.runId)) lost.add(run.runId);
      })
      .catch(() => undefined);
  }, HEARTBEAT_MS);
  heartbeat.unref();
  try {
    const graphs = new Map(
      runs.map((run) => [run.id, readGraph({ nodes: run.graph_nodes, edges: run.graph_edges }).graph]),
    );
    const actionIds = new Set<string>();
    for (const graph of graphs.values()) {
      for (const node of graph.nodes) if (node.type === 'action') actionIds.add(node.data.actionId);
    }
    const context = {
      db,
      runtime: worker.actions,
      organizationId,
      organizationName: runs[0]?.organization_name ?? null,
      now,
      actions: await selectActionRows(db, organizationId, [...actionIds]),
    };
    const lookups = liveLookups(db, organizationId);
    const outcomes = await mapLimit(runs, BATCH_CONCURRENCY, (run) =>
      walkRun(run, graphs.get(run.id)!, { context, lookups, now, isLost: () => lost.has(run.id) }),
    );
    const kept = outcomes.filter((outcome): outcome is RunOutcome => outcome !== null);
    const recorded = await finishRuns(db, { organizationId, outcomes: kept, now: now() });
    for (const outcome of kept) {
      if (!recorded.has(outcome.runId)) continue;
      const run = runs.find((candidate) => candidate.id === outcome.runId)!;
      if (outcome.status === 'waiting' && outcome.resumeAt) {
        await worker.queueRun({ organizationId, runId: run.id }, outcome.resumeAt);
      }
      if (outcome.status === 'failed' && outcome.error) await notifyFailure(db, run, outcome.error);
    }
    return runs.length;
  } catch (error) {
    // Let the job's retry take the runs again at once instead of waiting out their leases.
    await renewLeases(db, { organizationId, runs: held, leaseUntil: new Date(0) }).catch(() => undefined);
    throw error;
  } finally {
    clearInterval(heartbeat);
  }
}

/** One run's walk; null when the run was lost to another worker on the way. */
async function walkRun(
  run: ClaimedRun,
  graph: PipelineGraph,
  input: {
    context: ActionStepContext;
    lookups: ConditionLookups;
    now: () => Date;
    isLost: () => boolean;
  },
): Promise<RunOutcome | null> {
  const { context, lookups, now } = input;
  const { db, organizationId } = context;
  const attempt = run.attempts;
  const stored = attempt > 1 || run.retryOf ? await selectSteps(db, organizationId, run.id) : [];
  const positions = new Map(stored.map((step, index) => [step.nodeId, index]));
  const withPosition = (step: StepRecord) => {
    if (!positions.has(step.nodeId)) positions.set(step.nodeId, positions.size);
    return { ...step, position: positions.get(step.nodeId)! };
  };
  const subject = subjectOfRun(run);
  const hasSeveralActions = graph.nodes.filter((node) => node.type === 'action').length > 1;
  let unsaved: StepRecord[] = [];
  let isLost = false;
  const result = await walkGraph({
    graph,
    startIds: run.startNodeIds,
    previous: new Map(stored.map((step) => [step.nodeId, step])),
    now,
    execute: (node, previous) =>
      node.type === 'action'
        ? runLiveAction(context, node, previous, { runId: run.id, event: subject.event })
        : runControlNode(node, previous, { graph, subject, lookups, now: now(), waits: true, asOf: null }),
    onStep: async (step) => {
      unsaved.push(step);
      if (step.nodeType === 'action' && hasSeveralActions) {
        const steps = unsaved.map(withPosition);
        unsaved = [];
        if (!(await saveSteps(db, { organizationId, runId: run.id, attempt, steps }))) isLost = true;
      }
      return !isLost && !input.isLost();
    },
  });
  if (isLost || input.isLost()) return null;
  return {
    runId: run.id,
    attempt,
    status: runStatusOf(result),
    error: result.failed ? `${result.failed.nodeName}: ${result.failed.error ?? 'failed'}` : null,
    resumeAt: result.waitingUntil,
    steps: unsaved.map(withPosition),
  };
}

async function notifyFailure(db: Database, run: ClaimedRun, error: string): Promise<void> {
  await insertActivity(db, {
    organizationId: run.organizationId,
    actorUserId: null,
    kind: 'pipeline.run_failed',
    subjectType: 'pipeline',
    subjectId: run.pipelineId,
    summary: PIPELINE_MESSAGES.runFailed(run.pipeline_name, error),
    details: {
      runId: run.id,
      version: run.version,
      eventId: run.eventId,
      learnerEmail: run.learnerEmail,
      // Who should hear of it: the owners run the organization's automations.
      notify: ['owner'],
    },
  });
}

/** `executeRuns` for one run; false when there was nothing to do (someone else holds it, or it is done). */
export async function executeRun(
  worker: PipelineWorker,
  target: { organizationId: string; runId: string },
): Promise<boolean> {
  return (await executeRuns(worker, { organizationId: target.organizationId, runIds: [target.runId] })) > 0;
}
