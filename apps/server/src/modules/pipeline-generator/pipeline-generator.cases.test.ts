import {
  generatePipelineResponse,
  pipelineNodeSchema,
  validatePipelineGraph,
  withEdgeIds,
  type Condition,
  type PipelineNode,
} from '@courselens/contracts';
import { describe, expect, it } from 'vitest';
import { generateBuiltin } from './generator/builtin';
import { isNeverCount } from './generator/draft';
import type { GeneratedPipeline } from './generator/types';
import {
  GENERATOR_CASES,
  buildCasesCatalog,
  type CasesCatalog,
  type CatalogVariant,
  type ExpectedAction,
  type ExpectedCondition,
  type GeneratorCase,
} from './pipeline-generator.cases';

// Runs the test set through the built-in engine and compares the plan each
// draft makes (walked from its sources: what starts it, the conditions of
// its filters, the wait, the branch, the actions) with the plan the case
// expects. The share right is printed so a change to the parser shows what
// it gained or lost; below 90 % the test fails.

const TARGET = 0.9;

const catalogs: Record<CatalogVariant, CasesCatalog> = {
  demo: buildCasesCatalog('demo'),
  extended: buildCasesCatalog('extended'),
};

type Node = { id: string; type: string; data: Record<string, unknown> };
type Edge = { source: string; target: string; sourceHandle?: string | null };

type ActualPlan = {
  sources: Node[];
  conditions: Condition[];
  delays: { amount: number; unit: string }[];
  actions: Node[];
  branches: { conditions: Condition[]; yes: Node[]; no: Node[] }[];
  mappings: Node[];
};

/** The plan of a draft: walked from its sources, filters' conditions gathered, branches split by side. */
function planOf(result: GeneratedPipeline): ActualPlan {
  const nodes = result.draft.nodes as Node[];
  const edges = result.draft.edges as Edge[];
  const byId = new Map(nodes.map((node) => [node.id, node]));
  const plan: ActualPlan = {
    sources: [],
    conditions: [],
    delays: [],
    actions: [],
    branches: [],
    mappings: [],
  };
  plan.sources = nodes.filter((node) => ['course', 'chatbot', 'schedule', 'manual'].includes(node.type));
  plan.mappings = nodes.filter((node) => node.type === 'map_variables');
  const seen = new Set<string>();
  const reach = (id: string, side: Node[]): void => {
    const key = `${id}`;
    const node = byId.get(id);
    if (!node || seen.has(key)) return;
    seen.add(key);
    if (node.type === 'filter') plan.conditions.push(...(node.data.conditions as Condition[]));
    if (node.type === 'delay') plan.delays.push(node.data as { amount: number; unit: string });
    if (node.type === 'action') {
      side.push(node);
      return;
    }
    if (node.type === 'branch') {
      const branch = { conditions: node.data.conditions as Condition[], yes: [] as Node[], no: [] as Node[] };
      plan.branches.push(branch);
      for (const edge of edges.filter((item) => item.source === id)) {
        reach(edge.target, edge.sourceHandle === 'no' ? branch.no : branch.yes);
      }
      return;
    }
    for (const edge of edges.filter((item) => item.source === id)) reach(edge.target, side);
  };
  for (const source of plan.sources) reach(source.id, plan.actions);
  return plan;
}

/** A condition as a comparable line; a count of zero is one line whichever way it is written. */
function conditionKey(condition: Condition | ExpectedCondition): string {
  if (isNeverCount(condition as Condition)) return `learner.count ${condition.eventType} never`;
  return [
    condition.field,
    condition.variableName ?? '',
    condition.eventType ?? '',
    condition.op,
    JSON.stringify(condition.value),
  ]
    .filter((part) => part !== '')
    .join(' ');
}

function sameSet(actual: readonly string[], expected: readonly string[]): boolean {
  const a = [...actual].sort();
  const b = [...expected].sort();
  return a.length === b.length && a.every((item, i) => item === b[i]);
}

/** The action a node runs: one of the catalog's (by id) or the one it proposes. */
function actionOf(
  node: Node,
  catalog: CasesCatalog,
): { id: string | null; type: string; config: Record<string, unknown> } | null {
  if (typeof node.data.actionId === 'string') {
    const action = catalog.actions.find((item) => item.id === node.data.actionId);
    return action ? { id: action.id, type: action.type, config: action.config } : null;
  }
  const proposed = node.data.proposedAction as { type: string; config: Record<string, unknown> } | undefined;
  return proposed ? { id: null, type: proposed.type, config: proposed.config } : null;
}

