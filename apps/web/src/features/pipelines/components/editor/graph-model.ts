import {
  COURSE_TRIGGER_EVENTS,
  COURSE_TRIGGER_LABELS,
  CHATBOT_TRIGGER_EVENTS,
  CONDITION_FIELDS,
  CONDITION_OPERATOR_LABELS,
  PIPELINE_NODE_DATA,
  PIPELINE_NODE_LABELS,
  VALUELESS_OPERATORS,
  isBranchHandle,
  isSourceType,
  nodeName,
  validatePipelineGraph,
  type BranchHandle,
  type ChatbotTriggerEvent,
  type Condition,
  type PipelineEdgeInput,
  type PipelineNode,
  type PipelineNodeInput,
  type PipelineNodeType,
  type PipelineProblem,
} from '@courselens/contracts';

/**
 * The editor's own copy of a pipeline: what the person is building, valid
 * or not yet. Node data stays as typed (a course node may have no course
 * yet); the contract's schemas say what is missing, and the graph rules
 * (`validatePipelineGraph`) say what stands in the way of turning it on.
 */

export type XY = { x: number; y: number };

export type EditorNode = {
  id: string;
  type: PipelineNodeType;
  position: XY;
  data: Record<string, unknown>;
};

export type EditorEdge = {
  id: string;
  source: string;
  target: string;
  /** `yes` or `no` out of a branch; null elsewhere. */
  sourceHandle: BranchHandle | null;
};

export type EditorGraph = { nodes: EditorNode[]; edges: EditorEdge[] };

/** What the editor saves: the name and description with the graph. */
export type EditorDocument = EditorGraph & { name: string; description: string };

export type ProblemKind =
  /** A node's form is not filled in: the pipeline cannot be saved. */
  | 'form'
  /** The graph cannot run (no source, unconnected node, loop): it can be saved, not turned on. */
  | 'graph'
  /** What the server found at the last save (a course or an action that no longer exists). */
  | 'server';

export type EditorProblem = { kind: ProblemKind; nodeId: string | null; message: string };

export const EDITOR_MESSAGES = {
  chooseEvent: 'Choose at least one event',
  cannotSave: 'Fill in the nodes marked in the problems list to save this pipeline',
  cannotTest: 'Fill in the nodes marked in the problems list to test this pipeline',
  emptyGraph: 'Add a source and an action to test this pipeline',
  activeHasProblems: 'This pipeline is on: fix its problems to save the changes, or turn it off first',
  connectToSource: (name: string) => `"${name}" starts runs: nothing can lead into it`,
  connectFromAction: (name: string) => `"${name}" ends a run: nothing can follow it`,
  sameNode: 'A node cannot be connected to itself',
  duplicateEdge: 'These two nodes are already connected',
  branchWay: 'Say which way this connection goes: yes or no',
  wayTaken: (way: string) => `The "${way}" way of this branch is already connected`,
  loop: 'This connection would make a loop',
} as const;

/** The size a node is laid out with before the canvas has measured it. */
export const DEFAULT_NODE_SIZE = { width: 208, height: 76 };

// ---- reading and writing the API's shape -------------------------------------------------

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isNodeType(value: unknown): value is PipelineNodeType {
  return typeof value === 'string' && value in PIPELINE_NODE_LABELS;
}

/** The saved graph as the editor holds it; nodes saved without a position are laid out later. */
export function graphFromApi(
  nodes: readonly unknown[],
  edges: readonly unknown[],
): EditorGraph & {
  hasMissingPositions: boolean;
} {
  let hasMissingPositions = false;
  const editorNodes: EditorNode[] = [];
  nodes.forEach((raw, index) => {
    if (!isRecord(raw) || typeof raw.id !== 'string' || !isNodeType(raw.type)) return;
    const position = isRecord(raw.position) ? raw.position : null;
    const x = typeof position?.x === 'number' ? position.x : null;
    const y = typeof position?.y === 'number' ? position.y : null;
    if (x === null || y === null) hasMissingPositions = true;
    editorNodes.push({
      id: raw.id,
      type: raw.type,
      position: { x: x ?? index * 280, y: y ?? 0 },
      data: isRecord(raw.data) ? { ...raw.data } : {},
    });
  });
  const editorEdges: EditorEdge[] = [];
  for (const raw of edges) {
    if (!isRecord(raw) || typeof raw.source !== 'string' || typeof raw.target !== 'string') continue;
    const sourceHandle = isBranchHandle(raw.sourceHandle) ? raw.sourceHandle : null;
    editorEdges.push({
      id: typeof raw.id === 'string' && raw.id !== '' ? raw.id : edgeId(raw.source, raw.target, sourceHandle),
      source: raw.source,
      target: raw.target,
      sourceHandle,
    });
  }
  return { nodes: editorNodes, edges: editorEdges, hasMissingPositions };
}

