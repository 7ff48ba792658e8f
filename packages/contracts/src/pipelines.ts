import { z } from 'zod';
import { ACTION_TYPES, isTimeZone } from './actions';
import { uuidSchema } from './ids';
import { INGESTION_EVENT_TYPES, type IngestionEventType } from './ingestion';
import { listQuerySchema, paginatedSchema } from './list';

/**
 * Pipelines: a graph of nodes stored as `pipelines.nodes` / `edges` (the
 * @xyflow/react shape: `{ id, type, position, data }` and
 * `{ id, source, target, sourceHandle }`). Sources start a run (course
 * events, chatbot events, a schedule, a button), steps decide and wait
 * (filter, branch, delay) or configure (map variables), and action nodes
 * run the organization's actions. The graph's rules (one source at least,
 * every node connected, no cycle) are checked here, so the editor shows the
 * same problems the server refuses an activation with.
 */

// ---- node types ----------------------------------------------------------------------

export const PIPELINE_SOURCE_TYPES = ['course', 'chatbot', 'schedule', 'manual'] as const;
export const PIPELINE_STEP_TYPES = ['filter', 'branch', 'delay', 'map_variables'] as const;
export const PIPELINE_END_TYPES = ['action'] as const;
export const PIPELINE_NODE_TYPES = [
  ...PIPELINE_SOURCE_TYPES,
  ...PIPELINE_STEP_TYPES,
  ...PIPELINE_END_TYPES,
] as const;
export type PipelineSourceType = (typeof PIPELINE_SOURCE_TYPES)[number];
export type PipelineStepType = (typeof PIPELINE_STEP_TYPES)[number];
export type PipelineNodeType = (typeof PIPELINE_NODE_TYPES)[number];

export const PIPELINE_NODE_LABELS: Record<PipelineNodeType, string> = {
  course: 'Course events',
  chatbot: 'Chatbot events',
  schedule: 'Schedule',
  manual: 'Run by hand',
  filter: 'Filter',
  branch: 'Branch',
  delay: 'Delay',
  map_variables: 'Map variables',
  action: 'Action',
};

export const PIPELINE_NODE_DESCRIPTIONS: Record<PipelineNodeType, string> = {
  course: 'Starts a run when a learner does something in a course.',
  chatbot: 'Starts a run when a chatbot conversation starts, ends or captures a value.',
  schedule: 'Starts a run on a schedule, in your organization’s time zone.',
  manual: 'Starts a run when someone presses Run.',
  filter: 'Goes on only when the conditions hold.',
  branch: 'Goes one way when the conditions hold, the other way when they do not.',
  delay: 'Waits before going on.',
  map_variables: 'Reports variables of several courses as one variable.',
  action: 'Runs one of your actions.',
};

export function isSourceType(type: string): type is PipelineSourceType {
  return (PIPELINE_SOURCE_TYPES as readonly string[]).includes(type);
}

/** What a course node can react to: the events courses send. */
export const COURSE_TRIGGER_EVENTS = INGESTION_EVENT_TYPES;
export type CourseTriggerEvent = IngestionEventType;

export const COURSE_TRIGGER_LABELS: Record<CourseTriggerEvent, string> = {
  'course.started': 'Started the course',
  'slide.viewed': 'Viewed a slide',
  'variable.set': 'A variable was set',
  'question.answered': 'Answered a question',
  'course.progressed': 'Made progress',
  'course.passed': 'Passed',
  'course.failed': 'Failed',
  'course.exited': 'Left without completing',
  'course.completed': 'Completed the course',
};

/** What a chatbot node can react to. */
export const CHATBOT_TRIGGER_EVENTS = ['chat.started', 'variable.captured', 'chat.ended'] as const;
export type ChatbotTriggerEvent = (typeof CHATBOT_TRIGGER_EVENTS)[number];

/**
 * Short names an API caller may use for course events ("completed",
 * "completion", "pass"): each means the event type it names.
 */
const COURSE_EVENT_ALIASES: Record<string, CourseTriggerEvent> = {
  start: 'course.started',
  started: 'course.started',
  slide: 'slide.viewed',
  slide_viewed: 'slide.viewed',
  variable: 'variable.set',
  variable_set: 'variable.set',
  answer: 'question.answered',
  answered: 'question.answered',
  question_answered: 'question.answered',
  progress: 'course.progressed',
  progressed: 'course.progressed',
  pass: 'course.passed',
  passed: 'course.passed',
  fail: 'course.failed',
  failed: 'course.failed',
  exit: 'course.exited',
  exited: 'course.exited',
  complete: 'course.completed',
  completed: 'course.completed',
  completion: 'course.completed',
  on_completion: 'course.completed',
};

/** A course event type from its full name or a short one, or null. */
export function courseEventType(name: string): CourseTriggerEvent | null {
  const key = name.trim().toLowerCase();
  if ((COURSE_TRIGGER_EVENTS as readonly string[]).includes(key)) return key as CourseTriggerEvent;
  return COURSE_EVENT_ALIASES[key.replace(/^course[._]/, '').replace(/[\s.-]+/g, '_')] ?? null;
}

// ---- conditions (filter and branch) -------------------------------------------------

/** What a condition can look at, with what it holds (the editor lists them). */
export const CONDITION_FIELDS = {
  'event.type': 'What happened',
  'event.value': 'The value the event carries (a variable’s value or an answer)',
  'event.variable': 'The name of the variable the event set',
  'event.score': 'The score of a pass or a fail',
  'event.correct': 'Whether an answer was correct',
  'event.slide': 'The slide number',
  'event.percent': 'The progress, in percent',
  'learner.email': 'The learner’s e-mail address',
  'learner.name': 'The learner’s name',
  'learner.variable': 'The learner’s latest value of a variable',
  'learner.count': 'How many times the learner did something in this course, this time included',
  'course.id': 'The course',
} as const;
export type ConditionField = keyof typeof CONDITION_FIELDS;
export const CONDITION_FIELD_NAMES = Object.keys(CONDITION_FIELDS) as [ConditionField, ...ConditionField[]];

