import type { PipelineRunStatus, PipelineTriggerKind } from '@courselens/contracts';
import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client';
import {
  actions,
  learners,
  pipelineRunSteps,
  pipelineRuns,
  type Action,
  type PipelineRun,
} from '../../db/schema';
import type { StepRecord } from './run-engine';
import type { LoggedEventRow } from './run-subject';

/** Rows of a raw query (both drivers answer `{ rows }`). */
async function rows<T>(db: Database, query: SQL): Promise<T[]> {
  return (await db.execute<T & Record<string, unknown>>(query)).rows;
}

export type NewRun = {
  organizationId: string;
  pipelineId: string;
  version: number;
  triggerKind: PipelineTriggerKind;
  triggerKey: string;
  startNodeIds: string[];
  eventId: string | null;
  eventType: string | null;
  payload: Record<string, unknown>;
  learnerId: string | null;
  learnerEmail: string | null;
  retryOf?: string | null;
  startedAt: Date;
};

/**
 * Inserts runs; a trigger already run by that pipeline version inserts
 * nothing (the unique trigger key). Answers the runs inserted.
 */
export async function insertRuns(
  db: Database,
  runs: readonly NewRun[],
): Promise<{ id: string; pipelineId: string; triggerKey: string }[]> {
  if (runs.length === 0) return [];
  return db
    .insert(pipelineRuns)
    .values(runs.map((run) => ({ ...run, status: 'queued' as const })))
    .onConflictDoNothing()
    .returning({
      id: pipelineRuns.id,
      pipelineId: pipelineRuns.pipelineId,
      triggerKey: pipelineRuns.triggerKey,
    });
}

export type ClaimedRun = PipelineRun & {
  pipeline_name: string;
  graph_nodes: unknown;
  graph_edges: unknown;
  organization_name: string | null;
};

/**
 * Takes a run for one worker: a queued run, a waiting run that is due, or a
 * running run whose worker's lease ran out (it died). `attempts` goes up by
 * one and is the worker's fencing token: every later write checks it, so a
 * worker that lost its lease cannot overwrite the one that took over.
 */
export async function claimRun(
  db: Database,
  input: { organizationId: string; runId: string; now: Date; leaseUntil: Date },
): Promise<ClaimedRun | undefined> {
  const [claimed] = await claimRuns(db, { ...input, runIds: [input.runId] });
  return claimed;
}

/** `claimRun` for several runs of one organization at once: those nobody else holds. */
export async function claimRuns(
  db: Database,
  input: { organizationId: string; runIds: readonly string[]; now: Date; leaseUntil: Date },
): Promise<ClaimedRun[]> {
  if (input.runIds.length === 0) return [];
  const claimed = await rows<Record<string, unknown>>(
    db,
    sql`
    with taken as (
      update pipeline_runs r set status = 'running', attempts = r.attempts + 1,
        lease_until = ${input.leaseUntil}, resume_at = null, updated_at = ${input.now}
      where r.organization_id = ${input.organizationId}
        and r.id in (${sql.join(
          input.runIds.map((id) => sql`${id}::uuid`),
          sql`, `,
        )})
        and (r.status = 'queued'
          or (r.status = 'running' and (r.lease_until is null or r.lease_until < ${input.now}))
          or (r.status = 'waiting' and (r.resume_at is null or r.resume_at <= ${input.now})))
      returning r.*
    )
    select t.*, p.name as pipeline_name, v.nodes as graph_nodes, v.edges as graph_edges,
      o.name as organization_name
    from taken t
    join pipelines p on p.organization_id = t.organization_id and p.id = t.pipeline_id
    join pipeline_versions v on v.organization_id = t.organization_id and v.pipeline_id = t.pipeline_id
      and v.version = t.version
    left join organizations o on o.id = t.organization_id
    order by t.started_at, t.id`,
  );
  return claimed.map((row) => toRun(row) as ClaimedRun);
}