/** The graph as `PATCH /api/pipelines/:id` takes it (the server checks the data with the same schemas). */
export function graphToApi(graph: EditorGraph): { nodes: PipelineNodeInput[]; edges: PipelineEdgeInput[] } {
  return {
    nodes: graph.nodes.map(
      (node) =>
        ({
          id: node.id,
          type: node.type,
          position: { x: Math.round(node.position.x), y: Math.round(node.position.y) },
          data: node.data,
          // The data is checked by the server's schema; the editor's problems list has already said what is missing.
        }) as PipelineNodeInput,
    ),
    edges: graph.edges.map((edge) => ({
      id: edge.id,
      source: edge.source,
      target: edge.target,
      sourceHandle: edge.sourceHandle,
    })),
  };
}

// ---- building ------------------------------------------------------------------------------

export function edgeId(source: string, target: string, sourceHandle: string | null): string {
  return `${source}->${target}${sourceHandle ? `:${sourceHandle}` : ''}`;
}

/** `course-1`, `course-2`...: the first free id of the type. */
export function nextNodeId(graph: EditorGraph, type: PipelineNodeType): string {
  const taken = new Set(graph.nodes.map((node) => node.id));
  const prefix = type.replace(/_/g, '-');
  for (let n = 1; ; n += 1) {
    const id = `${prefix}-${n}`;
    if (!taken.has(id)) return id;
  }
}

/** What a new node starts with: the common case filled in, the choices left to make. */
export function defaultNodeData(type: PipelineNodeType): Record<string, unknown> {
  switch (type) {
    case 'course':
      return { courseId: '', events: ['course.completed'] };
    case 'chatbot':
      return { chatbotId: '', events: [...CHATBOT_TRIGGER_EVENTS] };
    case 'schedule':
      return { cron: '0 8 * * 1' };
    case 'manual':
      return {};
    case 'filter':
    case 'branch':
      return { match: 'all', conditions: [{ field: 'event.score', op: 'gte' }] };
    case 'delay':
      return { amount: 1, unit: 'hours' };
    case 'map_variables':
      return { destinationVariableId: '', sources: [{ courseId: '', variableName: '' }] };
    case 'action':
      return { actionId: '' };
  }
}

export function canHaveInputs(type: PipelineNodeType): boolean {
  return !isSourceType(type);
}

export function canHaveOutputs(type: PipelineNodeType): boolean {
  return type !== 'action';
}

export type NewConnection = { source: string; target: string; sourceHandle: string | null };

function reaches(graph: EditorGraph, from: string, to: string): boolean {
  const seen = new Set<string>();
  const stack = [from];
  while (stack.length > 0) {
    const id = stack.pop()!;
    if (id === to) return true;
    if (seen.has(id)) continue;
    seen.add(id);
    for (const edge of graph.edges) if (edge.source === id) stack.push(edge.target);
  }
  return false;
}

/** Why a connection cannot be made, or null when it can (the canvas and the list view ask alike). */
export function connectionProblem(graph: EditorGraph, connection: NewConnection): string | null {
  const source = graph.nodes.find((node) => node.id === connection.source);
  const target = graph.nodes.find((node) => node.id === connection.target);
  if (!source || !target) return null;
  if (source.id === target.id) return EDITOR_MESSAGES.sameNode;
  if (!canHaveOutputs(source.type)) return EDITOR_MESSAGES.connectFromAction(displayName(source));
  if (!canHaveInputs(target.type)) return EDITOR_MESSAGES.connectToSource(displayName(target));
  const handle = source.type === 'branch' ? connection.sourceHandle : null;
  if (source.type === 'branch' && !isBranchHandle(handle)) return EDITOR_MESSAGES.branchWay;
  if (graph.edges.some((edge) => edge.source === source.id && edge.target === target.id)) {
    return EDITOR_MESSAGES.duplicateEdge;
  }
  if (reaches(graph, target.id, source.id)) return EDITOR_MESSAGES.loop;
  return null;
}