export const CONDITION_OPERATORS = [
  'eq',
  'neq',
  'gt',
  'gte',
  'lt',
  'lte',
  'contains',
  'not_contains',
  'ends_with',
  'in',
  'exists',
  'not_exists',
] as const;
export type ConditionOperator = (typeof CONDITION_OPERATORS)[number];

export const CONDITION_OPERATOR_LABELS: Record<ConditionOperator, string> = {
  eq: 'is',
  neq: 'is not',
  gt: 'is more than',
  gte: 'is at least',
  lt: 'is less than',
  lte: 'is at most',
  contains: 'contains',
  not_contains: 'does not contain',
  ends_with: 'ends with',
  in: 'is one of',
  exists: 'is set',
  not_exists: 'is not set',
};

/** Operators that compare with no value. */
export const VALUELESS_OPERATORS: readonly ConditionOperator[] = ['exists', 'not_exists'];

export const MAX_CONDITIONS = 20;
export const MAX_IN_VALUES = 100;

const conditionScalar = z.union([z.string().max(1000), z.number(), z.boolean()]);

export const conditionSchema = z
  .object({
    field: z.enum(CONDITION_FIELD_NAMES, {
      error: `field must be one of ${CONDITION_FIELD_NAMES.join(', ')}`,
    }),
    op: z.enum(CONDITION_OPERATORS, { error: `op must be one of ${CONDITION_OPERATORS.join(', ')}` }),
    value: z.union([conditionScalar, z.array(conditionScalar).max(MAX_IN_VALUES)]).optional(),
    /** `learner.variable`: which variable. */
    variableName: z.string().trim().min(1).max(255).optional(),
    /** `learner.count`: which event is counted. */
    eventType: z.enum(COURSE_TRIGGER_EVENTS).optional(),
  })
  .superRefine((condition, context) => {
    const problem = conditionProblem(condition);
    if (problem) context.addIssue({ code: 'custom', message: problem });
  });
export type Condition = z.infer<typeof conditionSchema>;

export const CONDITION_MESSAGES = {
  valueRequired: (field: string) => `Give a value to compare ${field} with`,
  listRequired: 'Give a list of values for "is one of"',
  variableRequired: 'Choose the variable whose latest value is compared',
  eventTypeRequired: 'Choose what is counted',
  numberRequired: (field: string) => `${field} is compared with a number`,
} as const;

function conditionProblem(condition: {
  field: ConditionField;
  op: ConditionOperator;
  value?: unknown;
  variableName?: string | undefined;
  eventType?: string | undefined;
}): string | null {
  if (condition.field === 'learner.variable' && !condition.variableName)
    return CONDITION_MESSAGES.variableRequired;
  if (condition.field === 'learner.count' && !condition.eventType)
    return CONDITION_MESSAGES.eventTypeRequired;
  if (VALUELESS_OPERATORS.includes(condition.op)) return null;
  if (condition.value === undefined) return CONDITION_MESSAGES.valueRequired(condition.field);
  if (condition.op === 'in' && !Array.isArray(condition.value)) return CONDITION_MESSAGES.listRequired;
  if (condition.op !== 'in' && Array.isArray(condition.value))
    return CONDITION_MESSAGES.valueRequired(condition.field);
  if (condition.field === 'learner.count' && typeof condition.value !== 'number') {
    return CONDITION_MESSAGES.numberRequired(condition.field);
  }
  return null;
}

export const CONDITION_MATCH_MODES = ['all', 'any'] as const;
export type ConditionMatch = (typeof CONDITION_MATCH_MODES)[number];

const conditionsData = z.object({
  label: z.string().trim().max(100).optional(),
  match: z.enum(CONDITION_MATCH_MODES).default('all'),
  conditions: z
    .array(conditionSchema)
    .min(1, 'Add at least one condition')
    .max(MAX_CONDITIONS, `A node has at most ${MAX_CONDITIONS} conditions`),
});

/**
 * Compares a looked-up value with a condition (the server looks the value
 * up: the event's field, the learner's latest variable, a count). Numbers
 * compare as numbers when both sides are numeric; text compares without
 * regard to case.
 */
export function conditionHolds(condition: Condition, actual: unknown): boolean {
  const present = actual !== null && actual !== undefined && actual !== '';
  if (condition.op === 'exists') return present;
  if (condition.op === 'not_exists') return !present;
  if (!present) return condition.op === 'neq' || condition.op === 'not_contains';
  const expected = condition.value;
  const asNumber = (value: unknown) =>
    typeof value === 'number'
      ? value
      : typeof value === 'string' && value.trim() !== ''
        ? Number(value)
        : NaN;
  const asText = (value: unknown) => String(value).toLowerCase();
  const same = (value: unknown) => {
    const a = asNumber(actual);
    const b = asNumber(value);
    if (!Number.isNaN(a) && !Number.isNaN(b)) return a === b;
    return asText(actual) === asText(value);
  };
  switch (condition.op) {
    case 'eq':
      return same(expected);
    case 'neq':
      return !same(expected);
    case 'in':
      return Array.isArray(expected) && expected.some(same);
    case 'contains':
      return asText(actual).includes(asText(expected));
    case 'not_contains':
      return !asText(actual).includes(asText(expected));
    case 'ends_with':
      return asText(actual).endsWith(asText(expected));
    case 'gt':
    case 'gte':
    case 'lt':
    case 'lte': {
      const a = asNumber(actual);
      const b = asNumber(expected);
      if (Number.isNaN(a) || Number.isNaN(b)) return false;
      if (condition.op === 'gt') return a > b;
      if (condition.op === 'gte') return a >= b;
      if (condition.op === 'lt') return a < b;
      return a <= b;
    }
  }
}

