import {
  ACTION_TYPES,
  BROADCAST_MODES,
  CONDITION_FIELD_NAMES,
  CONDITION_MATCH_MODES,
  CONDITION_OPERATORS,
  COURSE_TRIGGER_EVENTS,
  DELAY_UNITS,
  PIPELINE_NODE_DATA,
  PIPELINE_NODE_TYPES,
  actionConfigInput,
  isSourceType,
  validatePipelineGraph,
  type PipelineEdge,
  type PipelineNode,
  type PipelineNodeType,
} from '@courselens/contracts';
import { z } from 'zod';
import { layOut, type PlanAction } from './draft';
import { proposeBroadcast, proposeWebhook } from './proposals';
import type {
  Ambiguity,
  GeneratedPipeline,
  GeneratorChoices,
  MissingAction,
  PipelineGeneratorCatalog,
} from './types';

// The LLM engine: the model gets the organization's names and ids and
// answers a graph in the editor's shape, every field present (strict
// structured output wants that), with the contract's own enums. Nothing it
// answers is trusted: every id is checked against the catalog, every node's
// settings go through the editor's schema, a new action's settings through
// the actions' schema; what fails is left out and said, dangling connections
// and loops are cut, and a graph that still cannot run is refused.

const scalar = z.union([z.string(), z.number(), z.boolean()]);

const llmConditionSchema = z.object({
  field: z.enum(CONDITION_FIELD_NAMES),
  op: z.enum(CONDITION_OPERATORS),
  value: scalar.nullable(),
  variableName: z.string().nullable(),
  eventType: z.enum(COURSE_TRIGGER_EVENTS).nullable(),
});

const llmNewActionSchema = z.object({
  type: z.enum(ACTION_TYPES),
  name: z.string(),
  emailTo: z.enum(['learner', 'team', 'addresses']).nullable(),
  addresses: z.array(z.string()),
  subject: z.string().nullable(),
  body: z.string().nullable(),
  message: z.string().nullable(),
  url: z.string().nullable(),
  variableName: z.string().nullable(),
  value: scalar.nullable(),
  broadcastMode: z.enum(BROADCAST_MODES).nullable(),
  courseId: z.string().nullable(),
});

const llmNodeSchema = z.object({
  id: z.string(),
  type: z.enum(PIPELINE_NODE_TYPES),
  label: z.string().nullable(),
  courseId: z.string().nullable(),
  events: z.array(z.enum(COURSE_TRIGGER_EVENTS)),
  chatbotId: z.string().nullable(),
  cron: z.string().nullable(),
  match: z.enum(CONDITION_MATCH_MODES),
  conditions: z.array(llmConditionSchema),
  delayAmount: z.number().nullable(),
  delayUnit: z.enum(DELAY_UNITS).nullable(),
  mapSources: z.array(z.object({ courseId: z.string(), variableName: z.string() })),
  destinationVariableId: z.string().nullable(),
  actionId: z.string().nullable(),
  newAction: llmNewActionSchema.nullable(),
});

export const llmPipelineSchema = z.object({
  name: z.string(),
  description: z.string().nullable(),
  nodes: z.array(llmNodeSchema),
  edges: z.array(
    z.object({ source: z.string(), target: z.string(), sourceHandle: z.enum(['yes', 'no']).nullable() }),
  ),
  unmapped: z.array(z.string()),
  questions: z.array(
    z.object({
      phrase: z.string(),
      kind: z.enum(['course', 'action', 'variable', 'chatbot']),
      optionIds: z.array(z.string()),
    }),
  ),
});
export type LlmPipeline = z.infer<typeof llmPipelineSchema>;
type LlmNode = LlmPipeline['nodes'][number];