export function addConnection<G extends EditorGraph>(graph: G, connection: NewConnection): G {
  const source = graph.nodes.find((node) => node.id === connection.source);
  const sourceHandle =
    source?.type === 'branch' && isBranchHandle(connection.sourceHandle) ? connection.sourceHandle : null;
  const edge: EditorEdge = {
    id: edgeId(connection.source, connection.target, sourceHandle),
    source: connection.source,
    target: connection.target,
    sourceHandle,
  };
  return { ...graph, edges: [...graph.edges, edge] };
}

/** Removes nodes (with their connections) and connections, in one step. */
export function removeElements<G extends EditorGraph>(
  graph: G,
  nodeIds: ReadonlySet<string>,
  edgeIds: ReadonlySet<string>,
): G {
  if (nodeIds.size === 0 && edgeIds.size === 0) return graph;
  return {
    ...graph,
    nodes: graph.nodes.filter((node) => !nodeIds.has(node.id)),
    edges: graph.edges.filter(
      (edge) => !edgeIds.has(edge.id) && !nodeIds.has(edge.source) && !nodeIds.has(edge.target),
    ),
  };
}

export function updateNodeData<G extends EditorGraph>(
  graph: G,
  nodeId: string,
  update: (data: Record<string, unknown>) => Record<string, unknown>,
): G {
  return {
    ...graph,
    nodes: graph.nodes.map((node) => (node.id === nodeId ? { ...node, data: update(node.data) } : node)),
  };
}

export function moveNodes<G extends EditorGraph>(graph: G, positions: ReadonlyMap<string, XY>): G {
  if (positions.size === 0) return graph;
  return {
    ...graph,
    nodes: graph.nodes.map((node) => {
      const position = positions.get(node.id);
      return position ? { ...node, position } : node;
    }),
  };
}

// ---- problems ------------------------------------------------------------------------------

/** The node's name in messages, as the server writes it: its label, else its type and id. */
export function displayName(node: Pick<EditorNode, 'id' | 'type' | 'data'>): string {
  const label = typeof node.data.label === 'string' ? node.data.label : undefined;
  return nodeName({ id: node.id, type: node.type, data: { label } });
}

/** What is missing or wrong in a node's form, in the contract's words (one message per field). */
export function nodeFormProblems(node: EditorNode): string[] {
  const messages: string[] = [];
  const hasNoEvent =
    (node.type === 'course' || node.type === 'chatbot') &&
    Array.isArray(node.data.events) &&
    node.data.events.length === 0;
  if (hasNoEvent) messages.push(EDITOR_MESSAGES.chooseEvent);
  const parsed = PIPELINE_NODE_DATA[node.type].safeParse(node.data);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      // The chatbot schema refuses an empty event list in the schema library's own words ("Too small…"):
      // the plain message above already says it.
      if (hasNoEvent && issue.path[0] === 'events') continue;
      if (!messages.includes(issue.message)) messages.push(issue.message);
    }
  }
  return messages;
}

/**
 * Every problem of the graph on the editor: the forms first (they stop a
 * save), then the graph's rules (they stop turning it on).
 */
export function graphProblems(graph: EditorGraph): EditorProblem[] {
  const problems: EditorProblem[] = [];
  for (const node of graph.nodes) {
    for (const message of nodeFormProblems(node)) {
      problems.push({ kind: 'form', nodeId: node.id, message: `${displayName(node)}: ${message}` });
    }
  }
  // The graph rules read ids, types, labels and connections only, so an unfinished form does not hide them.
  const structural = validatePipelineGraph({
    nodes: graph.nodes.map((node) => ({ ...node, data: node.data }) as unknown as PipelineNode),
    edges: graph.edges,
  });
  for (const problem of structural) problems.push({ kind: 'graph', ...problem });
  return problems;
}

/** The server's problems at the last save that the editor does not already show. */
export function serverOnlyProblems(
  serverProblems: readonly PipelineProblem[],
  local: readonly EditorProblem[],
): EditorProblem[] {
  const known = new Set(local.map((problem) => problem.message));
  return serverProblems
    .filter((problem) => !known.has(problem.message))
    .map((problem) => ({ kind: 'server', nodeId: problem.nodeId, message: problem.message }));
}

export function problemsByNode(problems: readonly EditorProblem[]): Map<string, string[]> {
  const byNode = new Map<string, string[]>();
  for (const problem of problems) {
    if (!problem.nodeId) continue;
    byNode.set(problem.nodeId, [...(byNode.get(problem.nodeId) ?? []), problem.message]);
  }
  return byNode;
}

// ---- what a node does, in words ----------------------------------------------------------