// ---- node data ---------------------------------------------------------------------------

const label = z.string().trim().max(100).optional();

/** Event names as an array, or one name; short names ("completed") allowed. */
const courseEventsSchema = z
  .union([z.string(), z.array(z.string()).max(COURSE_TRIGGER_EVENTS.length * 2)])
  .transform((value, context) => {
    const names = Array.isArray(value) ? value : [value];
    const types: CourseTriggerEvent[] = [];
    for (const name of names) {
      const type = courseEventType(name);
      if (!type) {
        context.addIssue({
          code: 'custom',
          message: `Unknown course event "${name}": use one of ${COURSE_TRIGGER_EVENTS.join(', ')}`,
        });
        return z.NEVER;
      }
      if (!types.includes(type)) types.push(type);
    }
    return types;
  });

/**
 * A course node: which course, and which of its events start a run (all
 * of them when none is named). `event`, `on` and `trigger` are accepted
 * for `events`, as API callers write them.
 */
export const courseNodeData = z.preprocess(
  (value) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
    const data = value as Record<string, unknown>;
    if (data.events !== undefined) return data;
    const alias = data.event ?? data.on ?? data.trigger;
    return alias === undefined ? data : { ...data, events: alias };
  },
  z.object({
    label,
    courseId: uuidSchema('Choose a course'),
    events: courseEventsSchema.default([...COURSE_TRIGGER_EVENTS]),
  }),
);

export const chatbotNodeData = z.object({
  label,
  chatbotId: uuidSchema('Choose a chatbot'),
  events: z
    .array(z.enum(CHATBOT_TRIGGER_EVENTS))
    .min(1)
    .default([...CHATBOT_TRIGGER_EVENTS]),
});

export const SCHEDULE_MESSAGES = {
  cron: 'Write the schedule as five cron fields: minute hour day-of-month month day-of-week (e.g. "0 8 * * 1" for Mondays at 08:00)',
  timeZone: 'Choose a time zone from the list (e.g. Europe/Paris)',
} as const;

const CRON_PART = /^(\*|(\d+)(?:-(\d+))?)(?:\/(\d+))?$/;
const CRON_RANGES: readonly [number, number][] = [
  [0, 59],
  [0, 23],
  [1, 31],
  [1, 12],
  [0, 7],
];

/** Whether a cron expression has five fields of `*`, numbers, ranges, lists and steps within their bounds. */
export function isCronExpression(expression: string): boolean {
  const fields = expression.trim().split(/\s+/);
  if (fields.length !== 5) return false;
  return fields.every((field, i) => {
    const [min, max] = CRON_RANGES[i] as [number, number];
    return field.split(',').every((part) => {
      const match = CRON_PART.exec(part);
      if (!match) return false;
      const [, , from, to, step] = match;
      const inRange = (n: string | undefined) => n === undefined || (Number(n) >= min && Number(n) <= max);
      if (!inRange(from) || !inRange(to)) return false;
      if (from !== undefined && to !== undefined && Number(from) > Number(to)) return false;
      return step === undefined || Number(step) >= 1;
    });
  });
}

export const scheduleNodeData = z.object({
  label,
  cron: z.string().trim().refine(isCronExpression, SCHEDULE_MESSAGES.cron),
  /** The organization's time zone when absent. */
  timeZone: z.string().trim().refine(isTimeZone, SCHEDULE_MESSAGES.timeZone).optional(),
});

export const manualNodeData = z.object({ label });

export const filterNodeData = conditionsData;
export const branchNodeData = conditionsData;

export const DELAY_UNITS = ['minutes', 'hours', 'days'] as const;
export type DelayUnit = (typeof DELAY_UNITS)[number];
/** 30 days: the longest a run waits. */
export const MAX_DELAY_MINUTES = 30 * 24 * 60;
const UNIT_MINUTES: Record<DelayUnit, number> = { minutes: 1, hours: 60, days: 24 * 60 };

export const delayNodeData = z
  .object({
    label,
    amount: z.number({ error: 'Give how long to wait' }).int('Wait a whole number').min(1, 'Wait at least 1'),
    unit: z.enum(DELAY_UNITS).default('minutes'),
  })
  .refine(
    (data) => data.amount * UNIT_MINUTES[data.unit] <= MAX_DELAY_MINUTES,
    'A run waits at most 30 days',
  );

export function delayMinutes(data: { amount: number; unit: DelayUnit }): number {
  return data.amount * UNIT_MINUTES[data.unit];
}

/**
 * Map variables: the variables named in `sources` (a course's variable by
 * name) are written to the destination variable while the pipeline is
 * active, so one variable reports them all.
 */
export const mapVariablesNodeData = z.object({
  label,
  destinationVariableId: uuidSchema('Choose the variable the values go to'),
  sources: z
    .array(
      z.object({
        courseId: uuidSchema('Choose a course'),
        variableName: z.string().trim().min(1, 'Name the variable to map').max(255),
      }),
    )
    .min(1, 'Add at least one variable to map')
    .max(100),
});

export const actionNodeData = z.object({ label, actionId: uuidSchema('Choose an action') });

