import {
  ACTION_TYPE_LABELS,
  CONDITION_OPERATOR_LABELS,
  type ActionType,
  type Condition,
  type CourseTriggerEvent,
  type GeneratePipelineResponse,
} from '@courselens/contracts';

// A draft as a person reads it: what starts it, then each step in order,
// the branch's two sides, and the actions, new ones marked. The generator's
// labels say most of it; a draft without labels (a language model's) is
// described from its settings.

type Draft = GeneratePipelineResponse['draft'];
type DraftNode = { id: string; type: string; data?: Record<string, unknown> };
type DraftEdge = { source: string; target: string; sourceHandle?: string | null };

export type DraftStep = {
  id: string;
  kind: 'source' | 'step' | 'action';
  text: string;
  /** An action the pipeline will create. */
  isNew: boolean;
};

export type DraftReading = {
  /** What starts a run (several course nodes read as one sentence). */
  sources: string | null;
  /** The steps every run goes through, in order. */
  steps: DraftStep[];
  /** A branch: its question and what each side does. */
  branch: { text: string; yes: DraftStep[]; no: DraftStep[] } | null;
  /** Mappings, which run no step. */
  mappings: DraftStep[];
};

const EVENT_VERBS: Record<CourseTriggerEvent, string> = {
  'course.started': 'starts',
  'slide.viewed': 'views a slide of',
  'variable.set': 'gets a value in',
  'question.answered': 'answers a question in',
  'course.progressed': 'makes progress in',
  'course.passed': 'passes',
  'course.failed': 'fails',
  'course.exited': 'leaves',
  'course.completed': 'completes',
};

function listOf(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} or ${items.at(-1)}`;
}

function label(node: DraftNode): string | null {
  const text = node.data?.label;
  return typeof text === 'string' && text.trim() ? text.trim() : null;
}

function conditionText(condition: Condition): string {
  const op = CONDITION_OPERATOR_LABELS[condition.op];
  const value = condition.value === undefined ? '' : ` ${String(condition.value)}`;
  if (condition.field === 'learner.variable')
    return `${condition.variableName ?? 'a variable'} ${op}${value}`;
  if (condition.field === 'learner.count') return `times ${condition.eventType ?? ''} ${op}${value}`;
  return `${condition.field} ${op}${value}`;
}

function stepText(node: DraftNode): string {
  const given = label(node);
  const data = node.data ?? {};
  switch (node.type) {
    case 'filter': {
      const conditions = (data.conditions as Condition[] | undefined) ?? [];
      const text = given ?? `Only if ${conditions.map(conditionText).join(' and ')}`;
      return text.charAt(0).toLowerCase() + text.slice(1);
    }
    case 'delay':
      return given ?? `Wait ${String(data.amount)} ${String(data.unit)}`;
    case 'action': {
      const proposed = data.proposedAction as { name?: string; type?: ActionType } | undefined;
      return given ?? proposed?.name ?? (proposed?.type ? ACTION_TYPE_LABELS[proposed.type] : 'Action');
    }
    default:
      return given ?? node.type;
  }
}

function sourceText(sources: readonly DraftNode[]): string | null {
  if (sources.length === 0) return null;
  const courses = sources.filter((node) => node.type === 'course');
  const parts: string[] = [];
  if (courses.length > 0) {
    const events = [
      ...new Set(courses.flatMap((node) => (node.data?.events as CourseTriggerEvent[] | undefined) ?? [])),
    ];
    const verbs = events.length > 0 ? listOf(events.map((event) => EVENT_VERBS[event])) : 'does anything in';
    const titles = courses.map((node) => label(node) ?? 'a course');
    const where = titles.length > 3 ? `any of ${titles.length} courses` : listOf(titles);
    parts.push(`When a learner ${verbs} ${where}`);
  }
  for (const node of sources) {
    if (node.type === 'schedule')
      parts.push(`${label(node) ?? 'On a schedule'} (cron ${String(node.data?.cron)})`);
    if (node.type === 'manual') parts.push('When someone presses Run');
    if (node.type === 'chatbot')
      parts.push(`When a chatbot conversation of ${label(node) ?? 'a chatbot'} happens`);
  }
  return parts.join('; ');
}

/** The draft in reading order, from its sources along its connections. */
export function describeDraft(draft: Draft): DraftReading {
  const nodes = draft.nodes as DraftNode[];
  const edges = draft.edges as DraftEdge[];
  const byId = new Map(nodes.map((node) => [node.id, node]));
  const sources = nodes.filter((node) => ['course', 'chatbot', 'schedule', 'manual'].includes(node.type));
  const reading: DraftReading = {
    sources: sourceText(sources),
    steps: [],
    branch: null,
    mappings: nodes
      .filter((node) => node.type === 'map_variables')
      .map((node) => ({ id: node.id, kind: 'step', text: label(node) ?? 'Map variables', isNew: false })),
  };
  const asStep = (node: DraftNode): DraftStep => ({
    id: node.id,
    kind: node.type === 'action' ? 'action' : 'step',
    text: stepText(node),
    isNew: node.type === 'action' && Boolean(node.data?.proposedAction),
  });
  const seen = new Set<string>(sources.map((node) => node.id));
  const walk = (from: readonly string[], into: DraftStep[]) => {
    let frontier = [...from];
    while (frontier.length > 0) {
      const next: string[] = [];
      for (const id of frontier) {
        for (const edge of edges.filter((item) => item.source === id)) {
          const node = byId.get(edge.target);
          if (!node || seen.has(node.id)) continue;
          seen.add(node.id);
          if (node.type === 'branch' && !reading.branch) {
            const branch = { text: stepText(node), yes: [] as DraftStep[], no: [] as DraftStep[] };
            reading.branch = branch;
            for (const out of edges.filter((item) => item.source === node.id)) {
              const target = byId.get(out.target);
              if (!target || seen.has(target.id)) continue;
              seen.add(target.id);
              const side = out.sourceHandle === 'no' ? branch.no : branch.yes;
              side.push(asStep(target));
              walk([target.id], side);
            }
            continue;
          }
          into.push(asStep(node));
          next.push(node.id);
        }
      }
      frontier = next;
    }
  };
  walk(
    sources.map((node) => node.id),
    reading.steps,
  );
  return reading;
}

/** The whole reading on one line: "When a learner fails X → only if … → E-mail the team (new)". */
export function draftSentence(reading: DraftReading): string {
  const parts = [
    reading.sources,
    ...reading.steps.map((step) => `${step.text}${step.isNew ? ' (new)' : ''}`),
  ];
  if (reading.branch) {
    const side = (steps: DraftStep[]) =>
      steps.map((step) => `${step.text}${step.isNew ? ' (new)' : ''}`).join(', ');
    parts.push(
      `${reading.branch.text}: ${side(reading.branch.yes) || 'nothing'}; otherwise: ${side(reading.branch.no) || 'nothing'}`,
    );
  }
  return parts.filter(Boolean).join(' → ');
}
