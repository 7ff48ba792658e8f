import {
  COURSE_TRIGGER_LABELS,
  CONDITION_OPERATOR_LABELS,
  type Condition,
  type CourseTriggerEvent,
  type DelayUnit,
  type PipelineEdge,
  type PipelineNode,
  type ProposedAction,
} from '@courselens/contracts';
import type {
  CatalogAction,
  GeneratedDraft,
  MissingAction,
  OpenSetting,
  PipelineGeneratorCatalog,
} from './types';

// From what a sentence asks (a plan) to the editor's graph: sources on the
// left, then the filter, the wait, a second filter for what must still hold
// after the wait, a branch, and the actions on the right. Every node gets a
// label a person can read in the editor, and positions laid out left to
// right, so the draft opens tidy.

export type PlanSource =
  | { kind: 'courses'; courses: { id: string; title: string }[]; events: CourseTriggerEvent[] }
  | { kind: 'schedule'; cron: string; label: string }
  | { kind: 'manual' };

export type PlanAction =
  | { kind: 'existing'; action: CatalogAction }
  | { kind: 'new'; proposal: ProposedAction; description: string; missing: MissingAction['missing'] };

export type PlanMapping = {
  variableName: string;
  label: string;
  sources: { courseId: string; variableName: string }[];
  destinationVariableId: string | null;
};

export type Plan = {
  name: string;
  description: string | null;
  source: PlanSource | null;
  /** Conditions checked as soon as the run starts. */
  before: Condition[];
  delay: { amount: number; unit: DelayUnit } | null;
  /** Conditions checked after the wait (what the learner did meanwhile). */
  after: Condition[];
  actions: PlanAction[];
  branch: { conditions: Condition[]; yes: PlanAction[]; no: PlanAction[] } | null;
  mapping: PlanMapping | null;
};

export function emptyPlan(name: string): Plan {
  return {
    name,
    description: null,
    source: null,
    before: [],
    delay: null,
    after: [],
    actions: [],
    branch: null,
    mapping: null,
  };
}

const EVENT_PAST: Record<CourseTriggerEvent, string> = {
  'course.started': 'started it',
  'slide.viewed': 'viewed a slide',
  'variable.set': 'had a variable set',
  'question.answered': 'answered a question',
  'course.progressed': 'made progress',
  'course.passed': 'passed it',
  'course.failed': 'failed it',
  'course.exited': 'left it',
  'course.completed': 'completed it',
};

const COUNT_WORDS: Partial<Record<Condition['op'], string>> = {
  eq: 'exactly',
  gte: 'at least',
  gt: 'more than',
  lt: 'fewer than',
  lte: 'at most',
};

const FIELD_NAMES: Record<string, string> = {
  'event.type': 'what happened',
  'event.value': 'the value',
  'event.variable': 'the variable',
  'event.score': 'the score',
  'event.correct': 'the answer',
  'event.slide': 'the slide',
  'event.percent': 'the progress',
  'learner.email': 'their e-mail address',
  'learner.name': 'their name',
  'course.id': 'the course',
};

function valueText(value: Condition['value']): string {
  if (Array.isArray(value)) return value.map((item) => String(item)).join(', ');
  if (typeof value === 'string') return `“${value}”`;
  return String(value);
}

/** `learner.count` of 0 written any of three ways: `eq 0`, `lt 1`, `lte 0`. */
export function isNeverCount(condition: Condition): boolean {
  if (condition.field !== 'learner.count' || typeof condition.value !== 'number') return false;
  return (
    (condition.op === 'eq' && condition.value === 0) ||
    (condition.op === 'lt' && condition.value === 1) ||
    (condition.op === 'lte' && condition.value === 0)
  );
}

