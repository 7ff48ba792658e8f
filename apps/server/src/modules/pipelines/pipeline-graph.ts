import {
  PIPELINE_MESSAGES,
  PIPELINE_NODE_TYPES,
  isSourceType,
  nodeName,
  pipelineEdgeSchema,
  pipelineNodeSchema,
  withEdgeIds,
  type BranchHandle,
  type ChatbotTriggerEvent,
  type PipelineEdge,
  type PipelineGraph,
  type PipelineNode,
  type PipelineNodeType,
  type PipelineProblem,
  type PipelineSourceType,
} from '@courselens/contracts';

/**
 * A stored graph read back: every node and edge parsed again with the
 * contract's schemas (rows written before a rule existed, or by hand, may
 * not pass), the ones that do not parse left out and said as problems.
 */
export function readGraph(stored: { nodes: unknown; edges: unknown }): {
  graph: PipelineGraph;
  problems: PipelineProblem[];
} {
  const problems: PipelineProblem[] = [];
  const nodes: PipelineNode[] = [];
  for (const raw of Array.isArray(stored.nodes) ? stored.nodes : []) {
    const parsed = pipelineNodeSchema.safeParse(raw);
    if (parsed.success) {
      nodes.push(parsed.data);
      continue;
    }
    const candidate = (typeof raw === 'object' && raw !== null ? raw : {}) as {
      id?: unknown;
      type?: unknown;
      data?: { label?: unknown };
    };
    const id = typeof candidate.id === 'string' ? candidate.id : '?';
    const type = (PIPELINE_NODE_TYPES as readonly unknown[]).includes(candidate.type)
      ? (candidate.type as PipelineNodeType)
      : null;
    const label = typeof candidate.data?.label === 'string' ? candidate.data.label : undefined;
    const name = type ? nodeName({ id, type, data: { label } }) : `Node ${id}`;
    problems.push({
      nodeId: id,
      message: PIPELINE_MESSAGES.invalidNode(name, parsed.error.issues[0]?.message ?? 'unreadable'),
    });
  }
  const edges = (Array.isArray(stored.edges) ? stored.edges : []).flatMap((raw) => {
    const parsed = pipelineEdgeSchema.safeParse(raw);
    return parsed.success ? [parsed.data] : [];
  });
  return { graph: withEdgeIds({ nodes, edges }), problems };
}

/** The graph as stored in `pipelines.nodes` / `edges` and the versions. */
export function storedGraph(graph: PipelineGraph): { nodes: PipelineNode[]; edges: PipelineEdge[] } {
  return { nodes: graph.nodes, edges: graph.edges };
}

export function nodeById(graph: PipelineGraph, id: string): PipelineNode | undefined {
  return graph.nodes.find((node) => node.id === id);
}

/** The nodes a node leads to; for a branch, only those of one side. */
export function successors(graph: PipelineGraph, nodeId: string, side?: BranchHandle): string[] {
  const targets: string[] = [];
  for (const edge of graph.edges) {
    if (edge.source !== nodeId) continue;
    if (side !== undefined && edge.sourceHandle !== side) continue;
    if (!targets.includes(edge.target)) targets.push(edge.target);
  }
  return targets;
}

export function sourcesOf(graph: PipelineGraph, type?: PipelineSourceType): PipelineNode[] {
  return graph.nodes.filter((node) => isSourceType(node.type) && (type === undefined || node.type === type));
}

/** The course nodes an event of `type` in `courseId` starts a run from. */
export function courseSourcesFor(graph: PipelineGraph, courseId: string, type: string): string[] {
  return graph.nodes.flatMap((node) =>
    node.type === 'course' &&
    node.data.courseId === courseId &&
    (node.data.events as readonly string[]).includes(type)
      ? [node.id]
      : [],
  );
}

/**
 * The log's type of each chatbot trigger a node can name. Only captures are
 * written to the log so far: a node's 'chat.started' or 'chat.ended' starts
 * nothing until chats write those events.
 */
const CHATBOT_TRIGGER_OF_LOG_TYPE: ReadonlyMap<string, ChatbotTriggerEvent> = new Map([
  ['chatbot.chat.started', 'chat.started'],
  ['chatbot.variable.captured', 'variable.captured'],
  ['chatbot.chat.ended', 'chat.ended'],
]);

/** The log types of the chatbot triggers (what a test or dry run reads for a chatbot source). */
export function chatbotLogTypes(events: readonly ChatbotTriggerEvent[]): string[] {
  return [...CHATBOT_TRIGGER_OF_LOG_TYPE]
    .filter(([, trigger]) => events.includes(trigger))
    .map(([type]) => type);
}