export const PIPELINE_NODE_DATA = {
  course: courseNodeData,
  chatbot: chatbotNodeData,
  schedule: scheduleNodeData,
  manual: manualNodeData,
  filter: filterNodeData,
  branch: branchNodeData,
  delay: delayNodeData,
  map_variables: mapVariablesNodeData,
  action: actionNodeData,
} as const satisfies Record<PipelineNodeType, z.ZodType>;

export type PipelineNodeData<T extends PipelineNodeType> = z.output<(typeof PIPELINE_NODE_DATA)[T]>;

// ---- graph ---------------------------------------------------------------------------------

export const MAX_PIPELINE_NODES = 100;
export const MAX_PIPELINE_EDGES = 200;
export const MAX_PIPELINE_NAME_LENGTH = 200;
export const MAX_PIPELINE_DESCRIPTION_LENGTH = 2000;

const nodeId = z
  .string()
  .trim()
  .min(1, 'A node needs an id')
  .max(100, 'A node id has at most 100 characters');
const position = z.object({ x: z.number().finite(), y: z.number().finite() });

const nodeOf = <T extends PipelineNodeType>(type: T) =>
  z.object({
    id: nodeId,
    type: z.literal(type),
    position: position.optional(),
    data: PIPELINE_NODE_DATA[type],
  });

export const pipelineNodeSchema = z.discriminatedUnion(
  'type',
  [
    nodeOf('course'),
    nodeOf('chatbot'),
    nodeOf('schedule'),
    nodeOf('manual'),
    nodeOf('filter'),
    nodeOf('branch'),
    nodeOf('delay'),
    nodeOf('map_variables'),
    nodeOf('action'),
  ],
  { error: `A node's type must be one of ${PIPELINE_NODE_TYPES.join(', ')}` },
);
export type PipelineNode = z.output<typeof pipelineNodeSchema>;
export type PipelineNodeInput = z.input<typeof pipelineNodeSchema>;

/** The two ways out of a branch node. */
export const BRANCH_HANDLES = ['yes', 'no'] as const;
export type BranchHandle = (typeof BRANCH_HANDLES)[number];

export const pipelineEdgeSchema = z.object({
  id: z.string().trim().min(1).max(200).optional(),
  source: nodeId,
  target: nodeId,
  sourceHandle: z.string().max(20).nullish(),
  targetHandle: z.string().max(20).nullish(),
});
export type PipelineEdgeInput = z.input<typeof pipelineEdgeSchema>;
export type PipelineEdge = z.output<typeof pipelineEdgeSchema> & { id: string };

export const pipelineGraphSchema = z.object({
  nodes: z
    .array(pipelineNodeSchema)
    .max(MAX_PIPELINE_NODES, `A pipeline has at most ${MAX_PIPELINE_NODES} nodes`)
    .default([]),
  edges: z
    .array(pipelineEdgeSchema)
    .max(MAX_PIPELINE_EDGES, `A pipeline has at most ${MAX_PIPELINE_EDGES} connections`)
    .default([]),
});
export type PipelineGraphInput = z.input<typeof pipelineGraphSchema>;
export type PipelineGraph = { nodes: PipelineNode[]; edges: PipelineEdge[] };

/** Edges get a stable id from their ends when the caller sent none. */
export function withEdgeIds(graph: z.output<typeof pipelineGraphSchema>): PipelineGraph {
  return {
    nodes: graph.nodes,
    edges: graph.edges.map((edge) => ({
      ...edge,
      id: edge.id ?? `${edge.source}->${edge.target}${edge.sourceHandle ? `:${edge.sourceHandle}` : ''}`,
    })),
  };
}

export const PIPELINE_MESSAGES = {
  notFound: 'Pipeline not found',
  runNotFound: 'Run not found',
  versionNotFound: 'Version not found',
  nameRequired: 'Name is required',
  nameTooLong: `Name must be at most ${MAX_PIPELINE_NAME_LENGTH} characters long`,
  descriptionTooLong: `Description must be at most ${MAX_PIPELINE_DESCRIPTION_LENGTH} characters long`,
  cannotActivate: 'Fix the problems of this pipeline before turning it on',
  noSource: 'Add a source: course events, chatbot events, a schedule or a Run button',
  noAction: 'Add an action: a pipeline that runs no action does nothing',
  duplicateNode: (id: string) => `Two nodes have the id "${id}"`,
  danglingEdge: (id: string) => `A connection points to a node that does not exist ("${id}")`,
  unconnected: (name: string) => `Connect "${name}" to the rest of the pipeline`,
  sourceHasInput: (name: string) => `"${name}" starts runs: nothing can lead into it`,
  actionHasOutput: (name: string) => `"${name}" ends a run: nothing can follow it`,
  branchHandle: (name: string) => `Say which way each connection out of "${name}" goes: yes or no`,
  cycle: (names: readonly string[]) => `These nodes form a loop: ${names.map((n) => `"${n}"`).join(' → ')}`,
  selfLoop: (name: string) => `"${name}" is connected to itself`,
  unknownCourse: (name: string) => `"${name}" names a course that does not exist (any more)`,
  unknownAction: (name: string) => `"${name}" names an action that does not exist (any more)`,
  unknownChatbot: (name: string) => `"${name}" names a chatbot that does not exist (any more)`,
  unknownVariable: (name: string) => `"${name}" names a variable that does not exist (any more)`,
  mappingTaken: (variable: string, pipeline: string) =>
    `The variable "${variable}" is already mapped by the pipeline "${pipeline}"`,
  inactiveSource: 'A pipeline that is off runs only from the editor’s test run',
  manualNeedsManualSource: 'Add a "Run by hand" source to run this pipeline from here',
  retryNotFailed: 'Only a failed run can be retried',
  dryRunPeriod: 'Choose a period of at most 90 days that has ended',
  invalidNode: (name: string, problem: string) => `"${name}" is not valid: ${problem}`,
  eventNotFound: 'Event not found: choose one of the recent events',
  eventStartsNothing:
    'This event starts no run of this pipeline: its sources react to other courses or other events',
  actionOff: (name: string) => `The action “${name}” is turned off`,
  actionGone: (name: string) =>
    `The receiver answered 410 Gone: the action “${name}” was turned off, turn it on again once the receiver is back`,
  retriesUsedUp: (attempts: number, last: string) => `Failed after ${attempts} attempts: ${last}`,
  runFailed: (pipeline: string, error: string) => `Pipeline “${pipeline}” failed: ${error}`,
  noLearner: 'No such learner in this organization',
  pipelineChanged: (course: string) => `Course “${course}” was deleted: its nodes were removed`,
} as const;