/** A condition in words: "failed it at least 2 times", "final_score is less than 50". */
export function describeCondition(condition: Condition): string {
  const op = CONDITION_OPERATOR_LABELS[condition.op];
  if (condition.field === 'learner.count' && condition.eventType) {
    const did = EVENT_PAST[condition.eventType];
    const count = typeof condition.value === 'number' ? condition.value : 0;
    if (isNeverCount(condition)) return `they have not ${did}`;
    const times = count === 1 ? 'time' : 'times';
    return `they ${did} ${COUNT_WORDS[condition.op] ?? op} ${count} ${times}`;
  }
  if (condition.field === 'event.type' && typeof condition.value === 'string') {
    const label = COURSE_TRIGGER_LABELS[condition.value as CourseTriggerEvent];
    return condition.op === 'eq' && label ? label.toLowerCase() : `what happened ${op} ${condition.value}`;
  }
  if (condition.field === 'event.correct')
    return condition.value === false ? 'the answer is wrong' : 'the answer is right';
  if (condition.field === 'learner.variable') {
    return `${condition.variableName ?? 'a variable'} ${op}${condition.value === undefined ? '' : ` ${valueText(condition.value)}`}`;
  }
  const field = FIELD_NAMES[condition.field] ?? condition.field;
  return `${field} ${op}${condition.value === undefined ? '' : ` ${valueText(condition.value)}`}`;
}

function conditionsLabel(conditions: readonly Condition[], prefix: string): string {
  const text = `${prefix} ${conditions.map(describeCondition).join(' and ')}`;
  return text.length <= 100 ? text : `${text.slice(0, 99)}…`;
}

const DELAY_UNIT_WORDS: Record<DelayUnit, [string, string]> = {
  minutes: ['minute', 'minutes'],
  hours: ['hour', 'hours'],
  days: ['day', 'days'],
};

export function delayLabel(delay: { amount: number; unit: DelayUnit }): string {
  const [one, many] = DELAY_UNIT_WORDS[delay.unit];
  return `Wait ${delay.amount} ${delay.amount === 1 ? one : many}`;
}

function clip(text: string, max = 100): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

type Built = { draft: GeneratedDraft; missingActions: MissingAction[]; openSettings: OpenSetting[] };

