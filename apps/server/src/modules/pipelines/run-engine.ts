import {
  conditionHolds,
  delayMinutes,
  isSourceType,
  nodeName,
  type Condition,
  type ConditionMatch,
  type PipelineGraph,
  type PipelineNode,
  type PipelineNodeType,
  type PipelineStepStatus,
} from '@courselens/contracts';
import { nodeById, successors } from './pipeline-graph';
import { eventFieldValue, type RunSubject } from './run-subject';

/**
 * Walking a pipeline's graph for one run, the same way for a live run, a
 * test run and a dry run over history: from the start nodes, breadth first,
 * each node at most once per run. A node that ran before (a run resumed
 * after a delay, a retry or a crash) is not run again: its recorded step says
 * where the run went from it. What a node does is the caller's `execute`
 * (an action really runs, or only says what it would send).
 */

export type StepRecord = {
  nodeId: string;
  nodeType: PipelineNodeType;
  nodeName: string;
  status: PipelineStepStatus;
  attempts: number;
  input: unknown;
  output: unknown;
  next: string[];
  error: string | null;
  startedAt: Date;
  finishedAt: Date | null;
  durationMs: number | null;
  resumeAt: Date | null;
};

/** What running one node gave. */
export type NodeResult = {
  status: PipelineStepStatus;
  input?: unknown;
  output?: unknown;
  next?: string[];
  error?: string | null;
  resumeAt?: Date | null;
  attempts?: number;
  durationMs?: number | null;
};

export type NodeExecutor = (node: PipelineNode, previous: StepRecord | undefined) => Promise<NodeResult>;

export type WalkResult = {
  steps: StepRecord[];
  /** The earliest time a waiting step goes on, or null when none waits. */
  waitingUntil: Date | null;
  failed: StepRecord | null;
  /** Whether an action node was reached (a run no filter stopped). */
  hasReachedAction: boolean;
};

export async function walkGraph(input: {
  graph: PipelineGraph;
  startIds: readonly string[];
  previous: ReadonlyMap<string, StepRecord>;
  now: () => Date;
  execute: NodeExecutor;
  /** Called as each node finishes (a live run stores the step); false stops the walk (the run was lost). */
  onStep?: (step: StepRecord, node: PipelineNode) => Promise<boolean>;
}): Promise<WalkResult> {
  const steps = new Map(input.previous);
  const queue = [...input.startIds];
  const seen = new Set<string>();
  while (queue.length > 0) {
    const id = queue.shift()!;
    if (seen.has(id)) continue;
    seen.add(id);
    const node = nodeById(input.graph, id);
    if (!node) continue;
    const previous = steps.get(id);
    if (previous && (previous.status === 'succeeded' || previous.status === 'skipped')) {
      queue.push(...previous.next);
      continue;
    }
    if (previous?.status === 'failed') continue;
    if (previous?.status === 'waiting' && previous.resumeAt && previous.resumeAt > input.now()) continue;
    const started = input.now();
    const result = await input.execute(node, previous);
    const finished = input.now();
    const isDone = result.status !== 'waiting' && result.status !== 'running';
    const step: StepRecord = {
      nodeId: node.id,
      nodeType: node.type,
      nodeName: nodeName(node),
      status: result.status,
      attempts: result.attempts ?? previous?.attempts ?? 1,
      input: result.input ?? previous?.input ?? null,
      output: result.output ?? null,
      next: result.next ?? [],
      error: result.error ?? null,
      startedAt: previous?.startedAt ?? started,
      finishedAt: isDone ? finished : null,
      durationMs: result.durationMs ?? Math.max(0, finished.getTime() - started.getTime()),
      resumeAt: result.status === 'waiting' ? (result.resumeAt ?? null) : null,
    };
    steps.set(id, step);
    if (input.onStep && !(await input.onStep(step, node))) break;
    if (step.status === 'succeeded' || step.status === 'skipped') queue.push(...step.next);
  }
  const reached = [...steps.values()].filter((step) => seen.has(step.nodeId));
  const waiting = reached.filter((step) => step.status === 'waiting' && step.resumeAt);
  const waitingUntil = waiting.reduce<Date | null>(
    (earliest, step) => (!earliest || step.resumeAt! < earliest ? step.resumeAt! : earliest),
    null,
  );
  return {
    steps: [...steps.values()],
    waitingUntil,
    failed: reached.find((step) => step.status === 'failed') ?? null,
    hasReachedAction: reached.some((step) => step.nodeType === 'action'),
  };
}

/** A run's status once its walk ends. */
export function runStatusOf(result: WalkResult): 'waiting' | 'failed' | 'succeeded' | 'skipped' {
  if (result.waitingUntil) return 'waiting';
  if (result.failed) return 'failed';
  return result.hasReachedAction ? 'succeeded' : 'skipped';
}