export type PipelineProblem = { nodeId: string | null; message: string };

/** A node's name in messages: its label, else its type's label and id. */
export function nodeName(
  node: Pick<PipelineNode, 'id' | 'type'> & { data?: { label?: string | undefined } },
): string {
  const given = node.data?.label?.trim();
  return given ? given : `${PIPELINE_NODE_LABELS[node.type]} ${node.id}`;
}

/**
 * The graph's structural problems, in a stable order: no source, no action,
 * duplicate ids, connections to nowhere, sources with inputs, actions with
 * outputs, branch connections without a side, loops, unconnected nodes.
 * An empty list means the graph can run (the server also checks that the
 * courses, actions and variables it names exist).
 */
export function validatePipelineGraph(graph: PipelineGraph): PipelineProblem[] {
  const problems: PipelineProblem[] = [];
  const byId = new Map<string, PipelineNode>();
  for (const node of graph.nodes) {
    if (byId.has(node.id))
      problems.push({ nodeId: node.id, message: PIPELINE_MESSAGES.duplicateNode(node.id) });
    else byId.set(node.id, node);
  }
  // A pipeline of mappings alone runs nothing: while it is on, its mappings hold.
  const onlyMappings = graph.nodes.length > 0 && graph.nodes.every((node) => node.type === 'map_variables');
  if (!onlyMappings && !graph.nodes.some((node) => isSourceType(node.type))) {
    problems.push({ nodeId: null, message: PIPELINE_MESSAGES.noSource });
  }
  if (!onlyMappings && !graph.nodes.some((node) => node.type === 'action')) {
    problems.push({ nodeId: null, message: PIPELINE_MESSAGES.noAction });
  }
  const outgoing = new Map<string, PipelineEdge[]>();
  const incoming = new Map<string, PipelineEdge[]>();
  for (const edge of graph.edges) {
    for (const end of [edge.source, edge.target]) {
      if (!byId.has(end)) problems.push({ nodeId: null, message: PIPELINE_MESSAGES.danglingEdge(end) });
    }
    if (!byId.has(edge.source) || !byId.has(edge.target)) continue;
    if (edge.source === edge.target) {
      problems.push({
        nodeId: edge.source,
        message: PIPELINE_MESSAGES.selfLoop(nodeName(byId.get(edge.source)!)),
      });
      continue;
    }
    outgoing.set(edge.source, [...(outgoing.get(edge.source) ?? []), edge]);
    incoming.set(edge.target, [...(incoming.get(edge.target) ?? []), edge]);
  }
  for (const node of byId.values()) {
    const name = nodeName(node);
    const ins = incoming.get(node.id) ?? [];
    const outs = outgoing.get(node.id) ?? [];
    if (isSourceType(node.type) && ins.length > 0) {
      problems.push({ nodeId: node.id, message: PIPELINE_MESSAGES.sourceHasInput(name) });
    }
    if (node.type === 'action' && outs.length > 0) {
      problems.push({ nodeId: node.id, message: PIPELINE_MESSAGES.actionHasOutput(name) });
    }
    if (node.type === 'branch' && outs.some((edge) => !isBranchHandle(edge.sourceHandle))) {
      problems.push({ nodeId: node.id, message: PIPELINE_MESSAGES.branchHandle(name) });
    }
  }
  const loop = findCycle([...byId.keys()], outgoing);
  if (loop) {
    problems.push({
      nodeId: loop[0] ?? null,
      message: PIPELINE_MESSAGES.cycle(loop.map((id) => nodeName(byId.get(id)!))),
    });
  }
  for (const node of byId.values()) {
    const ins = incoming.get(node.id)?.length ?? 0;
    const outs = outgoing.get(node.id)?.length ?? 0;
    // map_variables configures mappings: it may stand alone.
    const connected =
      node.type === 'map_variables'
        ? true
        : isSourceType(node.type)
          ? outs > 0
          : node.type === 'action'
            ? ins > 0
            : ins > 0 && outs > 0;
    if (!connected)
      problems.push({ nodeId: node.id, message: PIPELINE_MESSAGES.unconnected(nodeName(node)) });
  }
  return problems;
}

export function isBranchHandle(value: unknown): value is BranchHandle {
  return value === 'yes' || value === 'no';
}