/** A raw row in the camelCase of the Drizzle type. */
function toRun(row: Record<string, unknown>): PipelineRun & Record<string, unknown> {
  const date = (value: unknown) =>
    value instanceof Date
      ? value
      : typeof value === 'string' || typeof value === 'number'
        ? new Date(value)
        : null;
  return {
    ...row,
    id: row.id as string,
    organizationId: row.organization_id as string,
    pipelineId: row.pipeline_id as string,
    version: Number(row.version),
    triggerKind: row.trigger_kind as PipelineRun['triggerKind'],
    triggerKey: row.trigger_key as string,
    startNodeIds: (row.start_node_ids as string[] | null) ?? [],
    eventId: (row.event_id as string | null) ?? null,
    eventType: (row.event_type as string | null) ?? null,
    payload: (row.payload as Record<string, unknown> | null) ?? {},
    learnerId: (row.learner_id as string | null) ?? null,
    learnerEmail: (row.learner_email as string | null) ?? null,
    status: row.status as PipelineRun['status'],
    attempts: Number(row.attempts),
    leaseUntil: date(row.lease_until),
    resumeAt: date(row.resume_at),
    error: (row.error as string | null) ?? null,
    retryOf: (row.retry_of as string | null) ?? null,
    startedAt: date(row.started_at) ?? new Date(),
    finishedAt: date(row.finished_at),
    createdAt: date(row.created_at) ?? new Date(),
    updatedAt: date(row.updated_at) ?? new Date(),
  };
}

/** Keeps the leases of the runs a worker holds (each by its own attempt); answers those still held. */
export async function renewLeases(
  db: Database,
  input: { organizationId: string; runs: readonly { runId: string; attempt: number }[]; leaseUntil: Date },
): Promise<Set<string>> {
  if (input.runs.length === 0) return new Set();
  const held = await rows<{ id: string }>(
    db,
    sql`
    update pipeline_runs r set lease_until = ${input.leaseUntil}
    from (values ${sql.join(
      input.runs.map((run) => sql`(${run.runId}::uuid, ${run.attempt}::int)`),
      sql`, `,
    )}) as v(id, attempt)
    where r.organization_id = ${input.organizationId} and r.id = v.id and r.attempts = v.attempt
      and r.status = 'running'
    returning r.id`,
  );
  return new Set(held.map((row) => row.id));
}

export async function selectSteps(
  db: Database,
  organizationId: string,
  runId: string,
): Promise<StepRecord[]> {
  const found = await db
    .select()
    .from(pipelineRunSteps)
    .where(and(eq(pipelineRunSteps.organizationId, organizationId), eq(pipelineRunSteps.runId, runId)))
    .orderBy(pipelineRunSteps.position);
  return found.map((step) => ({
    nodeId: step.nodeId,
    nodeType: step.nodeType as StepRecord['nodeType'],
    nodeName: step.nodeName,
    status: step.status,
    attempts: step.attempts,
    input: step.input,
    output: step.output,
    next: step.next,
    error: step.error,
    startedAt: step.startedAt,
    finishedAt: step.finishedAt,
    durationMs: step.durationMs,
    resumeAt: step.resumeAt,
  }));
}

/**
 * Stores steps of a run (new or changed), only while the worker still holds
 * the run (`attempt`); false when it does not (nothing was written).
 */
export async function saveSteps(
  db: Database,
  input: {
    organizationId: string;
    runId: string;
    attempt: number | null;
    steps: readonly (StepRecord & { position: number })[];
  },
): Promise<boolean> {
  if (input.steps.length === 0) return true;
  const owner =
    input.attempt === null
      ? null
      : sql`select 1 from pipeline_runs where organization_id = ${input.organizationId}
          and id = ${input.runId} and attempts = ${input.attempt} and status = 'running'`;
  const written = await insertSteps(
    db,
    input.organizationId,
    input.steps.map((step) => ({ ...step, runId: input.runId })),
    owner,
  );
  return written > 0;
}