export const LLM_SYSTEM = `You turn a training manager's request into a CourseLens pipeline: a graph of nodes and edges.
Use ONLY ids from the catalog you are given; never invent ids. Node types:
- Sources (nothing leads into them): "course" (courseId, events: which course events start a run:
  ${COURSE_TRIGGER_EVENTS.join(', ')}; one course node per course, so "any course" is one node per course),
  "chatbot" (chatbotId), "schedule" (cron: five fields, minute hour day-of-month month day-of-week, in the
  organization's time zone {timeZone}; "every weekday at 9:00" is "0 9 * * 1-5"), "manual" (a button).
- Steps: "filter" (conditions, match all or any: a run goes on only when they hold), "branch" (conditions; its edges
  leave with sourceHandle "yes" or "no"), "delay" (delayAmount and delayUnit: minutes, hours or days, at most 30 days),
  "map_variables" (mapSources: a variable name in several courses reported as one; destinationVariableId: a catalog
  variable id, or null to let the person choose; it stands alone, without edges).
- Ends: "action" (actionId of a catalog action when the request names one, else newAction with its type and settings:
  email (emailTo learner, team or addresses; subject; body), notify_team (message), set_variable (variableName,
  value), broadcast (broadcastMode set or clear, message, courseId or null for the event's course), webhook (url, or
  null when the request gives none)).
Conditions: field one of ${CONDITION_FIELD_NAMES.join(', ')}; "learner.count" counts how many times the learner did
eventType in the course ("fails twice": learner.count of course.failed gte 2; "has not finished": learner.count of
course.completed eq 0, checked after a delay); "learner.variable" compares the learner's latest value of variableName.
A score crossing a mark is a course node on variable.set with event.variable eq the variable's name and event.value.
Templates in subjects, bodies and messages may use {{learner.name}}, {{learner.email}}, {{course.title}},
{{event.type}}, {{variable.name}}, {{value}}, {{organization.name}} only.
Leave every field you do not use null or empty. Edges go from sources through steps to actions, without loops.
When a name fits two courses (or actions, variables) equally, do not guess: add a question with the options' ids.
In "unmapped", say plainly what the catalog or CourseLens cannot do (e.g. "their manager: CourseLens does not know
learners' managers").`;

/** The catalog as the model sees it: names, types and ids only. */
export function catalogForModel(catalog: PipelineGeneratorCatalog): string {
  return JSON.stringify({
    courses: catalog.courses.slice(0, 200).map((course) => ({ id: course.id, title: course.title })),
    variables: catalog.variables.slice(0, 400).map((variable) => ({
      id: variable.id,
      name: variable.name,
      title: variable.title,
      dataType: variable.dataType,
      courseId: variable.courseId,
    })),
    actions: catalog.actions
      .slice(0, 200)
      .map((action) => ({ id: action.id, name: action.name, type: action.type })),
    chatbots: catalog.chatbots.slice(0, 100).map((chatbot) => ({ id: chatbot.id, name: chatbot.name })),
  });
}

export function choicesForModel(choices: GeneratorChoices, catalog: PipelineGeneratorCatalog): string {
  const entries = Object.entries(choices);
  if (entries.length === 0) return '';
  const names = new Map<string, string>([
    ...catalog.courses.map((course): [string, string] => [course.id, course.title]),
    ...catalog.actions.map((action): [string, string] => [action.id, action.name]),
    ...catalog.variables.map((variable): [string, string] => [
      variable.id,
      `${variable.name} (${variable.courseTitle})`,
    ]),
    ...catalog.chatbots.map((chatbot): [string, string] => [chatbot.id, chatbot.name]),
  ]);
  const lines = entries.map(([phrase, id]) => `- “${phrase}” means id ${id} (${names.get(id) ?? 'unknown'})`);
  return `\n\nThe person already answered your questions back:\n${lines.join('\n')}`;
}

/** The model's draft could not be made into a pipeline that runs. */
export class LlmDraftRefused extends Error {
  override name = 'LlmDraftRefused';
}

const clip = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);

/** A new action from the model's settings, checked by the actions' schema; a string says why it was refused. */
function proposalOf(
  raw: NonNullable<LlmNode['newAction']>,
  catalog: PipelineGeneratorCatalog,
): PlanAction | string {
  const name = clip(raw.name.trim() || 'New action', 200);
  if (raw.type === 'webhook' && !raw.url) return proposeWebhook(null);
  if (raw.type === 'broadcast') {
    const course = raw.courseId ? catalog.courses.find((item) => item.id === raw.courseId) : null;
    if (raw.courseId && !course) return 'it names a course that is not in your organization';
    if ((raw.broadcastMode ?? 'set') === 'set' && !raw.message)
      return proposeBroadcast('set', course ?? null, null);
  }
  const config: Record<string, unknown> = (() => {
    switch (raw.type) {
      case 'email':
        return {
          type: 'email',
          to:
            raw.emailTo === 'addresses'
              ? { kind: 'addresses', addresses: raw.addresses }
              : { kind: raw.emailTo ?? 'learner' },
          subject: raw.subject ?? 'About {{course.title}}',
          body: raw.body ?? 'Hello {{learner.name}},\n\n{{organization.name}}',
        };
      case 'notify_team':
        return {
          type: 'notify_team',
          message: raw.message ?? '{{learner.email}}: {{event.type}} in {{course.title}}',
        };
      case 'set_variable':
        return {
          type: 'set_variable',
          variableName: raw.variableName ?? '',
          value: { kind: 'literal', value: raw.value },
        };
      case 'broadcast':
        return {
          type: 'broadcast',
          courseId: raw.courseId,
          mode: raw.broadcastMode ?? 'set',
          message: raw.message,
        };
      case 'webhook':
        return { type: 'webhook', url: raw.url, method: 'POST' };
    }
  })();
  const parsed = actionConfigInput.safeParse(config);
  if (!parsed.success) return parsed.error.issues.map((issue) => issue.message).join('; ');
  return {
    kind: 'new',
    proposal: { name, type: raw.type, config: parsed.data },
    description: `A new ${raw.type.replace('_', ' ')} action: ${name}`,
    missing: [],
  };
}