/** One loop of the graph (node ids in order), or null: a depth-first search with colours. */
function findCycle(ids: readonly string[], outgoing: Map<string, PipelineEdge[]>): string[] | null {
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (id: string): string[] | null => {
    state.set(id, 'open');
    path.push(id);
    for (const edge of outgoing.get(id) ?? []) {
      const next = state.get(edge.target);
      if (next === 'open') return path.slice(path.indexOf(edge.target));
      if (next === undefined) {
        const found = visit(edge.target);
        if (found) return found;
      }
    }
    path.pop();
    state.set(id, 'done');
    return null;
  };
  for (const id of ids) {
    if (state.has(id)) continue;
    const found = visit(id);
    if (found) return found;
  }
  return null;
}

// ---- pipelines API ---------------------------------------------------------------------------

const nameSchema = z
  .string({ error: PIPELINE_MESSAGES.nameRequired })
  .trim()
  .min(1, PIPELINE_MESSAGES.nameRequired)
  .max(MAX_PIPELINE_NAME_LENGTH, PIPELINE_MESSAGES.nameTooLong);
const descriptionSchema = z
  .string()
  .trim()
  .max(MAX_PIPELINE_DESCRIPTION_LENGTH, PIPELINE_MESSAGES.descriptionTooLong)
  .nullish();

/** `POST /api/pipelines`: a pipeline, on only when its graph has no problem. */
export const createPipelineInput = z.object({
  name: nameSchema,
  description: descriptionSchema,
  nodes: pipelineGraphSchema.shape.nodes,
  edges: pipelineGraphSchema.shape.edges,
  active: z.boolean().default(false),
});
export type CreatePipelineInput = z.input<typeof createPipelineInput>;

/** How long a pipeline keeps the history of its finished runs, in days. */
export const PIPELINE_RUN_RETENTION_DAYS = [7, 30, 90, 365] as const;
export const DEFAULT_PIPELINE_RUN_RETENTION_DAYS = 30;
export const RUN_RETENTION_MESSAGE = 'Keep runs for 7, 30, 90 or 365 days';
const runRetentionDaysSchema = z
  .number({ error: RUN_RETENTION_MESSAGE })
  .int(RUN_RETENTION_MESSAGE)
  .refine((days) => (PIPELINE_RUN_RETENTION_DAYS as readonly number[]).includes(days), RUN_RETENTION_MESSAGE);

/** `PATCH /api/pipelines/:pipelineId`: a changed graph is saved as a new version. */
export const updatePipelineInput = z
  .object({
    name: nameSchema.optional(),
    description: descriptionSchema,
    nodes: z.array(pipelineNodeSchema).max(MAX_PIPELINE_NODES).optional(),
    edges: z.array(pipelineEdgeSchema).max(MAX_PIPELINE_EDGES).optional(),
    active: z.boolean().optional(),
    runRetentionDays: runRetentionDaysSchema.optional(),
  })
  .refine((input) => Object.values(input).some((value) => value !== undefined), 'Nothing to change')
  .refine(
    (input) => (input.nodes === undefined) === (input.edges === undefined),
    'Send the nodes and the edges together',
  );
export type UpdatePipelineInput = z.input<typeof updatePipelineInput>;

/** `POST /api/pipelines/validate`: the problems of a graph, as the editor shows them. */
export const validatePipelineInput = pipelineGraphSchema;

export const pipelineParams = z.object({ pipelineId: uuidSchema(PIPELINE_MESSAGES.notFound) });
export const pipelineRunParams = pipelineParams.extend({ runId: uuidSchema(PIPELINE_MESSAGES.runNotFound) });
export const pipelineVersionParams = pipelineParams.extend({
  version: z.coerce.number().int().min(1, PIPELINE_MESSAGES.versionNotFound),
});

/** A pipeline's state in the list: off, on, on but its last runs fail, or unable to run. */
export const PIPELINE_STATUSES = ['active', 'inactive', 'failing', 'invalid'] as const;
export type PipelineStatus = (typeof PIPELINE_STATUSES)[number];

export const PIPELINE_SORT_KEYS = ['updatedAt', 'name', 'lastRunAt', 'createdAt'] as const;
export const listPipelinesQuery = listQuerySchema(PIPELINE_SORT_KEYS, {
  sort: 'updatedAt',
  order: 'desc',
}).extend({ status: z.enum(PIPELINE_STATUSES).optional() });
export type ListPipelinesQuery = z.input<typeof listPipelinesQuery>;

export const runCountsSchema = z.object({
  total: z.number().int(),
  succeeded: z.number().int(),
  failed: z.number().int(),
  running: z.number().int(),
});

export const pipelineSummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  active: z.boolean(),
  status: z.enum(PIPELINE_STATUSES),
  version: z.number().int(),
  /** The source types of the graph, in order (the list's "trigger" column). */
  sources: z.array(z.enum(PIPELINE_SOURCE_TYPES)),
  nodeCount: z.number().int(),
  lastRunAt: z.string().nullable(),
  lastRunStatus: z.string().nullable(),
  /** Runs of the last 30 days. */
  runs: runCountsSchema,
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type PipelineSummary = z.infer<typeof pipelineSummarySchema>;
export const pipelineListResponse = paginatedSchema(pipelineSummarySchema);
export type PipelineListResponse = z.infer<typeof pipelineListResponse>;

export const pipelineProblemSchema = z.object({ nodeId: z.string().nullable(), message: z.string() });

export const pipelineDetailSchema = pipelineSummarySchema.extend({
  nodes: z.array(z.unknown()),
  edges: z.array(z.unknown()),
  /** What stands in the way of turning it on (empty when it can run). */
  problems: z.array(pipelineProblemSchema),
  createdByName: z.string().nullable(),
  /** Finished runs older than this many days are deleted (a daily job). */
  runRetentionDays: z.number().int(),
});
export type PipelineDetail = Omit<z.infer<typeof pipelineDetailSchema>, 'nodes' | 'edges'> & PipelineGraph;

