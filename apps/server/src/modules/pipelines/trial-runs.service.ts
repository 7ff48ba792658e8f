import { randomUUID } from 'node:crypto';
import {
  COURSE_TRIGGER_LABELS,
  MAX_DRY_RUN_DAYS,
  MAX_DRY_RUN_EVENTS,
  PIPELINE_MESSAGES,
  type CourseTriggerEvent,
  type DryRunResponse,
  type PipelineEdgeInput,
  type PipelineGraph,
  type PipelineNode,
  type TestRunResponse,
  type testEventsResponse,
} from '@courselens/contracts';
import type { z } from 'zod';
import type { Database } from '../../db/client';
import { AppError } from '../../errors';
import { findActionRow } from '../actions/actions.queries';
import type { ActionsRuntime } from '../actions/runtime';
import { readStoredConfig } from '../actions/stored-config';
import { findOrganizationName } from '../organizations/organizations.queries';
import { previewActionStep, runTestAction, type ActionStepContext } from './action-step';
import { chatbotLogTypes, readGraph, sourcesForEvent, sourcesOf } from './pipeline-graph';
import { findPipelineRow } from './pipelines.queries';
import { runControlNode, runStatusOf, walkGraph, type ConditionLookups, type StepRecord } from './run-engine';
import { liveLookups } from './run-executor';
import { subjectOfLoggedEvent, type LoggedEventRow } from './run-subject';
import {
  findLoggedEvent,
  selectEventTimes,
  selectEventsInPeriod,
  selectRecentEvents,
  selectValueHistory,
  type EventTrigger,
} from './runs.queries';

/** How far back the test run's list of events looks, and how many it offers. */
const TEST_EVENT_DAYS = 90;
const TEST_EVENT_LIMIT = 20;

type GraphChoice = { nodes?: PipelineNode[] | undefined; edges?: PipelineEdgeInput[] | undefined };

/** The graph sent (an unsaved draft in the editor) or, without one, the saved graph. */
async function chosenGraph(
  db: Database,
  input: { organizationId: string; pipelineId: string } & GraphChoice,
): Promise<{ graph: PipelineGraph; version: number }> {
  const pipeline = await findPipelineRow(db, input.organizationId, input.pipelineId);
  if (!pipeline) throw new AppError('NOT_FOUND', PIPELINE_MESSAGES.notFound);
  if (input.nodes !== undefined && input.edges !== undefined) {
    return { graph: readGraph({ nodes: input.nodes, edges: input.edges }).graph, version: pipeline.version };
  }
  return { graph: readGraph(pipeline).graph, version: pipeline.version };
}

/**
 * What a graph's course and chatbot sources react to: (course, event types)
 * and (agent, log types) pairs. A chatbot node's triggers that write no
 * event yet are left out.
 */
export function eventTriggers(graph: PipelineGraph): EventTrigger[] {
  const byCourse = new Map<string, Set<string>>();
  const byChatbot = new Map<string, Set<string>>();
  for (const node of sourcesOf(graph)) {
    if (node.type === 'course') {
      const types = byCourse.get(node.data.courseId) ?? new Set<string>();
      for (const type of node.data.events) types.add(type);
      byCourse.set(node.data.courseId, types);
    } else if (node.type === 'chatbot') {
      const types = byChatbot.get(node.data.chatbotId) ?? new Set<string>();
      for (const type of chatbotLogTypes(node.data.events)) types.add(type);
      byChatbot.set(node.data.chatbotId, types);
    }
  }
  return [
    ...[...byCourse].map(([courseId, types]): EventTrigger => ({
      kind: 'course',
      courseId,
      types: [...types],
    })),
    ...[...byChatbot]
      .filter(([, types]) => types.size > 0)
      .map(([chatbotId, types]): EventTrigger => ({ kind: 'chatbot', chatbotId, types: [...types] })),
  ];
}

const startsOf = (graph: PipelineGraph, row: LoggedEventRow) =>
  sourcesForEvent(graph, { type: row.type, courseId: row.course_id, chatbotId: row.chatbot_id });

function describeEvent(row: LoggedEventRow): string {
  const label = COURSE_TRIGGER_LABELS[row.type as CourseTriggerEvent] ?? row.type;
  const value =
    typeof row.value === 'string'
      ? row.value
      : typeof row.value === 'number' || typeof row.value === 'boolean'
        ? `${row.value}`
        : row.value === null || row.value === undefined
          ? null
          : JSON.stringify(row.value);
  switch (row.type) {
    case 'variable.set':
    case 'chatbot.variable.captured':
      return `${row.variable_name ?? 'A variable'} = ${value ?? '(empty)'}`;
    case 'question.answered':
      return `${label}${row.question_text ? `: ${row.question_text}` : ''}${row.correct === null ? '' : row.correct ? ' (correct)' : ' (wrong)'}`;
    case 'course.passed':
    case 'course.failed':
      return row.score === null ? label : `${label} with ${row.score}`;
    case 'course.progressed':
      return row.percent === null ? label : `${label}: ${row.percent} %`;
    case 'slide.viewed':
      return row.slide_number === null
        ? label
        : `${label}: slide ${row.slide_number}${row.slide_title ? ` (${row.slide_title})` : ''}`;
    default:
      return label;
  }
}