/** The node's settings in the editor's shape, ids checked; a string says why it was left out. */
function nodeDataOf(node: LlmNode, catalog: PipelineGeneratorCatalog): Record<string, unknown> | string {
  const label = node.label?.trim() ? clip(node.label.trim(), 100) : undefined;
  const conditions = node.conditions.map((condition) => ({
    field: condition.field,
    op: condition.op,
    ...(condition.value === null ? {} : { value: condition.value }),
    ...(condition.variableName ? { variableName: condition.variableName } : {}),
    ...(condition.eventType ? { eventType: condition.eventType } : {}),
  }));
  const has = (list: readonly { id: string }[], id: string | null) =>
    id !== null && list.some((item) => item.id === id);
  switch (node.type) {
    case 'course':
      if (!has(catalog.courses, node.courseId)) return 'it names a course that is not in your organization';
      return {
        label,
        courseId: node.courseId,
        events: node.events.length > 0 ? node.events : [...COURSE_TRIGGER_EVENTS],
      };
    case 'chatbot':
      if (!has(catalog.chatbots, node.chatbotId))
        return 'it names a chatbot that is not in your organization';
      return { label, chatbotId: node.chatbotId };
    case 'schedule':
      return { label, cron: node.cron ?? '' };
    case 'manual':
      return { label };
    case 'filter':
    case 'branch':
      return { label, match: node.match, conditions };
    case 'delay':
      return { label, amount: node.delayAmount, unit: node.delayUnit ?? 'minutes' };
    case 'map_variables': {
      if (node.mapSources.some((source) => !has(catalog.courses, source.courseId))) {
        return 'it maps a course that is not in your organization';
      }
      if (node.destinationVariableId !== null && !has(catalog.variables, node.destinationVariableId)) {
        return 'it writes to a variable that is not in your organization';
      }
      return {
        label,
        sources: node.mapSources,
        ...(node.destinationVariableId ? { destinationVariableId: node.destinationVariableId } : {}),
      };
    }
    case 'action':
      if (node.actionId !== null) {
        if (!has(catalog.actions, node.actionId)) return 'it runs an action that is not in your organization';
        return {
          label: label ?? catalog.actions.find((action) => action.id === node.actionId)?.name,
          actionId: node.actionId,
        };
      }
      return node.newAction ? { label } : 'it names no action';
  }
}

/** Edges that close a loop, found by a depth-first search: cutting them leaves a graph without loops. */
function loopEdges(ids: readonly string[], edges: readonly PipelineEdge[]): Set<PipelineEdge> {
  const state = new Map<string, 'open' | 'done'>();
  const cut = new Set<PipelineEdge>();
  const visit = (id: string) => {
    state.set(id, 'open');
    for (const edge of edges.filter((item) => item.source === id)) {
      const next = state.get(edge.target);
      if (next === 'open') cut.add(edge);
      else if (next === undefined) visit(edge.target);
    }
    state.set(id, 'done');
  };
  for (const id of ids) if (!state.has(id)) visit(id);
  return cut;
}

/**
 * The model's answer as a generator response: ids checked, settings parsed,
 * broken connections and loops cut. Throws LlmDraftRefused when what is left
 * cannot run and there is no question back to answer first.
 */
