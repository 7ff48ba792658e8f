import type { Database } from '../../db/client';
import { nodeById, readGraph, sourcesForEvent } from './pipeline-graph';
import type { PipelineQueue } from './pipeline-queue';
import { findPipelineRow, selectActiveEventPipelines, touchLastRun } from './pipelines.queries';
import { subjectOfLoggedEvent, subjectOfTrigger } from './run-subject';
import { insertRuns, selectLoggedEvents, type NewRun } from './runs.queries';

/** Runs inserted per statement (each run is a dozen parameters; PostgreSQL takes 65 535). */
const INSERT_CHUNK = 500;

/**
 * `learning-events.accepted`: the batch's events (read back from the log)
 * against the organization's active pipelines' course and chatbot sources
 * (a course's events, an agent's captures), read now
 * (nothing cached: another process may have just changed a pipeline). One
 * run per (pipeline version, event), keyed `event:<id>` so a second delivery
 * of the job, or of the event, inserts nothing; the runs' jobs are queued in
 * the same transaction, so a run exists if and only if its job does.
 *
 * Events a pipeline's action wrote (a variable it set) start no run: a
 * pipeline reacting to its own writes, or two pipelines to each other's,
 * would never stop.
 */
export async function startRunsForEvents(
  db: Database,
  queue: PipelineQueue,
  input: { organizationId: string; eventIds: readonly string[]; source: string; now: Date },
): Promise<number> {
  const { organizationId } = input;
  if (input.source === 'pipeline' || input.eventIds.length === 0) return 0;
  const candidates = await selectActiveEventPipelines(db, organizationId);
  if (candidates.length === 0) return 0;
  const events = await selectLoggedEvents(db, organizationId, input.eventIds);
  const runs: NewRun[] = [];
  for (const pipeline of candidates) {
    const { graph } = readGraph(pipeline);
    for (const row of events) {
      if (row.source === 'pipeline') continue;
      const starts = sourcesForEvent(graph, {
        type: row.type,
        courseId: row.course_id,
        chatbotId: row.chatbot_id,
      });
      if (starts.length === 0) continue;
      const subject = subjectOfLoggedEvent(row);
      runs.push({
        organizationId,
        pipelineId: pipeline.id,
        version: pipeline.version,
        triggerKind: 'event',
        triggerKey: `event:${row.event_id}`,
        startNodeIds: starts,
        eventId: row.event_id,
        eventType: row.type,
        payload: subject.event,
        learnerId: row.learner_id,
        learnerEmail: row.learner_email,
        startedAt: input.now,
      });
    }
  }
  if (runs.length === 0) return 0;
  return db.transaction(async (tx) => {
    let started = 0;
    const pipelineIds = new Set<string>();
    for (let offset = 0; offset < runs.length; offset += INSERT_CHUNK) {
      const inserted = await insertRuns(tx, runs.slice(offset, offset + INSERT_CHUNK));
      for (const run of inserted) pipelineIds.add(run.pipelineId);
      await queue.queueRuns(
        inserted.map((run) => ({ organizationId, runId: run.id })),
        { tx },
      );
      started += inserted.length;
    }
    await touchLastRun(tx, organizationId, [...pipelineIds], input.now);
    return started;
  });
}

/**
 * A schedule node's time came: one run of the pipeline's current version,
 * keyed by the schedule's job (a retried job starts nothing more). A
 * pipeline turned off, or a node gone, starts nothing (the recovery pass
 * removes the stale schedule).
 */
export async function startScheduledRun(
  db: Database,
  queue: PipelineQueue,
  input: { organizationId: string; pipelineId: string; nodeId: string; jobId: string; now: Date },
): Promise<boolean> {
  const { organizationId, pipelineId } = input;
  const pipeline = await findPipelineRow(db, organizationId, pipelineId);
  if (!pipeline?.active) return false;
  const node = nodeById(readGraph(pipeline).graph, input.nodeId);
  if (node?.type !== 'schedule') return false;
  const subject = subjectOfTrigger({
    id: `schedule_${input.jobId}`,
    type: 'schedule',
    at: input.now,
    learner: null,
  });
  return db.transaction(async (tx) => {
    const [inserted] = await insertRuns(tx, [
      {
        organizationId,
        pipelineId,
        version: pipeline.version,
        triggerKind: 'schedule',
        triggerKey: `schedule:${input.nodeId}:${input.jobId}`,
        startNodeIds: [input.nodeId],
        eventId: null,
        eventType: 'schedule',
        payload: subject.event,
        learnerId: null,
        learnerEmail: null,
        startedAt: input.now,
      },
    ]);
    if (!inserted) return false;
    await touchLastRun(tx, organizationId, [pipelineId], input.now);
    await queue.queueRuns([{ organizationId, runId: inserted.id }], { tx });
    return true;
  });
}