/** Recent events of the log the pipeline's course and chatbot sources react to, newest first. */
export async function listTestEvents(
  db: Database,
  input: { organizationId: string; pipelineId: string; now?: Date },
): Promise<z.infer<typeof testEventsResponse>> {
  const { graph } = await chosenGraph(db, input);
  const now = input.now ?? new Date();
  const rows = await selectRecentEvents(db, {
    organizationId: input.organizationId,
    triggers: eventTriggers(graph),
    since: new Date(now.getTime() - TEST_EVENT_DAYS * 24 * 3600 * 1000),
    limit: TEST_EVENT_LIMIT,
  });
  return {
    items: rows.map((row) => ({
      eventId: row.event_id,
      type: row.type,
      occurredAt: (row.occurred_at instanceof Date
        ? row.occurred_at
        : new Date(row.occurred_at)
      ).toISOString(),
      // The list reads "type · where · who": for a chatbot event, where is the agent.
      courseTitle: row.course_title ?? row.chatbot_name,
      learnerEmail: row.learner_email,
      summary: describeEvent(row),
    })),
  };
}

function stepView(step: StepRecord) {
  return {
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
  };
}

/**
 * Runs the pipeline (saved, or the draft sent) on one real event of the log,
 * now, without storing the run. Dry unless `execute`: no action runs, each
 * action step shows the request it would have sent. Delays do not wait.
 * The conditions see the learner as they were when the event happened.
 */
export async function testRun(
  db: Database,
  runtime: ActionsRuntime,
  input: {
    organizationId: string;
    pipelineId: string;
    eventId: string;
    execute: boolean;
    now?: () => Date;
  } & GraphChoice,
): Promise<TestRunResponse> {
  const { organizationId } = input;
  const now = input.now ?? (() => new Date());
  const { graph, version } = await chosenGraph(db, input);
  const row = await findLoggedEvent(db, organizationId, input.eventId);
  if (!row) throw new AppError('VALIDATION_ERROR', PIPELINE_MESSAGES.eventNotFound);
  const subject = subjectOfLoggedEvent(row);
  let starts = startsOf(graph, row);
  if (starts.length === 0) {
    starts = graph.nodes
      .filter((node) => node.type === 'manual' || node.type === 'schedule')
      .map((node) => node.id);
  }
  if (starts.length === 0) throw new AppError('VALIDATION_ERROR', PIPELINE_MESSAGES.eventStartsNothing);
  const context: ActionStepContext = {
    db,
    runtime,
    organizationId,
    organizationName: await findOrganizationName(db, organizationId),
    now,
  };
  const lookups = liveLookups(db, organizationId);
  const startedAt = now();
  const result = await walkGraph({
    graph,
    startIds: starts,
    previous: new Map(),
    now,
    execute: (node, previous) =>
      node.type === 'action'
        ? input.execute
          ? runTestAction(context, node, subject.event)
          : previewActionStep(context, node, subject.event)
        : runControlNode(node, previous, {
            graph,
            subject,
            lookups,
            now: now(),
            waits: false,
            asOf: subject.occurredAt,
          }),
  });
  const finishedAt = now();
  return {
    id: randomUUID(),
    pipelineId: input.pipelineId,
    version,
    status: runStatusOf(result),
    trigger: 'test',
    eventId: row.event_id,
    eventType: row.type,
    learnerEmail: row.learner_email,
    startedAt: startedAt.toISOString(),
    finishedAt: finishedAt.toISOString(),
    durationMs: finishedAt.getTime() - startedAt.getTime(),
    error: result.failed ? `${result.failed.nodeName}: ${result.failed.error ?? 'failed'}` : null,
    steps: result.steps.map(stepView),
    dry: !input.execute,
  };
}

// ---- dry run over a period ----------------------------------------------------------------------

const DAY_MS = 24 * 3600 * 1000;

function periodOf(from: string, to: string, now: Date): { start: Date; end: Date } {
  const start = new Date(`${from}T00:00:00.000Z`);
  const end = new Date(new Date(`${to}T00:00:00.000Z`).getTime() + DAY_MS);
  const today = new Date(`${now.toISOString().slice(0, 10)}T00:00:00.000Z`);
  const days = (end.getTime() - start.getTime()) / DAY_MS;
  const isValid =
    !Number.isNaN(start.getTime()) &&
    !Number.isNaN(end.getTime()) &&
    days >= 1 &&
    days <= MAX_DRY_RUN_DAYS &&
    end.getTime() <= today.getTime() + DAY_MS;
  if (!isValid) throw new AppError('VALIDATION_ERROR', PIPELINE_MESSAGES.dryRunPeriod);
  return { start, end };
}