export const pipelineVersionSchema = z.object({
  version: z.number().int(),
  createdAt: z.string(),
  createdByName: z.string().nullable(),
  nodeCount: z.number().int(),
  runs: z.number().int(),
});
export const pipelineVersionsResponse = z.object({ items: z.array(pipelineVersionSchema) });

// ---- runs ---------------------------------------------------------------------------------------

export const PIPELINE_RUN_STATUSES = [
  'queued',
  'running',
  'waiting',
  'succeeded',
  'failed',
  'skipped',
] as const;
export type PipelineRunStatus = (typeof PIPELINE_RUN_STATUSES)[number];
export const PIPELINE_STEP_STATUSES = ['running', 'waiting', 'succeeded', 'failed', 'skipped'] as const;
export type PipelineStepStatus = (typeof PIPELINE_STEP_STATUSES)[number];
export const PIPELINE_TRIGGER_KINDS = ['event', 'schedule', 'manual', 'test', 'retry'] as const;
export type PipelineTriggerKind = (typeof PIPELINE_TRIGGER_KINDS)[number];

/**
 * Standard Webhooks' retry schedule: after a failed attempt, the next one
 * comes this many seconds later (the answer's `Retry-After` wins when
 * longer); after the last, the step fails.
 */
export const WEBHOOK_RETRY_SCHEDULE_SECONDS = [
  5,
  5 * 60,
  30 * 60,
  2 * 3600,
  5 * 3600,
  10 * 3600,
  10 * 3600,
] as const;

export const RUN_PERIOD_MESSAGES = { badDate: 'Dates are written YYYY-MM-DD' } as const;

export const listPipelineRunsQuery = listQuerySchema(['startedAt'] as const, {
  sort: 'startedAt',
  order: 'desc',
}).extend({
  status: z.enum(PIPELINE_RUN_STATUSES).optional(),
  trigger: z.enum(PIPELINE_TRIGGER_KINDS).optional(),
  from: z.iso.date({ error: RUN_PERIOD_MESSAGES.badDate }).optional(),
  to: z.iso.date({ error: RUN_PERIOD_MESSAGES.badDate }).optional(),
});
export type ListPipelineRunsQuery = z.input<typeof listPipelineRunsQuery>;

export const pipelineRunSummarySchema = z.object({
  id: z.string(),
  pipelineId: z.string(),
  version: z.number().int(),
  status: z.enum(PIPELINE_RUN_STATUSES),
  trigger: z.enum(PIPELINE_TRIGGER_KINDS),
  eventId: z.string().nullable(),
  eventType: z.string().nullable(),
  learnerEmail: z.string().nullable(),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
  durationMs: z.number().nullable(),
  error: z.string().nullable(),
});
export type PipelineRunSummary = z.infer<typeof pipelineRunSummarySchema>;
export const pipelineRunListResponse = paginatedSchema(pipelineRunSummarySchema);

export const pipelineRunStepSchema = z.object({
  nodeId: z.string(),
  nodeType: z.enum(PIPELINE_NODE_TYPES),
  nodeName: z.string(),
  status: z.enum(PIPELINE_STEP_STATUSES),
  attempts: z.number().int(),
  input: z.unknown(),
  output: z.unknown(),
  error: z.string().nullable(),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
  durationMs: z.number().nullable(),
  /** A step waiting (a delay, a retry) goes on at this time. */
  resumeAt: z.string().nullable(),
});
export type PipelineRunStep = z.infer<typeof pipelineRunStepSchema>;
export const pipelineRunDetailSchema = pipelineRunSummarySchema.extend({
  steps: z.array(pipelineRunStepSchema),
});
export type PipelineRunDetail = z.infer<typeof pipelineRunDetailSchema>;

/** `POST /api/pipelines/:pipelineId/runs/:runId/retry`: from the failed step, or the whole run again. */
export const retryPipelineRunInput = z.object({ from: z.enum(['failed', 'start']).default('failed') });

/** `POST /api/pipelines/:pipelineId/run`: a run by hand, optionally for one learner. */
export const manualRunInput = z.object({ learnerEmail: z.email().max(320).optional() });

/**
 * `POST /api/pipelines/:pipelineId/test`: the saved graph (or the one sent)
 * run on a real event of the log; `execute: false` (the default) runs no
 * action and shows what each would have done.
 */
export const testRunInput = z.object({
  eventId: z.string().min(1).max(200),
  execute: z.boolean().default(false),
  nodes: z.array(pipelineNodeSchema).max(MAX_PIPELINE_NODES).optional(),
  edges: z.array(pipelineEdgeSchema).max(MAX_PIPELINE_EDGES).optional(),
});

/**
 * 200 of a test run: the run as it went (never stored). `dry`: no action
 * ran, and each action step's output is the request it would have sent.
 */
export const testRunResponse = pipelineRunDetailSchema.extend({ dry: z.boolean() });
export type TestRunResponse = z.infer<typeof testRunResponse>;

/** 200 of `POST /api/pipelines/validate`: what stands in the way, as `problems` of the detail. */
export const validatePipelineResponse = z.object({ problems: z.array(pipelineProblemSchema) });

/** `GET /api/pipelines/:pipelineId/test-events`: recent events of the log its sources react to. */
export const testEventSchema = z.object({
  eventId: z.string(),
  type: z.string(),
  occurredAt: z.string(),
  courseTitle: z.string().nullable(),
  learnerEmail: z.string().nullable(),
  summary: z.string(),
});
export const testEventsResponse = z.object({ items: z.array(testEventSchema) });

// ---- dry run on history ---------------------------------------------------------------------------

