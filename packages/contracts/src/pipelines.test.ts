import { describe, expect, it } from 'vitest';
import {
  PIPELINE_MESSAGES,
  conditionHolds,
  conditionSchema,
  courseEventType,
  createPipelineInput,
  dryRunInput,
  isCronExpression,
  testRunInput,
  updatePipelineInput,
  validatePipelineGraph,
  withEdgeIds,
} from './pipelines';

const COURSE = '7d0c8f0e-3f5b-4d0a-9a51-1f2b3c4d5e6f';
const ACTION = '0b7f6a2e-5c4d-4e3f-8a9b-0c1d2e3f4a5b';

/** Parses a graph written as literal objects (read-only arrays included). */
function graph(input: { nodes: readonly unknown[]; edges: readonly unknown[] }) {
  const parsed = createPipelineInput.parse({ name: 'Test', ...input });
  return withEdgeIds(parsed);
}

describe('course node events', () => {
  it('takes full names, short names, one name or a list, and defaults to every course event', () => {
    const parse = (data: Record<string, unknown>) =>
      createPipelineInput.parse({ name: 'x', nodes: [{ id: 'a', type: 'course', data }] }).nodes[0];
    expect(parse({ courseId: COURSE, events: ['course.completed'] })).toMatchObject({
      data: { events: ['course.completed'] },
    });
    expect(parse({ courseId: COURSE, event: 'completed' })).toMatchObject({
      data: { events: ['course.completed'] },
    });
    expect(parse({ courseId: COURSE, on: 'completion' })).toMatchObject({
      data: { events: ['course.completed'] },
    });
    expect(parse({ courseId: COURSE, trigger: ['passed', 'course.failed'] })).toMatchObject({
      data: { events: ['course.passed', 'course.failed'] },
    });
    expect((parse({ courseId: COURSE })?.data as { events: string[] }).events).toHaveLength(9);
  });

  it('refuses an unknown event with the list of known ones', () => {
    const result = createPipelineInput.safeParse({
      name: 'x',
      nodes: [{ id: 'a', type: 'course', data: { courseId: COURSE, events: ['course.finished'] } }],
    });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toMatch(/^Unknown course event "course.finished": use one of /);
  });

  it('maps short names and leaves unknown words alone', () => {
    expect(courseEventType('Completed')).toBe('course.completed');
    expect(courseEventType('course_failed')).toBe('course.failed');
    expect(courseEventType('slide viewed')).toBe('slide.viewed');
    expect(courseEventType('finished')).toBeNull();
  });
});

describe('validatePipelineGraph', () => {
  const course = {
    id: 'source',
    type: 'course',
    data: { courseId: COURSE, events: ['course.completed'] },
  } as const;
  const action = { id: 'hook', type: 'action', data: { actionId: ACTION, label: 'Tell the LMS' } } as const;

  it('accepts a course source connected to an action', () => {
    expect(
      validatePipelineGraph(
        graph({ nodes: [course, action], edges: [{ source: 'source', target: 'hook' }] }),
      ),
    ).toEqual([]);
  });

  it('asks for a source and an action in an empty graph', () => {
    expect(validatePipelineGraph(graph({ nodes: [], edges: [] })).map((p) => p.message)).toEqual([
      PIPELINE_MESSAGES.noSource,
      PIPELINE_MESSAGES.noAction,
    ]);
  });

  it('lets a pipeline of mappings alone stand without a source or an action', () => {
    const map = {
      id: 'm',
      type: 'map_variables',
      data: { destinationVariableId: ACTION, sources: [{ courseId: COURSE, variableName: 'score' }] },
    } as const;
    expect(validatePipelineGraph(graph({ nodes: [map], edges: [] }))).toEqual([]);
  });

  it('names an unconnected node by its label', () => {
    const problems = validatePipelineGraph(graph({ nodes: [course, action], edges: [] }));
    expect(problems).toContainEqual({
      nodeId: 'hook',
      message: 'Connect "Tell the LMS" to the rest of the pipeline',
    });
    expect(problems).toContainEqual({
      nodeId: 'source',
      message: 'Connect "Course events source" to the rest of the pipeline',
    });
  });

  it('finds a loop and says which nodes form it', () => {
    const nodes = [
      course,
      { id: 'f1', type: 'filter', data: { conditions: [{ field: 'event.score', op: 'lt', value: 50 }] } },
      { id: 'd1', type: 'delay', data: { amount: 1, unit: 'hours' } },
      action,
    ] as const;
    const problems = validatePipelineGraph(
      graph({
        nodes: [...nodes],
        edges: [
          { source: 'source', target: 'f1' },
          { source: 'f1', target: 'd1' },
          { source: 'd1', target: 'f1' },
          { source: 'd1', target: 'hook' },
        ],
      }),
    );
    expect(problems.map((p) => p.message)).toEqual(['These nodes form a loop: "Filter f1" → "Delay d1"']);
  });

  it('refuses edges into a source, out of an action, to nowhere, and branch edges without a side', () => {
    const branch = {
      id: 'b1',
      type: 'branch',
      data: { conditions: [{ field: 'learner.email', op: 'ends_with', value: '@example.com' }] },
    } as const;
    const messages = validatePipelineGraph(
      graph({
        nodes: [course, branch, action],
        edges: [
          { source: 'source', target: 'b1' },
          { source: 'b1', target: 'hook' },
          { source: 'hook', target: 'source' },
          { source: 'b1', target: 'ghost', sourceHandle: 'yes' },
        ],
      }),
    ).map((p) => p.message);
    expect(messages).toContain(PIPELINE_MESSAGES.danglingEdge('ghost'));
    expect(messages).toContain(PIPELINE_MESSAGES.sourceHasInput('Course events source'));
    expect(messages).toContain(PIPELINE_MESSAGES.actionHasOutput('Tell the LMS'));
    expect(messages).toContain(PIPELINE_MESSAGES.branchHandle('Branch b1'));
  });

  it('reports two nodes with one id', () => {
    const problems = validatePipelineGraph(
      graph({ nodes: [course, { ...action, id: 'source' }], edges: [] }),
    );
    expect(problems.map((p) => p.message)).toContain(PIPELINE_MESSAGES.duplicateNode('source'));
  });
});