/**
 * The chatbot nodes of `chatbotId` that an event of the log of `type`
 * (`chatbot.variable.captured`) by that agent starts a run from.
 */
export function chatbotSourcesFor(graph: PipelineGraph, chatbotId: string, type: string): string[] {
  const trigger = CHATBOT_TRIGGER_OF_LOG_TYPE.get(type);
  if (trigger === undefined) return [];
  return graph.nodes.flatMap((node) =>
    node.type === 'chatbot' && node.data.chatbotId === chatbotId && node.data.events.includes(trigger)
      ? [node.id]
      : [],
  );
}

/** The source nodes an event of the log starts a run from: its course's or its chatbot's. */
export function sourcesForEvent(
  graph: PipelineGraph,
  event: { type: string; courseId: string | null; chatbotId: string | null },
): string[] {
  if (event.courseId !== null) return courseSourcesFor(graph, event.courseId, event.type);
  if (event.chatbotId !== null) return chatbotSourcesFor(graph, event.chatbotId, event.type);
  return [];
}

/** Whether two graphs are the same (a save that changes only the name is no new version). */
export function isSameGraph(a: { nodes: unknown; edges: unknown }, b: { nodes: unknown; edges: unknown }) {
  return canonical(a.nodes) === canonical(b.nodes) && canonical(a.edges) === canonical(b.edges);
}

function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner && typeof inner === 'object' && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner).sort(([x], [y]) => x.localeCompare(y)))
      : inner,
  );
}

/** What a graph refers to, to check it exists. */
export function referencesOf(graph: PipelineGraph): {
  courseIds: string[];
  actionIds: string[];
  chatbotIds: string[];
  variableIds: string[];
} {
  const courseIds = new Set<string>();
  const actionIds = new Set<string>();
  const chatbotIds = new Set<string>();
  const variableIds = new Set<string>();
  for (const node of graph.nodes) {
    switch (node.type) {
      case 'course':
        courseIds.add(node.data.courseId);
        break;
      case 'action':
        actionIds.add(node.data.actionId);
        break;
      case 'chatbot':
        chatbotIds.add(node.data.chatbotId);
        break;
      case 'map_variables':
        variableIds.add(node.data.destinationVariableId);
        for (const source of node.data.sources) courseIds.add(source.courseId);
        break;
      default:
        break;
    }
  }
  return {
    courseIds: [...courseIds],
    actionIds: [...actionIds],
    chatbotIds: [...chatbotIds],
    variableIds: [...variableIds],
  };
}

/** The (course, variable name) → destination mappings a graph's map-variables nodes hold. */
export type VariableMapping = { courseId: string; sourceVariableName: string; destinationVariableId: string };

export function mappingsOf(graph: PipelineGraph): VariableMapping[] {
  const mappings: VariableMapping[] = [];
  for (const node of graph.nodes) {
    if (node.type !== 'map_variables') continue;
    for (const source of node.data.sources) {
      const mapping = {
        courseId: source.courseId,
        sourceVariableName: source.variableName,
        destinationVariableId: node.data.destinationVariableId,
      };
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
 * The stored graph without the course nodes of `courseId` and their edges.
 * It works on the stored JSON, not the parsed graph, so a node that no
 * longer passes the schema is kept as it was rather than lost.
 */
export function withoutCourse(
  stored: { nodes: unknown; edges: unknown },
  courseId: string,
): { nodes: unknown[]; edges: unknown[]; removed: number } {
  const isGone = (node: unknown) => {
    const candidate = node as { type?: unknown; data?: { courseId?: unknown } } | null;
    return candidate?.type === 'course' && candidate.data?.courseId === courseId;
  };
  const allNodes = Array.isArray(stored.nodes) ? stored.nodes : [];
  const idOf = (value: unknown) => (typeof value === 'string' ? value : '');
  const gone = new Set(allNodes.filter(isGone).map((node) => idOf((node as { id?: unknown }).id)));
  const nodes = allNodes.filter((node) => !isGone(node));
  const edges = (Array.isArray(stored.edges) ? stored.edges : []).filter((edge) => {
    const candidate = edge as { source?: unknown; target?: unknown } | null;
    return !gone.has(idOf(candidate?.source)) && !gone.has(idOf(candidate?.target));
  });
  return { nodes, edges, removed: allNodes.length - nodes.length };
}