function satisfies(node: Node, expected: ExpectedAction, catalog: CasesCatalog): boolean {
  const action = actionOf(node, catalog);
  if (!action) return false;
  if ('existing' in expected) return action.id === catalog.actionId(expected.existing);
  if (action.type !== expected.type) return false;
  switch (expected.type) {
    case 'email':
      return (
        expected.to === undefined || (action.config.to as { kind?: string } | undefined)?.kind === expected.to
      );
    case 'set_variable': {
      const value = action.config.value as { kind?: string; value?: unknown } | undefined;
      return (
        action.config.variableName === expected.variableName &&
        value?.kind === 'literal' &&
        value.value === expected.value
      );
    }
    case 'broadcast':
      return (
        action.config.mode === expected.mode &&
        (expected.course === undefined || action.config.courseId === catalog.courseId(expected.course))
      );
    case 'notify_team':
    case 'webhook':
      return true;
  }
}

function describeAction(node: Node, catalog: CasesCatalog): string {
  const action = actionOf(node, catalog);
  if (!action) return `${node.id} (no action)`;
  const name = action.id ? catalog.actions.find((item) => item.id === action.id)?.name : null;
  return name ? `“${name}”` : `new ${action.type} ${JSON.stringify(action.config)}`;
}

/** Whether the nodes run exactly the expected actions (a one-to-one match, any order). */
function matchActions(
  nodes: readonly Node[],
  expected: readonly ExpectedAction[],
  catalog: CasesCatalog,
): boolean {
  if (nodes.length !== expected.length) return false;
  const assign = (index: number, used: Set<number>): boolean => {
    const wanted = expected[index];
    if (wanted === undefined) return true;
    return nodes.some((node, i) => {
      if (used.has(i) || !satisfies(node, wanted, catalog)) return false;
      return assign(index + 1, new Set([...used, i]));
    });
  };
  return assign(0, new Set());
}

/** What differs between the case and the engine's answer, in words; empty when right. */
export function differences(testCase: GeneratorCase, result: GeneratedPipeline): string[] {
  const catalog = catalogs[testCase.catalog ?? 'demo'];
  const expected = testCase.expected;
  const problems: string[] = [];
  const courseName = (id: unknown) => catalog.courses.find((course) => course.id === id)?.title ?? String(id);

  if ('ambiguous' in expected) {
    if (!result.ambiguities.some((ambiguity) => ambiguity.kind === expected.ambiguous)) {
      problems.push(`did not ask which ${expected.ambiguous} (asked ${JSON.stringify(result.ambiguities)})`);
    }
    return problems;
  }
  if (result.ambiguities.length > 0)
    problems.push(`asked back ${JSON.stringify(result.ambiguities.map((a) => a.phrase))}`);
  const plan = planOf(result);

  if ('mapping' in expected) {
    const [mapping, ...more] = plan.mappings;
    if (!mapping || more.length > 0)
      return [...problems, `${plan.mappings.length} map-variables nodes instead of 1`];
    const sources = mapping.data.sources as { courseId: string; variableName: string }[];
    if (!sources.every((source) => source.variableName === expected.mapping.variableName)) {
      problems.push(
        `maps ${sources.map((source) => source.variableName).join(', ')}, expected ${expected.mapping.variableName}`,
      );
    }
    const courses = sources.map((source) => courseName(source.courseId));
    const wanted = expected.mapping.courses.map((key) => courseName(catalog.courseId(key)));
    if (!sameSet(courses, wanted))
      problems.push(`maps from ${courses.join(', ')}, expected ${wanted.join(', ')}`);
    if (result.unmapped.length > 0)
      problems.push(`said it did not understand: ${result.unmapped.join(' | ')}`);
    return problems;
  }

  // The source.
  const source = expected.source;
  if (source.type === 'course') {
    const courseNodes = plan.sources.filter((node) => node.type === 'course');
    if (courseNodes.length !== plan.sources.length)
      problems.push(`sources ${plan.sources.map((node) => node.type).join(', ')}`);
    const courses = courseNodes.map((node) => courseName(node.data.courseId));
    const wanted = source.courses.map((key) => courseName(catalog.courseId(key)));
    if (!sameSet(courses, wanted))
      problems.push(`courses ${courses.join(', ') || 'none'}, expected ${wanted.join(', ')}`);
    for (const node of courseNodes) {
      const events = node.data.events as string[];
      if (!sameSet(events, source.events)) {
        problems.push(
          `${courseName(node.data.courseId)} on ${events.join(', ')}, expected ${source.events.join(', ')}`,
        );
      }
    }
  } else if (source.type === 'schedule') {
    const crons = plan.sources.map((node) => (node.type === 'schedule' ? String(node.data.cron) : node.type));
    if (crons.length !== 1 || crons[0] !== source.cron)
      problems.push(`schedule ${crons.join(', ') || 'none'}, expected ${source.cron}`);
  } else if (plan.sources.length !== 1 || plan.sources[0]?.type !== 'manual') {
    problems.push(`sources ${plan.sources.map((node) => node.type).join(', ') || 'none'}, expected a button`);
  }

  const conditions = plan.conditions.map(conditionKey);
  const wantedConditions = (expected.conditions ?? []).map(conditionKey);
  if (!sameSet(conditions, wantedConditions)) {
    problems.push(`conditions [${conditions.join('; ')}], expected [${wantedConditions.join('; ')}]`);
  }

  const delays = plan.delays.map((delay) => `${delay.amount} ${delay.unit}`);
  const wantedDelays = expected.delay ? [`${expected.delay.amount} ${expected.delay.unit}`] : [];
  if (!sameSet(delays, wantedDelays))
    problems.push(`waits [${delays.join(', ')}], expected [${wantedDelays.join(', ')}]`);

  if (!matchActions(plan.actions, expected.actions ?? [], catalog)) {
    problems.push(
      `actions [${plan.actions.map((node) => describeAction(node, catalog)).join('; ')}], expected ${JSON.stringify(expected.actions ?? [])}`,
    );
  }

  const [branch, ...moreBranches] = plan.branches;
  if (expected.branch) {
    if (!branch || moreBranches.length > 0) problems.push(`${plan.branches.length} branches instead of 1`);
    else {
      const keys = branch.conditions.map(conditionKey);
      const wanted = expected.branch.conditions.map(conditionKey);
      if (!sameSet(keys, wanted))
        problems.push(`branch on [${keys.join('; ')}], expected [${wanted.join('; ')}]`);
      if (!matchActions(branch.yes, expected.branch.yes, catalog)) {
        problems.push(
          `yes: [${branch.yes.map((node) => describeAction(node, catalog)).join('; ')}], expected ${JSON.stringify(expected.branch.yes)}`,
        );
      }
      if (!matchActions(branch.no, expected.branch.no, catalog)) {
        problems.push(
          `no: [${branch.no.map((node) => describeAction(node, catalog)).join('; ')}], expected ${JSON.stringify(expected.branch.no)}`,
        );
      }
    }
  } else if (branch) problems.push('branches where none was asked');

  const said = result.unmapped.map((line) => line.toLowerCase());
  const wantedWords = expected.unmapped ?? [];
  for (const word of wantedWords) {
    if (!said.some((line) => line.includes(word.toLowerCase()))) {
      problems.push(
        `did not say it could not map “${word}” (said: ${result.unmapped.join(' | ') || 'nothing'})`,
      );
    }
  }
  const extra = result.unmapped.filter(
    (line) => !wantedWords.some((word) => line.toLowerCase().includes(word.toLowerCase())),
  );
  if (extra.length > 0) problems.push(`said it did not understand: ${extra.join(' | ')}`);

  // A draft that can be saved: the graph has no problem, and every node but the proposed actions is valid.
  const nodes = (result.draft.nodes as Node[]).filter((node) => !node.data.proposedAction);
  const parsed = nodes.map((node) => pipelineNodeSchema.safeParse(node));
  parsed.forEach((outcome, i) => {
    if (!outcome.success)
      problems.push(`node ${nodes[i]?.id}: ${outcome.error.issues.map((issue) => issue.message).join('; ')}`);
  });
  const graphProblems = validatePipelineGraph(
    withEdgeIds({ nodes: result.draft.nodes as PipelineNode[], edges: result.draft.edges as Edge[] }),
  );
  if (graphProblems.length > 0)
    problems.push(`graph: ${graphProblems.map((problem) => problem.message).join('; ')}`);
  return problems;
}