describe('conditions', () => {
  const holds = (condition: Record<string, unknown>, actual: unknown) =>
    conditionHolds(conditionSchema.parse(condition), actual);

  it('compares numbers as numbers and text without regard to case', () => {
    expect(holds({ field: 'event.score', op: 'lt', value: 50 }, 42)).toBe(true);
    expect(holds({ field: 'event.score', op: 'lt', value: 50 }, '42')).toBe(true);
    expect(holds({ field: 'event.score', op: 'gte', value: 50 }, 'n/a')).toBe(false);
    expect(holds({ field: 'event.value', op: 'eq', value: 'Sales' }, 'sales')).toBe(true);
    expect(holds({ field: 'event.value', op: 'eq', value: 10 }, '10.0')).toBe(true);
    expect(holds({ field: 'learner.email', op: 'ends_with', value: '@ACME.com' }, 'sam@acme.com')).toBe(true);
    expect(holds({ field: 'event.value', op: 'in', value: ['a', 'b'] }, 'B')).toBe(true);
  });

  it('treats a missing value as not set, unequal and not containing', () => {
    expect(holds({ field: 'event.value', op: 'exists' }, null)).toBe(false);
    expect(holds({ field: 'event.value', op: 'not_exists' }, '')).toBe(true);
    expect(holds({ field: 'event.value', op: 'neq', value: 'x' }, undefined)).toBe(true);
    expect(holds({ field: 'event.value', op: 'eq', value: 'x' }, undefined)).toBe(false);
  });

  it('asks for what a condition needs', () => {
    const message = (condition: Record<string, unknown>) =>
      conditionSchema.safeParse(condition).error?.issues[0]?.message;
    expect(message({ field: 'event.score', op: 'gt' })).toBe('Give a value to compare event.score with');
    expect(message({ field: 'learner.variable', op: 'eq', value: 'x' })).toBe(
      'Choose the variable whose latest value is compared',
    );
    expect(message({ field: 'learner.count', op: 'gte', value: 2 })).toBe('Choose what is counted');
    expect(message({ field: 'learner.count', op: 'gte', value: 'two', eventType: 'course.failed' })).toBe(
      'learner.count is compared with a number',
    );
    expect(message({ field: 'event.value', op: 'in', value: 'a' })).toBe(
      'Give a list of values for "is one of"',
    );
  });
});

describe('isCronExpression', () => {
  it('accepts five fields of stars, numbers, ranges, lists and steps', () => {
    for (const valid of ['0 8 * * 1', '*/15 * * * *', '0 9-17 * * 1-5', '30 6 1,15 * *', '0 0 * * 7']) {
      expect(isCronExpression(valid)).toBe(true);
    }
  });

  it('refuses other field counts, out-of-range numbers, reversed ranges and zero steps', () => {
    for (const invalid of [
      '0 8 * *',
      '60 * * * *',
      '0 24 * * *',
      '0 0 0 * *',
      '0 0 * 13 *',
      '0 5-2 * * *',
      '*/0 * * * *',
      '@daily',
    ]) {
      expect(isCronExpression(invalid)).toBe(false);
    }
  });
});

describe('updatePipelineInput', () => {
  it('refuses an empty change and nodes without edges', () => {
    expect(updatePipelineInput.safeParse({}).error?.issues[0]?.message).toBe('Nothing to change');
    expect(updatePipelineInput.safeParse({ nodes: [] }).error?.issues[0]?.message).toBe(
      'Send the nodes and the edges together',
    );
  });
});

describe('test and dry runs', () => {
  it('are dry unless asked, and page the learners of a dry run', () => {
    expect(testRunInput.parse({ eventId: 'evt-1' })).toEqual({ eventId: 'evt-1', execute: false });
    expect(dryRunInput.parse({ from: '2026-03-01', to: '2026-03-31' })).toMatchObject({
      page: 1,
      pageSize: 25,
    });
    expect(dryRunInput.safeParse({ from: '1 March', to: '2026-03-31' }).error?.issues[0]?.message).toBe(
      'Dates are written YYYY-MM-DD',
    );
    expect(dryRunInput.safeParse({ from: '2026-03-01', to: '2026-03-31', pageSize: 500 }).success).toBe(
      false,
    );
  });
});