/** Inserts or updates steps of runs of one organization; with `owner`, only when that query finds a row. */
async function insertSteps(
  db: Database,
  organizationId: string,
  steps: readonly (StepRecord & { position: number; runId: string })[],
  owner: SQL | null,
): Promise<number> {
  if (steps.length === 0) return 0;
  const json = (value: unknown) => (value === undefined ? null : JSON.stringify(value));
  const values = steps.map(
    (step) => sql`(${organizationId}::uuid, ${step.runId}::uuid, ${step.nodeId}, ${step.nodeType},
      ${step.nodeName}, ${step.position}::int, ${step.status}, ${step.attempts}::int, ${json(step.input)}::jsonb,
      ${json(step.output)}::jsonb, ${JSON.stringify(step.next)}::jsonb, ${step.error}, ${step.startedAt}::timestamptz,
      ${step.finishedAt}::timestamptz, ${step.durationMs}::int, ${step.resumeAt}::timestamptz)`,
  );
  const written = await rows<{ node_id: string }>(
    db,
    sql`
    insert into pipeline_run_steps (organization_id, run_id, node_id, node_type, node_name, position, status,
      attempts, input, output, next, error, started_at, finished_at, duration_ms, resume_at)
    select s.* from (values ${sql.join(values, sql`, `)}) as s
    ${owner ? sql`where exists (${owner})` : sql``}
    on conflict (organization_id, run_id, node_id) do update set
      status = excluded.status, attempts = excluded.attempts, input = excluded.input,
      output = excluded.output, next = excluded.next, error = excluded.error,
      finished_at = excluded.finished_at, duration_ms = excluded.duration_ms, resume_at = excluded.resume_at
    returning node_id`,
  );
  return written.length;
}

/** How a worker's turn on a run ends: its outcome (or when it goes on) and the steps it changed. */
export type RunOutcome = {
  runId: string;
  attempt: number;
  status: PipelineRunStatus;
  error: string | null;
  resumeAt: Date | null;
  steps: (StepRecord & { position: number })[];
};

/**
 * Records the outcomes of a batch of runs in one transaction: each run whose
 * worker still holds it (its attempt) gets its status and its steps; a run
 * lost to another worker gets nothing. Answers the runs recorded.
 */
export async function finishRuns(
  db: Database,
  input: { organizationId: string; outcomes: readonly RunOutcome[]; now: Date },
): Promise<Set<string>> {
  if (input.outcomes.length === 0) return new Set();
  return db.transaction(async (tx) => {
    const updated = await rows<{ id: string }>(
      tx,
      sql`
      update pipeline_runs r set status = v.status, error = v.error, resume_at = v.resume_at,
        lease_until = null, updated_at = ${input.now},
        finished_at = case when v.status = 'waiting' then null else ${input.now}::timestamptz end
      from (values ${sql.join(
        input.outcomes.map(
          (outcome) =>
            sql`(${outcome.runId}::uuid, ${outcome.attempt}::int, ${outcome.status}::text, ${outcome.error}::text,
              ${outcome.resumeAt}::timestamptz)`,
        ),
        sql`, `,
      )}) as v(id, attempt, status, error, resume_at)
      where r.organization_id = ${input.organizationId} and r.id = v.id and r.attempts = v.attempt
        and r.status = 'running'
      returning r.id`,
    );
    const recorded = new Set(updated.map((row) => row.id));
    await insertSteps(
      tx,
      input.organizationId,
      input.outcomes
        .filter((outcome) => recorded.has(outcome.runId))
        .flatMap((outcome) => outcome.steps.map((step) => ({ ...step, runId: outcome.runId }))),
      null,
    );
    return recorded;
  });
}

/** The organization's actions by id (a batch of runs reads them once). */
export async function selectActionRows(
  db: Database,
  organizationId: string,
  actionIds: readonly string[],
): Promise<Map<string, Action>> {
  if (actionIds.length === 0) return new Map();
  const found = await db
    .select()
    .from(actions)
    .where(and(eq(actions.organizationId, organizationId), inArray(actions.id, [...actionIds])));
  return new Map(found.map((action) => [action.id, action]));
}