export function draftFromLlm(
  answer: LlmPipeline,
  catalog: PipelineGeneratorCatalog,
  model: string,
): GeneratedPipeline {
  const unmapped = answer.unmapped.map((text) => clip(text, 500));
  const nodes: PipelineNode[] = [];
  const missingActions: MissingAction[] = [];
  const seen = new Set<string>();
  for (const raw of answer.nodes.slice(0, 100)) {
    const id = clip(raw.id.trim() || `node-${nodes.length + 1}`, 100);
    if (seen.has(id)) continue;
    const name = raw.label?.trim() ? `“${raw.label.trim()}”` : `${raw.type} ${id}`;
    const data = nodeDataOf(raw, catalog);
    if (typeof data === 'string') {
      unmapped.push(`The step ${name} the model proposed was left out: ${data}`);
      continue;
    }
    if (raw.type === 'action' && raw.actionId === null && raw.newAction) {
      const proposal = proposalOf(raw.newAction, catalog);
      if (typeof proposal === 'string' || proposal.kind !== 'new') {
        const why = typeof proposal === 'string' ? proposal : 'it is not a new action';
        unmapped.push(`The action ${name} the model proposed was left out: ${why}`);
        continue;
      }
      seen.add(id);
      nodes.push({
        id,
        type: 'action',
        data: {
          label: clip(typeof data.label === 'string' ? data.label : proposal.proposal.name, 100),
          proposedAction: proposal.proposal,
        },
      } as unknown as PipelineNode);
      missingActions.push({
        nodeId: id,
        type: proposal.proposal.type,
        description: proposal.description,
        name: proposal.proposal.name,
        config: proposal.proposal.config,
        missing: proposal.missing,
      });
      continue;
    }
    const type: PipelineNodeType = raw.type;
    const parsed = PIPELINE_NODE_DATA[type].safeParse(data);
    // A map whose destination is left to the person parses once it is chosen.
    const isOpenMap = type === 'map_variables' && !('destinationVariableId' in data);
    if (!parsed.success && !isOpenMap) {
      unmapped.push(
        `The step ${name} the model proposed was left out: ${parsed.error.issues.map((issue) => issue.message).join('; ')}`,
      );
      continue;
    }
    seen.add(id);
    nodes.push({ id, type, data: parsed.success ? parsed.data : data } as PipelineNode);
  }

  const byId = new Map(nodes.map((node) => [node.id, node]));
  let edges: PipelineEdge[] = [];
  for (const raw of answer.edges.slice(0, 200)) {
    const source = byId.get(raw.source);
    const target = byId.get(raw.target);
    if (!source || !target || source === target || isSourceType(target.type) || source.type === 'action')
      continue;
    const handle = source.type === 'branch' ? (raw.sourceHandle ?? 'yes') : null;
    const id = `${source.id}->${target.id}${handle ? `:${handle}` : ''}`;
    if (edges.some((edge) => edge.id === id)) continue;
    edges.push({ id, source: source.id, target: target.id, ...(handle ? { sourceHandle: handle } : {}) });
  }
  const loops = loopEdges(
    nodes.map((node) => node.id),
    edges,
  );
  if (loops.size > 0) {
    edges = edges.filter((edge) => !loops.has(edge));
    unmapped.push('The model’s draft had a loop: the connection that closed it was removed');
  }

  const labelOf = (kind: Ambiguity['kind'], id: string): string | null => {
    if (kind === 'course') return catalog.courses.find((course) => course.id === id)?.title ?? null;
    if (kind === 'action') return catalog.actions.find((action) => action.id === id)?.name ?? null;
    if (kind === 'chatbot') return catalog.chatbots.find((chatbot) => chatbot.id === id)?.name ?? null;
    const variable = catalog.variables.find((item) => item.id === id);
    return variable ? `${variable.name} (${variable.courseTitle})` : null;
  };
  const ambiguities: Ambiguity[] = answer.questions.flatMap((question) => {
    const options = question.optionIds.flatMap((id) => {
      const label = labelOf(question.kind, id);
      return label ? [{ id, label }] : [];
    });
    return options.length >= 2 ? [{ phrase: clip(question.phrase, 200), kind: question.kind, options }] : [];
  });

  const openMaps = nodes.filter(
    (node) =>
      node.type === 'map_variables' &&
      !(node.data as { destinationVariableId?: string }).destinationVariableId,
  );
  const problems = validatePipelineGraph({ nodes, edges });
  if (problems.length > 0 && ambiguities.length === 0) {
    throw new LlmDraftRefused(problems.map((problem) => problem.message).join('; '));
  }
  return {
    engine: 'llm',
    model,
    draft: {
      name: clip(answer.name.trim() || 'Generated pipeline', 200),
      description: answer.description ? clip(answer.description, 2000) : null,
      nodes: layOut(nodes, edges),
      edges,
    },
    unmapped,
    ambiguities,
    missingActions,
    openSettings: openMaps.map((node) => ({
      nodeId: node.id,
      field: 'destinationVariableId' as const,
      message: 'Choose the variable the mapped values go to',
      options: catalog.variables.slice(0, 200).map((variable) => ({
        id: variable.id,
        label: `${variable.title?.trim() || variable.name} (${variable.courseTitle})`,
      })),
    })),
  };
}