// ---- what the nodes other than actions do -------------------------------------------------

/** Looks up what conditions compare besides the event: the learner's latest value, a count. */
export type ConditionLookups = {
  latestValue: (learnerId: string, variableName: string, asOf: Date | null) => Promise<unknown>;
  countEvents: (learnerId: string, courseId: string, type: string, asOf: Date) => Promise<number>;
};

export type ConditionCheck = {
  field: string;
  op: string;
  value: unknown;
  actual: unknown;
  holds: boolean;
};

/**
 * The conditions of a filter or a branch against the run's subject. `asOf`:
 * a dry run over history reads the learner's latest value as it was then;
 * a live run reads it now. A count always includes the events up to this one.
 */
export async function evaluateConditions(
  data: { match: ConditionMatch; conditions: Condition[] },
  subject: RunSubject,
  lookups: ConditionLookups,
  asOf: Date | null,
): Promise<{ holds: boolean; checks: ConditionCheck[] }> {
  const checks: ConditionCheck[] = [];
  for (const condition of data.conditions) {
    const actual = await conditionValue(condition, subject, lookups, asOf);
    checks.push({
      field:
        condition.field === 'learner.variable'
          ? `learner.variable ${condition.variableName ?? ''}`.trim()
          : condition.field === 'learner.count'
            ? `learner.count ${condition.eventType ?? ''}`.trim()
            : condition.field,
      op: condition.op,
      value: condition.value ?? null,
      actual: actual ?? null,
      holds: conditionHolds(condition, actual),
    });
  }
  const holds =
    data.match === 'any' ? checks.some((check) => check.holds) : checks.every((check) => check.holds);
  return { holds, checks };
}

async function conditionValue(
  condition: Condition,
  subject: RunSubject,
  lookups: ConditionLookups,
  asOf: Date | null,
): Promise<unknown> {
  if (condition.field === 'learner.variable') {
    if (!subject.learnerId || !condition.variableName) return null;
    return lookups.latestValue(subject.learnerId, condition.variableName, asOf);
  }
  if (condition.field === 'learner.count') {
    if (!subject.learnerId || !subject.courseId || !condition.eventType) return 0;
    return lookups.countEvents(subject.learnerId, subject.courseId, condition.eventType, subject.occurredAt);
  }
  return eventFieldValue(condition, subject);
}

/**
 * Runs a node that is not an action. `waits`: a live run waits out a delay
 * (the step waits, the run goes on later); test and dry runs go straight on
 * and say how long a live run would have waited.
 */
export async function runControlNode(
  node: PipelineNode,
  previous: StepRecord | undefined,
  context: {
    graph: PipelineGraph;
    subject: RunSubject;
    lookups: ConditionLookups;
    now: Date;
    waits: boolean;
    asOf: Date | null;
  },
): Promise<NodeResult> {
  const { graph, subject } = context;
  if (isSourceType(node.type)) {
    return { status: 'succeeded', input: subject.event, output: null, next: successors(graph, node.id) };
  }
  switch (node.type) {
    case 'filter': {
      const { holds, checks } = await evaluateConditions(node.data, subject, context.lookups, context.asOf);
      return {
        status: 'succeeded',
        output: {
          holds,
          checks,
          ...(holds ? {} : { note: 'The conditions do not hold: the run stops here' }),
        },
        next: holds ? successors(graph, node.id) : [],
      };
    }
    case 'branch': {
      const { holds, checks } = await evaluateConditions(node.data, subject, context.lookups, context.asOf);
      const side = holds ? 'yes' : 'no';
      return { status: 'succeeded', output: { holds, side, checks }, next: successors(graph, node.id, side) };
    }
    case 'delay': {
      const minutes = delayMinutes(node.data);
      if (!context.waits) {
        return {
          status: 'succeeded',
          output: { waitMinutes: minutes, note: 'A test run does not wait: a live run waits here' },
          next: successors(graph, node.id),
        };
      }
      if (previous?.status === 'waiting' && previous.resumeAt && previous.resumeAt <= context.now) {
        return {
          status: 'succeeded',
          output: { waitMinutes: minutes, waitedUntil: previous.resumeAt.toISOString() },
          next: successors(graph, node.id),
          durationMs: context.now.getTime() - previous.startedAt.getTime(),
        };
      }
      const until = new Date(context.now.getTime() + minutes * 60_000);
      return {
        status: 'waiting',
        output: { waitMinutes: minutes, until: until.toISOString() },
        resumeAt: until,
      };
    }
    case 'map_variables':
      // Mappings hold while the pipeline is on; a run passes through.
      return {
        status: 'succeeded',
        output: { mappings: node.data.sources.length },
        next: successors(graph, node.id),
      };
    default:
      return { status: 'failed', error: `A ${node.type} node cannot run here` };
  }
}