export type NodeLookups = {
  courseTitle: (id: string) => string | null;
  actionName: (id: string) => string | null;
  variableName: (id: string) => string | null;
  /** The agent's name, with "(off)" when it is switched off. */
  chatbotName: (id: string) => string | null;
};

/**
 * What a chatbot source reacts to, in words, for the form's checkboxes and
 * the node's summary. The contracts name the events only (`CHATBOT_TRIGGER_EVENTS`).
 */
export const CHATBOT_TRIGGER_LABELS: Record<ChatbotTriggerEvent, string> = {
  'chat.started': 'Starts a conversation',
  'variable.captured': 'Gives a value the agent captures',
  'chat.ended': 'Has given every required value',
};

/** Several events of a source in a few words: every one, the one, or how many. */
function eventsText(events: readonly string[], all: readonly string[], labels: Record<string, string>) {
  if (events.length === all.length) return 'Every event';
  if (events.length === 1) return labels[events[0]!] ?? events[0]!;
  return `${events.length} events`;
}

function conditionText(condition: Partial<Condition>): string {
  const field = condition.field
    ? condition.field === 'learner.variable' && condition.variableName
      ? condition.variableName
      : condition.field === 'learner.count' && condition.eventType
        ? `times "${COURSE_TRIGGER_LABELS[condition.eventType]}"`
        : (CONDITION_FIELDS[condition.field] ?? condition.field)
    : 'A value';
  const op = condition.op ? CONDITION_OPERATOR_LABELS[condition.op] : 'is';
  if (condition.op && VALUELESS_OPERATORS.includes(condition.op)) return `${field} ${op}`;
  const value = Array.isArray(condition.value) ? condition.value.join(', ') : condition.value;
  return `${field} ${op} ${value === undefined || value === '' ? '…' : String(value)}`;
}

/** One line under the node's title on the canvas and in the list view. */
export function nodeSummary(node: EditorNode, lookups: NodeLookups): string {
  const data = node.data;
  switch (node.type) {
    case 'course': {
      const title =
        typeof data.courseId === 'string' && data.courseId ? lookups.courseTitle(data.courseId) : null;
      const events = Array.isArray(data.events) ? (data.events as string[]) : [...COURSE_TRIGGER_EVENTS];
      return `${title ?? 'Choose a course'} · ${eventsText(events, COURSE_TRIGGER_EVENTS, COURSE_TRIGGER_LABELS)}`;
    }
    case 'chatbot': {
      const name =
        typeof data.chatbotId === 'string' && data.chatbotId ? lookups.chatbotName(data.chatbotId) : null;
      const events = Array.isArray(data.events) ? (data.events as string[]) : [...CHATBOT_TRIGGER_EVENTS];
      return `${name ?? 'Choose an agent'} · ${eventsText(events, CHATBOT_TRIGGER_EVENTS, CHATBOT_TRIGGER_LABELS)}`;
    }
    case 'schedule':
      return typeof data.cron === 'string' && data.cron ? `Cron ${data.cron}` : 'Write the schedule';
    case 'manual':
      return 'When someone presses Run';
    case 'filter':
    case 'branch': {
      const conditions = Array.isArray(data.conditions) ? (data.conditions as Partial<Condition>[]) : [];
      if (conditions.length === 0) return 'Add a condition';
      if (conditions.length === 1) return conditionText(conditions[0]!);
      return `${data.match === 'any' ? 'Any' : 'All'} of ${conditions.length} conditions`;
    }
    case 'delay':
      return typeof data.amount === 'number'
        ? `Wait ${data.amount} ${(typeof data.unit === 'string' ? data.unit : 'minutes').replace(/s$/, data.amount === 1 ? '' : 's')}`
        : 'Say how long to wait';
    case 'map_variables': {
      const destination =
        typeof data.destinationVariableId === 'string' && data.destinationVariableId
          ? lookups.variableName(data.destinationVariableId)
          : null;
      const count = Array.isArray(data.sources) ? data.sources.length : 0;
      return `${destination ? `Into ${destination}` : 'Choose a variable'} · ${count} ${count === 1 ? 'source' : 'sources'}`;
    }
    case 'action': {
      const name =
        typeof data.actionId === 'string' && data.actionId ? lookups.actionName(data.actionId) : null;
      return name ?? (data.actionId ? 'An action that no longer exists' : 'Choose an action');
    }
  }
}

/** The title on the node: its label, else its type. */
export function nodeTitle(node: EditorNode): string {
  const label = typeof node.data.label === 'string' ? node.data.label.trim() : '';
  return label || PIPELINE_NODE_LABELS[node.type];
}