/** What the filters and branches look up, to read it once for the whole period. */
function lookupNeeds(graph: PipelineGraph): { variableNames: string[]; eventTypes: string[] } {
  const variableNames = new Set<string>();
  const eventTypes = new Set<string>();
  for (const node of graph.nodes) {
    if (node.type !== 'filter' && node.type !== 'branch') continue;
    for (const condition of node.data.conditions) {
      if (condition.field === 'learner.variable' && condition.variableName)
        variableNames.add(condition.variableName);
      if (condition.field === 'learner.count' && condition.eventType) eventTypes.add(condition.eventType);
    }
  }
  return { variableNames: [...variableNames], eventTypes: [...eventTypes] };
}

/** Index of the first entry after `at` in a list sorted by time. */
function upperBound(times: readonly number[], at: number): number {
  let low = 0;
  let high = times.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (times[middle]! <= at) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** Look-ups answered from history read once (values and event times up to the period's end). */
async function historyLookups(
  db: Database,
  input: { organizationId: string; graph: PipelineGraph; rows: readonly LoggedEventRow[]; to: Date },
): Promise<ConditionLookups> {
  const needs = lookupNeeds(input.graph);
  const learnerIds = [...new Set(input.rows.map((row) => row.learner_id))];
  // Chatbot events have no course, and counts of a learner's events are per course.
  const courseIds = [
    ...new Set(input.rows.flatMap((row) => (row.course_id === null ? [] : [row.course_id]))),
  ];
  const values = new Map<string, { times: number[]; values: unknown[] }>();
  for (const entry of await selectValueHistory(db, {
    organizationId: input.organizationId,
    learnerIds,
    names: needs.variableNames,
    to: input.to,
  })) {
    const key = `${entry.learner_id}\u0000${entry.name}`;
    const list = values.get(key) ?? { times: [], values: [] };
    list.times.push(new Date(entry.recorded_at).getTime());
    list.values.push(entry.value);
    values.set(key, list);
  }
  const times = new Map<string, number[]>();
  for (const entry of await selectEventTimes(db, {
    organizationId: input.organizationId,
    learnerIds,
    courseIds,
    types: needs.eventTypes,
    to: input.to,
  })) {
    const key = `${entry.learner_id}\u0000${entry.course_id}\u0000${entry.type}`;
    const list = times.get(key) ?? [];
    list.push(new Date(entry.occurred_at).getTime());
    times.set(key, list);
  }
  return {
    latestValue: async (learnerId, variableName, asOf) => {
      const list = values.get(`${learnerId}\u0000${variableName}`);
      if (!list) return null;
      const index = upperBound(list.times, (asOf ?? input.to).getTime()) - 1;
      return index >= 0 ? list.values[index] : null;
    },
    countEvents: async (learnerId, courseId, type, asOf) =>
      upperBound(times.get(`${learnerId}\u0000${courseId}\u0000${type}`) ?? [], asOf.getTime()),
  };
}

type ActionInfo = { actionId: string; actionName: string; actionType: string; detail: string | null };

const plural = (count: number, one: string, many = `${one}s`) => `${count} ${count === 1 ? one : many}`;

/** "would e-mail 212 learners", "would set at_risk on 37 learners". */
export function dryRunSummary(info: ActionInfo, runs: number, learners: number): string {
  switch (info.actionType) {
    case 'email':
      if (info.detail === 'learner') return `would e-mail ${plural(learners, 'learner')}`;
      return `would send ${plural(runs, 'e-mail')} (about ${plural(learners, 'learner')})`;
    case 'set_variable':
      return `would set ${info.detail ?? 'a variable'} on ${plural(learners, 'learner')}`;
    case 'webhook':
      return `would call the webhook ${plural(runs, 'time')} (for ${plural(learners, 'learner')})`;
    case 'broadcast':
      return `would ${info.detail === 'clear' ? 'clear' : 'set'} a course broadcast ${plural(runs, 'time')}`;
    case 'notify_team':
      return `would notify the team ${plural(runs, 'time')}`;
    default:
      return `would run ${plural(runs, 'time')} (for ${plural(learners, 'learner')})`;
  }
}

async function actionInfoOf(
  db: Database,
  organizationId: string,
  node: Extract<PipelineNode, { type: 'action' }>,
): Promise<ActionInfo | null> {
  const action = await findActionRow(db, organizationId, node.data.actionId);
  if (!action) return null;
  let detail: string | null = null;
  try {
    const config = readStoredConfig(action.actionType, action.config);
    if (config.type === 'email') detail = config.to.kind;
    if (config.type === 'set_variable') detail = config.variableName;
    if (config.type === 'broadcast') detail = config.mode;
  } catch {
    detail = null;
  }
  return { actionId: action.id, actionName: action.name, actionType: action.actionType, detail };
}

/**
 * The pipeline (saved or sent) over a past period of the log, with no side
 * effect: which action nodes each event would have reached, for how many
 * learners. At most `MAX_DRY_RUN_EVENTS` events are read, oldest first
 * (`truncated` says when the period held more). Events written by pipelines
 * are left out, as live runs leave them out.
 */
export async function dryRun(
  db: Database,
  input: {
    organizationId: string;
    pipelineId: string;
    from: string;
    to: string;
    page: number;
    pageSize: number;
    now?: Date;
    /** Events read at most (tests lower it). */
    maxEvents?: number;
  } & GraphChoice,
): Promise<DryRunResponse> {
  const maxEvents = input.maxEvents ?? MAX_DRY_RUN_EVENTS;
  const { organizationId } = input;
  const { start, end } = periodOf(input.from, input.to, input.now ?? new Date());
  const { graph } = await chosenGraph(db, input);
  const found = await selectEventsInPeriod(db, {
    organizationId,
    triggers: eventTriggers(graph),
    from: start,
    to: end,
    limit: maxEvents + 1,
  });
  const truncated = found.length > maxEvents;
  const rows = found.slice(0, maxEvents);
  const lookups = await historyLookups(db, { organizationId, graph, rows, to: end });
  const infos = new Map<string, ActionInfo | null>();
  for (const node of graph.nodes) {
    if (node.type === 'action') infos.set(node.id, await actionInfoOf(db, organizationId, node));
  }
  const perAction = new Map<string, { runs: number; learners: Set<string> }>();
  const perLearner = new Map<
    string,
    { email: string; name: string | null; runs: number; actions: Set<string> }
  >();
  let runs = 0;
  let stopped = 0;
  const clock = () => new Date();
  for (const row of rows) {
    const starts = startsOf(graph, row);
    if (starts.length === 0) continue;
    runs += 1;
    const subject = subjectOfLoggedEvent(row);
    const result = await walkGraph({
      graph,
      startIds: starts,
      previous: new Map(),
      now: clock,
      execute: async (node, previous) =>
        node.type === 'action'
          ? { status: 'skipped', output: null }
          : runControlNode(node, previous, {
              graph,
              subject,
              lookups,
              now: subject.occurredAt,
              waits: false,
              asOf: subject.occurredAt,
            }),
    });
    const reached = result.steps.filter((step) => step.nodeType === 'action');
    if (reached.length === 0) {
      stopped += 1;
      continue;
    }
    const learner = perLearner.get(row.learner_id) ?? {
      email: row.learner_email,
      name: row.learner_name,
      runs: 0,
      actions: new Set<string>(),
    };
    learner.runs += 1;
    for (const step of reached) {
      const tally = perAction.get(step.nodeId) ?? { runs: 0, learners: new Set<string>() };
      tally.runs += 1;
      tally.learners.add(row.learner_id);
      perAction.set(step.nodeId, tally);
      learner.actions.add(infos.get(step.nodeId)?.actionName ?? step.nodeName);
    }
    perLearner.set(row.learner_id, learner);
  }
  const actions = graph.nodes.flatMap((node) => {
    if (node.type !== 'action') return [];
    const info = infos.get(node.id) ?? {
      actionId: node.data.actionId,
      actionName: node.data.label ?? 'A deleted action',
      actionType: 'unknown',
      detail: null,
    };
    const tally = perAction.get(node.id) ?? { runs: 0, learners: new Set<string>() };
    return [
      {
        nodeId: node.id,
        actionId: info.actionId,
        actionName: info.actionName,
        actionType: info.actionType,
        runs: tally.runs,
        learners: tally.learners.size,
        summary: dryRunSummary(info, tally.runs, tally.learners.size),
      },
    ];
  });
  const learners = [...perLearner.values()].sort((a, b) => b.runs - a.runs || a.email.localeCompare(b.email));
  const offset = (input.page - 1) * input.pageSize;
  return {
    from: input.from,
    to: input.to,
    events: rows.length,
    runs,
    stopped,
    actions,
    learners: {
      items: learners.slice(offset, offset + input.pageSize).map((learner) => ({
        email: learner.email,
        name: learner.name,
        runs: learner.runs,
        actions: [...learner.actions],
      })),
      total: learners.length,
      page: input.page,
      pageSize: input.pageSize,
    },
    truncated,
  };
}