/** The graph of a plan, laid out left to right, with the new actions it needs and the settings left open. */
export function buildDraft(plan: Plan, catalog: PipelineGeneratorCatalog): Built {
  const nodes: PipelineNode[] = [];
  const proposals = new Map<string, PlanAction & { kind: 'new' }>();
  const edges: PipelineEdge[] = [];
  const counters = new Map<string, number>();
  const nextId = (prefix: string) => {
    const count = (counters.get(prefix) ?? 0) + 1;
    counters.set(prefix, count);
    return count === 1 && prefix !== 'course' && prefix !== 'action' ? prefix : `${prefix}-${count}`;
  };
  const connect = (sources: readonly string[], target: string, sourceHandle?: 'yes' | 'no') => {
    for (const source of sources) {
      edges.push({
        id: `${source}->${target}${sourceHandle ? `:${sourceHandle}` : ''}`,
        source,
        target,
        ...(sourceHandle ? { sourceHandle } : {}),
      });
    }
  };
  const openSettings: OpenSetting[] = [];

  if (plan.mapping) {
    const id = nextId('map');
    const data: Record<string, unknown> = { label: clip(plan.mapping.label), sources: plan.mapping.sources };
    if (plan.mapping.destinationVariableId) data.destinationVariableId = plan.mapping.destinationVariableId;
    else {
      const sameName = catalog.variables.filter((variable) => variable.name === plan.mapping?.variableName);
      const others = catalog.variables.filter((variable) => variable.name !== plan.mapping?.variableName);
      openSettings.push({
        nodeId: id,
        field: 'destinationVariableId',
        message: `Choose the variable the values of ${plan.mapping.variableName} go to`,
        options: [...sameName, ...others].slice(0, 200).map((variable) => ({
          id: variable.id,
          label: `${variable.title?.trim() || variable.name} (${variable.courseTitle})`,
        })),
      });
    }
    nodes.push({ id, type: 'map_variables', data } as unknown as PipelineNode);
  }

  let tails: string[] = [];
  const source = plan.source;
  if (source?.kind === 'courses') {
    for (const course of source.courses) {
      const id = nextId('course');
      nodes.push({
        id,
        type: 'course',
        data: { label: clip(course.title), courseId: course.id, events: source.events },
      });
      tails.push(id);
    }
  } else if (source?.kind === 'schedule') {
    const id = nextId('schedule');
    nodes.push({ id, type: 'schedule', data: { label: clip(source.label), cron: source.cron } });
    tails.push(id);
  } else if (source?.kind === 'manual') {
    const id = nextId('manual');
    nodes.push({ id, type: 'manual', data: { label: 'Run by hand' } });
    tails.push(id);
  }

  const step = (node: PipelineNode) => {
    nodes.push(node);
    if (tails.length > 0) connect(tails, node.id);
    tails = [node.id];
  };
  if (plan.before.length > 0) {
    const id = nextId('filter');
    step({
      id,
      type: 'filter',
      data: { label: conditionsLabel(plan.before, 'Only if'), match: 'all', conditions: plan.before },
    });
  }
  if (plan.delay) {
    const id = nextId('delay');
    step({ id, type: 'delay', data: { label: delayLabel(plan.delay), ...plan.delay } });
  }
  if (plan.after.length > 0) {
    const id = nextId('filter');
    step({
      id,
      type: 'filter',
      data: { label: conditionsLabel(plan.after, 'Then only if'), match: 'all', conditions: plan.after },
    });
  }

  const addAction = (action: PlanAction, from: readonly string[], handle?: 'yes' | 'no') => {
    const id = nextId('action');
    if (action.kind === 'existing') {
      nodes.push({
        id,
        type: 'action',
        data: { label: clip(action.action.name), actionId: action.action.id },
      });
    } else {
      nodes.push({
        id,
        type: 'action',
        data: { label: clip(action.proposal.name), proposedAction: action.proposal },
      } as unknown as PipelineNode);
      proposals.set(id, action);
    }
    if (from.length > 0) connect(from, id, handle);
  };
  for (const action of plan.actions) addAction(action, tails);
  if (plan.branch) {
    const id = nextId('branch');
    step({
      id,
      type: 'branch',
      data: {
        label: conditionsLabel(plan.branch.conditions, 'If'),
        match: 'all',
        conditions: plan.branch.conditions,
      },
    });
    for (const action of plan.branch.yes) addAction(action, [id], 'yes');
    for (const action of plan.branch.no) addAction(action, [id], 'no');
  }

  const missingActions: MissingAction[] = [...proposals].map(([nodeId, action]) => ({
    nodeId,
    type: action.proposal.type,
    description: action.description,
    name: action.proposal.name,
    config: action.proposal.config,
    missing: action.missing,
  }));
  return {
    draft: {
      name: clip(plan.name, 200),
      description: plan.description ? clip(plan.description, 2000) : null,
      nodes: layOut(nodes, edges),
      edges,
    },
    missingActions,
    openSettings,
  };
}

const COLUMN_WIDTH = 280;
const ROW_HEIGHT = 140;

/** Positions left to right: a node's column is its longest path from a source; rows are centred per column. */
export function layOut<T extends { id: string; position?: { x: number; y: number } | undefined }>(
  nodes: readonly T[],
  edges: readonly { source: string; target: string }[],
): T[] {
  const depth = new Map<string, number>(nodes.map((node) => [node.id, 0]));
  // Longest path by relaxation; a graph with a loop stops after as many rounds as there are nodes.
  for (let round = 0; round < nodes.length; round += 1) {
    let changed = false;
    for (const edge of edges) {
      const from = depth.get(edge.source);
      const to = depth.get(edge.target);
      if (from === undefined || to === undefined || to >= from + 1) continue;
      depth.set(edge.target, from + 1);
      changed = true;
    }
    if (!changed) break;
  }
  const columns = new Map<number, T[]>();
  for (const node of nodes) {
    const column = depth.get(node.id) ?? 0;
    columns.set(column, [...(columns.get(column) ?? []), node]);
  }
  const tallest = Math.max(1, ...[...columns.values()].map((column) => column.length));
  return nodes.map((node) => {
    const column = depth.get(node.id) ?? 0;
    const siblings = columns.get(column) ?? [node];
    const row = siblings.indexOf(node);
    const offset = ((tallest - siblings.length) * ROW_HEIGHT) / 2;
    return { ...node, position: { x: column * COLUMN_WIDTH, y: offset + row * ROW_HEIGHT } };
  });
}