export const MAX_DRY_RUN_DAYS = 90;
/** Events one dry run reads at most, oldest first (`truncated` says when the period held more). */
export const MAX_DRY_RUN_EVENTS = 5000;

/** `POST /api/pipelines/:pipelineId/dry-run`: the graph (saved or sent) over a past period, with no side effect. */
export const dryRunInput = z.object({
  from: z.iso.date({ error: RUN_PERIOD_MESSAGES.badDate }),
  to: z.iso.date({ error: RUN_PERIOD_MESSAGES.badDate }),
  /** The page of `learners` to answer (the figures always cover the whole period). */
  page: z.number().int().min(1).max(100_000).default(1),
  pageSize: z.number().int().min(1).max(100).default(25),
  nodes: z.array(pipelineNodeSchema).max(MAX_PIPELINE_NODES).optional(),
  edges: z.array(pipelineEdgeSchema).max(MAX_PIPELINE_EDGES).optional(),
});
export type DryRunInput = z.input<typeof dryRunInput>;

export const dryRunActionSchema = z.object({
  nodeId: z.string(),
  actionId: z.string(),
  actionName: z.string(),
  actionType: z.string(),
  /** Times the action would have run, and for how many different learners. */
  runs: z.number().int(),
  learners: z.number().int(),
  /** A sentence: "would e-mail 212 learners", "would set at_risk on 37 learners". */
  summary: z.string(),
});
export const dryRunLearnerSchema = z.object({
  email: z.string(),
  name: z.string().nullable(),
  runs: z.number().int(),
  /** The action nodes the learner's runs reached. */
  actions: z.array(z.string()),
});
export const dryRunResponse = z.object({
  from: z.string(),
  to: z.string(),
  /** Events of the period the sources react to, and the runs they would start. */
  events: z.number().int(),
  runs: z.number().int(),
  /** Runs a filter or branch stopped. */
  stopped: z.number().int(),
  actions: z.array(dryRunActionSchema),
  learners: paginatedSchema(dryRunLearnerSchema),
  /** True when the period held more events than one dry run reads (the figures cover the first ones). */
  truncated: z.boolean(),
});
export type DryRunResponse = z.infer<typeof dryRunResponse>;

// ---- generator -------------------------------------------------------------------------------------

export const MAX_PIPELINE_PROMPT_LENGTH = 1000;

/** `POST /api/pipelines/generate`: a sentence becomes a draft graph to review in the editor. */
export const generatePipelineInput = z.object({
  prompt: z
    .string({ error: 'Describe what the pipeline should do' })
    .trim()
    .min(1, 'Describe what the pipeline should do')
    .max(MAX_PIPELINE_PROMPT_LENGTH, `Keep the description under ${MAX_PIPELINE_PROMPT_LENGTH} characters`),
  /** Answers to earlier questions: an ambiguous phrase and the id picked for it. */
  choices: z.record(z.string().max(200), z.string().max(200)).optional(),
});
export type GeneratePipelineInput = z.input<typeof generatePipelineInput>;

/**
 * A new action a draft proposes, in the place of an `actionId` on its action
 * node (`data.proposedAction`): created with `POST /api/actions` before the
 * pipeline is saved, then the node gets the new action's id.
 */
export const proposedActionSchema = z.object({
  name: z.string(),
  type: z.enum(ACTION_TYPES),
  /** The action's settings as `POST /api/actions` takes them (a webhook without a URL has `url: ''`). */
  config: z.record(z.string(), z.unknown()),
});
export type ProposedAction = z.infer<typeof proposedActionSchema>;

/** The settings of a proposed action the sentence did not give, to fill in before saving. */
export const PROPOSED_ACTION_FIELDS = ['url', 'message'] as const;

export const GENERATOR_ENGINES = ['builtin', 'llm'] as const;
export type GeneratorEngine = (typeof GENERATOR_ENGINES)[number];

export const generatePipelineResponse = z.object({
  engine: z.enum(GENERATOR_ENGINES),
  /** The language model's name when it answered. */
  model: z.string().nullable().default(null),
  draft: z.object({
    name: z.string(),
    description: z.string().nullable(),
    nodes: z.array(z.unknown()),
    edges: z.array(z.unknown()),
  }),
  /** Parts of the sentence it could not map, said plainly. */
  unmapped: z.array(z.string()),
  /** A phrase that matched several things (two courses), with the options to choose from. */
  ambiguities: z.array(
    z.object({
      phrase: z.string(),
      kind: z.enum(['course', 'action', 'variable', 'chatbot']),
      options: z.array(z.object({ id: z.string(), label: z.string() })),
    }),
  ),
  /** Actions the draft needs that do not exist yet, to create before saving. */
  missingActions: z.array(
    z.object({
      nodeId: z.string(),
      type: z.enum(ACTION_TYPES),
      description: z.string(),
      /** The proposed action (the same as the node's `data.proposedAction`). */
      name: z.string(),
      config: z.record(z.string(), z.unknown()),
      /** Settings the sentence did not give: a webhook's address, a broadcast's message. */
      missing: z.array(z.enum(PROPOSED_ACTION_FIELDS)).default([]),
    }),
  ),
  /**
   * Settings of a node the sentence cannot give, to choose before saving: the
   * variable a "map variables" node writes to, among the organization's variables.
   */
  openSettings: z
    .array(
      z.object({
        nodeId: z.string(),
        field: z.enum(['destinationVariableId']),
        message: z.string(),
        options: z.array(z.object({ id: z.string(), label: z.string() })),
      }),
    )
    .default([]),
});
export type GeneratePipelineResponse = z.infer<typeof generatePipelineResponse>;