/**
 * Runs nobody is working on although they should be, across organizations
 * (the recovery pass): running with an expired lease (the worker died),
 * waiting past their time by `grace` (their wake-up job was lost), queued
 * for longer than `grace` without being taken (their job was lost).
 */
export async function selectStrandedRuns(
  db: Database,
  input: { now: Date; grace: number; limit: number },
): Promise<{ organization_id: string; id: string }[]> {
  const before = new Date(input.now.getTime() - input.grace);
  return rows(
    db,
    sql`
    (select organization_id, id from pipeline_runs where status = 'running' and lease_until < ${input.now}
      order by lease_until limit ${input.limit})
    union all
    (select organization_id, id from pipeline_runs where status = 'waiting' and resume_at < ${before}
      order by resume_at limit ${input.limit})
    union all
    (select organization_id, id from pipeline_runs where status = 'queued' and created_at < ${before}
      order by created_at limit ${input.limit})`,
  );
}

/**
 * Deletes up to `limit` finished runs (with their steps) that are older than
 * their pipeline's retention, across organizations; answers how many went.
 * Runs still queued, running or waiting stay whatever their age. Each
 * pipeline's runs are read through its (organization, pipeline, started)
 * index, oldest first.
 */
export async function deleteExpiredRuns(db: Database, input: { now: Date; limit: number }): Promise<number> {
  const result = await rows<{ deleted: number }>(
    db,
    sql`
    with doomed as (
      select r.organization_id, r.id
      from pipelines p
      cross join lateral (
        select r.organization_id, r.id from pipeline_runs r
        where r.organization_id = p.organization_id and r.pipeline_id = p.id
          and r.started_at < ${input.now}::timestamptz - make_interval(days => p.run_retention_days)
          and r.status in ('succeeded', 'failed', 'skipped')
        order by r.started_at
        limit ${input.limit}
      ) r
      limit ${input.limit}
    ),
    gone as (
      delete from pipeline_runs r using doomed d
      where r.organization_id = d.organization_id and r.id = d.id
      returning 1
    )
    select count(*)::int as deleted from gone`,
  );
  return result[0]?.deleted ?? 0;
}

// ---- lists ---------------------------------------------------------------------------------------

export type RunListRow = PipelineRun;

type RunFilter = {
  organizationId: string;
  pipelineId: string;
  status?: PipelineRunStatus | undefined;
  trigger?: PipelineTriggerKind | undefined;
  q?: string | undefined;
  from?: Date | undefined;
  to?: Date | undefined;
};