export function runCase(testCase: GeneratorCase): GeneratedPipeline {
  return generateBuiltin(testCase.prompt, catalogs[testCase.catalog ?? 'demo']);
}

describe('the pipeline generator test set', () => {
  it('holds at least 25 requests', () => {
    expect(GENERATOR_CASES.length).toBeGreaterThanOrEqual(25);
  });

  it(`gets at least ${TARGET * 100} % of the requests right with the built-in engine`, () => {
    const failures: { prompt: string; problems: string[] }[] = [];
    for (const testCase of GENERATOR_CASES) {
      const problems = differences(testCase, runCase(testCase));
      if (problems.length > 0) failures.push({ prompt: testCase.prompt, problems });
    }
    const right = GENERATOR_CASES.length - failures.length;
    if (failures.length > 0) {
      console.log(
        [
          'pipeline generator: requests it got wrong',
          ...failures.map(
            ({ prompt, problems }) =>
              `  “${prompt}”\n${problems.map((problem) => `      - ${problem}`).join('\n')}`,
          ),
        ].join('\n'),
      );
    }
    console.log(
      `pipeline generator: ${right}/${GENERATOR_CASES.length} right (${((right / GENERATOR_CASES.length) * 100).toFixed(1)} %)`,
    );
    expect(right / GENERATOR_CASES.length).toBeGreaterThanOrEqual(TARGET);
  });

  it('answers in the response schema, with positions on every node', () => {
    for (const testCase of GENERATOR_CASES) {
      const result = runCase(testCase);
      expect(() => generatePipelineResponse.parse(result), testCase.prompt).not.toThrow();
      for (const node of result.draft.nodes as { position?: unknown }[]) expect(node.position).toBeDefined();
    }
  });
});