function runConditions(filter: RunFilter): SQL | undefined {
  return and(
    eq(pipelineRuns.organizationId, filter.organizationId),
    eq(pipelineRuns.pipelineId, filter.pipelineId),
    filter.status ? eq(pipelineRuns.status, filter.status) : undefined,
    filter.trigger ? eq(pipelineRuns.triggerKind, filter.trigger) : undefined,
    filter.q
      ? sql`(${pipelineRuns.learnerEmail} ilike ${`%${filter.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`}
          or ${pipelineRuns.eventId} = ${filter.q})`
      : undefined,
    filter.from ? sql`${pipelineRuns.startedAt} >= ${filter.from}` : undefined,
    filter.to ? sql`${pipelineRuns.startedAt} < ${filter.to}` : undefined,
  );
}

export async function selectRunPage(
  db: Database,
  input: RunFilter & { order: 'asc' | 'desc'; limit: number; offset: number },
): Promise<RunListRow[]> {
  const direction = input.order === 'asc' ? sql`asc` : sql`desc`;
  return db
    .select()
    .from(pipelineRuns)
    .where(runConditions(input))
    .orderBy(sql`${pipelineRuns.startedAt} ${direction}, ${pipelineRuns.id} ${direction}`)
    .limit(input.limit)
    .offset(input.offset);
}

export async function countRuns(db: Database, filter: RunFilter): Promise<number> {
  const [row] = await db
    .select({ total: sql<number>`count(*)::int` })
    .from(pipelineRuns)
    .where(runConditions(filter));
  return row?.total ?? 0;
}

export async function findRun(
  db: Database,
  organizationId: string,
  pipelineId: string,
  runId: string,
): Promise<PipelineRun | undefined> {
  const [row] = await db
    .select()
    .from(pipelineRuns)
    .where(
      and(
        eq(pipelineRuns.organizationId, organizationId),
        eq(pipelineRuns.pipelineId, pipelineId),
        eq(pipelineRuns.id, runId),
      ),
    )
    .limit(1);
  return row;
}

/** Copies the steps a retry keeps (those that went well) from one run into another. */
export async function copyGoodSteps(
  db: Database,
  input: { organizationId: string; fromRunId: string; toRunId: string },
): Promise<void> {
  await db.execute(sql`
    insert into pipeline_run_steps (organization_id, run_id, node_id, node_type, node_name, position, status,
      attempts, input, output, next, error, started_at, finished_at, duration_ms, resume_at)
    select organization_id, ${input.toRunId}, node_id, node_type, node_name, position, status, attempts,
      input, output, next, error, started_at, finished_at, duration_ms, resume_at
    from pipeline_run_steps
    where organization_id = ${input.organizationId} and run_id = ${input.fromRunId}
      and status in ('succeeded', 'skipped')`);
}

// ---- the event log ------------------------------------------------------------------------------

const LOGGED_EVENT_COLUMNS = sql`
  e.event_id, e.type, e.source, e.occurred_at, e.course_id, e.learner_id, e.value, e.correct, e.points,
  e.score, e.pass_mark, e.percent, e.slide_number, e.slide_title,
  c.external_course_id, c.course_title, l.email as learner_email, l.name as learner_name,
  coalesce(v.name, ch.variable_name) as variable_name,
  q.interaction_id as question_interaction_id, q.question_text,
  ch.chatbot_id, ch.chatbot_name, ch.chat_session_id`;

// A chatbot event has no course (hence the left join of courses). Its agent, conversation and
// variable name are in `extras` as the write path put them; the chatbot variable gives the
// current names (an agent's dropped variables are switched off, not deleted). The log's copy
// counts once the agent itself is deleted, so the event still reads on its own.
// The chatbot look-up is a lateral gated on the missing course, which only chatbot events
// (a conversation's start and end, a capture) lack: course events skip it whole (two plain
// left joins cost them about a millisecond per batch of 100 on PGlite), and never read their
// `extras`, which are whatever their sender put in.
const LOGGED_EVENT_JOINS = sql`
  left join courses c on c.organization_id = e.organization_id and c.id = e.course_id
  join learners l on l.organization_id = e.organization_id and l.id = e.learner_id
  left join variables v on v.organization_id = e.organization_id and v.id = e.variable_id
  left join questions q on q.organization_id = e.organization_id and q.id = e.question_id
  left join lateral (
    select coalesce(cv.name, e.extras ->> 'variable') as variable_name,
      coalesce(cv.chatbot_id::text, e.extras ->> 'chatbotId') as chatbot_id, cb.name as chatbot_name,
      e.extras ->> 'chatSessionId' as chat_session_id
    from (select 1) as one
    left join chatbot_variables cv on cv.organization_id = e.organization_id and cv.id = e.chatbot_variable_id
    left join chatbots cb on cb.organization_id = e.organization_id
      and cb.id = coalesce(cv.chatbot_id, (e.extras ->> 'chatbotId')::uuid)
    where e.course_id is null
  ) ch on true`;

/**
 * Events of the log by their senders' ids, through the keys (which say in
 * which month each one sits): one index look-up per key, whatever the size
 * of the log (a join would let the planner scan a whole month).
 */
export async function selectLoggedEvents(
  db: Database,
  organizationId: string,
  eventIds: readonly string[],
): Promise<LoggedEventRow[]> {
  if (eventIds.length === 0) return [];
  return rows<LoggedEventRow>(
    db,
    sql`
    select ${LOGGED_EVENT_COLUMNS}
    from learning_event_keys k
    cross join lateral (
      select * from learning_events le
      where le.organization_id = k.organization_id and le.occurred_at = k.occurred_at
        and le.event_id = k.event_id
      limit 1
    ) e
    ${LOGGED_EVENT_JOINS}
    where k.organization_id = ${organizationId}
      and k.event_id in (${sql.join(
        eventIds.map((id) => sql`${id}`),
        sql`, `,
      )})
    order by e.occurred_at, e.event_id`,
  );
}

/**
 * What the sources react to: a course's events of some types, or an agent's
 * (types as the log spells them, `chatbot.variable.captured`).
 */
export type EventTrigger =
  | { kind: 'course'; courseId: string; types: readonly string[] }
  | { kind: 'chatbot'; chatbotId: string; types: readonly string[] };

/** The condition an event meets when a trigger reacts to it; null when none can (no types). */
function triggerCondition(all: readonly EventTrigger[]): SQL | null {
  const triggers = all.filter((trigger) => trigger.types.length > 0);
  if (triggers.length === 0) return null;
  return sql.join(
    triggers.map((trigger) => {
      const types = sql.join(
        trigger.types.map((type) => sql`${type}`),
        sql`, `,
      );
      // Chatbot events sit under a null course in the (organization, course, time) index; the
      // agent is read from the log's own copy, which outlives a deleted variable.
      return trigger.kind === 'course'
        ? sql`(e.course_id = ${trigger.courseId} and e.type in (${types}))`
        : sql`(e.course_id is null and e.type in (${types}) and e.extras ->> 'chatbotId' = ${trigger.chatbotId})`;
    }),
    sql` or `,
  );
}

/** The newest events the triggers react to (the test run's choice). */
export async function selectRecentEvents(
  db: Database,
  input: { organizationId: string; triggers: readonly EventTrigger[]; since: Date; limit: number },
): Promise<LoggedEventRow[]> {
  const reacts = triggerCondition(input.triggers);
  if (reacts === null) return [];
  return rows<LoggedEventRow>(
    db,
    sql`
    select ${LOGGED_EVENT_COLUMNS}
    from learning_events e
    ${LOGGED_EVENT_JOINS}
    where e.organization_id = ${input.organizationId} and e.occurred_at >= ${input.since}
      and (${reacts})
    order by e.occurred_at desc, e.event_id desc
    limit ${input.limit}`,
  );
}

/** The events of a period the triggers react to, oldest first, at most `limit`. */
export async function selectEventsInPeriod(
  db: Database,
  input: { organizationId: string; triggers: readonly EventTrigger[]; from: Date; to: Date; limit: number },
): Promise<LoggedEventRow[]> {
  const reacts = triggerCondition(input.triggers);
  if (reacts === null) return [];
  return rows<LoggedEventRow>(
    db,
    sql`
    select ${LOGGED_EVENT_COLUMNS}
    from learning_events e
    ${LOGGED_EVENT_JOINS}
    where e.organization_id = ${input.organizationId}
      and e.occurred_at >= ${input.from} and e.occurred_at < ${input.to}
      and e.source <> 'pipeline'
      and (${reacts})
    order by e.occurred_at, e.event_id
    limit ${input.limit}`,
  );
}

/** One event of the log by its sender's id, or undefined. */
export async function findLoggedEvent(
  db: Database,
  organizationId: string,
  eventId: string,
): Promise<LoggedEventRow | undefined> {
  const [row] = await selectLoggedEvents(db, organizationId, [eventId]);
  return row;
}

// ---- what conditions look up ----------------------------------------------------------------

/** The learner's latest value of a variable (by name, any course), as of a time when given. */
export async function selectLatestValue(
  db: Database,
  input: { organizationId: string; learnerId: string; variableName: string; asOf: Date | null },
): Promise<unknown> {
  const [row] = await rows<{
    value: string | null;
    value_number: number | null;
    value_boolean: boolean | null;
  }>(
    db,
    sql`
    select lv.value, lv.value_number, lv.value_boolean
    from learner_variable_values lv
    join variables v on v.organization_id = lv.organization_id and v.id = lv.variable_id
    where lv.organization_id = ${input.organizationId} and lv.learner_id = ${input.learnerId}
      and v.name = ${input.variableName}
      ${input.asOf ? sql`and lv.recorded_at <= ${input.asOf}` : sql``}
    order by lv.recorded_at desc, lv.id desc
    limit 1`,
  );
  if (!row) return null;
  return row.value_number ?? row.value_boolean ?? row.value;
}

/** How many events of a type the learner has in a course up to a time (that event included). */
export async function countLearnerEvents(
  db: Database,
  input: { organizationId: string; learnerId: string; courseId: string; type: string; asOf: Date },
): Promise<number> {
  const [row] = await rows<{ total: number }>(
    db,
    sql`
    select count(*)::int as total from learning_events
    where organization_id = ${input.organizationId} and learner_id = ${input.learnerId}
      and course_id = ${input.courseId} and type = ${input.type} and occurred_at <= ${input.asOf}`,
  );
  return row?.total ?? 0;
}

/** For a dry run: every value of the variables of these names for these learners up to `to`. */
export async function selectValueHistory(
  db: Database,
  input: { organizationId: string; learnerIds: readonly string[]; names: readonly string[]; to: Date },
): Promise<{ learner_id: string; name: string; recorded_at: Date | string; value: unknown }[]> {
  if (input.learnerIds.length === 0 || input.names.length === 0) return [];
  return rows(
    db,
    sql`
    select lv.learner_id, v.name, lv.recorded_at,
      coalesce(to_jsonb(lv.value_number), to_jsonb(lv.value_boolean), to_jsonb(lv.value)) as value
    from learner_variable_values lv
    join variables v on v.organization_id = lv.organization_id and v.id = lv.variable_id
    where lv.organization_id = ${input.organizationId}
      and lv.learner_id in (${sql.join(
        input.learnerIds.map((id) => sql`${id}::uuid`),
        sql`, `,
      )})
      and v.name in (${sql.join(
        input.names.map((name) => sql`${name}`),
        sql`, `,
      )})
      and lv.recorded_at <= ${input.to}
    order by lv.recorded_at`,
  );
}

/** For a dry run: the times of the learners' events of these types in these courses up to `to`. */
export async function selectEventTimes(
  db: Database,
  input: {
    organizationId: string;
    learnerIds: readonly string[];
    courseIds: readonly string[];
    types: readonly string[];
    to: Date;
  },
): Promise<{ learner_id: string; course_id: string; type: string; occurred_at: Date | string }[]> {
  if (input.learnerIds.length === 0 || input.courseIds.length === 0 || input.types.length === 0) return [];
  return rows(
    db,
    sql`
    select learner_id, course_id, type, occurred_at from learning_events
    where organization_id = ${input.organizationId}
      and learner_id in (${sql.join(
        input.learnerIds.map((id) => sql`${id}::uuid`),
        sql`, `,
      )})
      and course_id in (${sql.join(
        input.courseIds.map((id) => sql`${id}::uuid`),
        sql`, `,
      )})
      and type in (${sql.join(
        input.types.map((type) => sql`${type}`),
        sql`, `,
      )})
      and occurred_at <= ${input.to}
    order by occurred_at`,
  );
}

export async function findLearnerByEmail(
  db: Database,
  organizationId: string,
  email: string,
): Promise<{ id: string; email: string; name: string | null } | undefined> {
  const [row] = await db
    .select({ id: learners.id, email: learners.email, name: learners.name })
    .from(learners)
    .where(
      and(
        eq(learners.organizationId, organizationId),
        sql`lower(${learners.email}) = ${email.toLowerCase()}`,
      ),
    )
    .limit(1);
  return row;
}
