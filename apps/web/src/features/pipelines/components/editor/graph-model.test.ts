import { CONDITION_MESSAGES, PIPELINE_MESSAGES } from '@courselens/contracts';
import { describe, expect, it } from 'vitest';

import { autoLayout } from './auto-layout';
import {
  EDITOR_MESSAGES,
  addConnection,
  connectionProblem,
  defaultNodeData,
  graphFromApi,
  graphProblems,
  graphToApi,
  nextNodeId,
  nodeSummary,
  removeElements,
  serverOnlyProblems,
  type EditorGraph,
  type EditorNode,
} from './graph-model';

const COURSE = '11111111-1111-4111-8111-111111111111';
const ACTION = '22222222-2222-4222-8222-222222222222';
const AGENT = '55555555-5555-4555-8555-555555555555';

const node = (id: string, type: EditorNode['type'], data: Record<string, unknown>): EditorNode => ({
  id,
  type,
  position: { x: 0, y: 0 },
  data,
});

const course = node('course-1', 'course', { courseId: COURSE, events: ['course.completed'] });
const action = node('action-1', 'action', { actionId: ACTION });
const branch = node('branch-1', 'branch', {
  match: 'all',
  conditions: [{ field: 'event.score', op: 'gte', value: 80 }],
});

const lookups = {
  courseTitle: (id: string) => (id === COURSE ? 'Fire safety' : null),
  actionName: (id: string) => (id === ACTION ? 'Tell the LMS' : null),
  variableName: () => null,
  chatbotName: (id: string) => (id === AGENT ? 'Onboarding guide' : null),
};

describe('graphProblems', () => {
  it('says an action standing alone must be connected, until it is', () => {
    const apart: EditorGraph = { nodes: [course, action], edges: [] };
    const messages = graphProblems(apart).map((problem) => problem.message);
    expect(messages).toContain(PIPELINE_MESSAGES.unconnected('Action action-1'));
    const connected = addConnection(apart, { source: 'course-1', target: 'action-1', sourceHandle: null });
    expect(graphProblems(connected)).toEqual([]);
  });

  it('puts unfinished forms first, in the contract’s words, and the graph rules after', () => {
    const graph: EditorGraph = { nodes: [node('course-1', 'course', defaultNodeData('course'))], edges: [] };
    const problems = graphProblems(graph);
    expect(problems[0]).toEqual({
      kind: 'form',
      nodeId: 'course-1',
      message: 'Course events course-1: Choose a course',
    });
    expect(problems.filter((problem) => problem.kind === 'graph').map((problem) => problem.message)).toEqual([
      PIPELINE_MESSAGES.noAction,
      PIPELINE_MESSAGES.unconnected('Course events course-1'),
    ]);
  });

  it('names a node by its label when it has one', () => {
    const labelled = node('action-1', 'action', { actionId: '', label: 'Tell the LMS' });
    const messages = graphProblems({ nodes: [labelled], edges: [] }).map((problem) => problem.message);
    expect(messages).toContain('Tell the LMS: Choose an action');
  });

  it('asks for at least one course event', () => {
    const none = node('course-1', 'course', { courseId: COURSE, events: [] });
    expect(graphProblems({ nodes: [none], edges: [] })[0]?.message).toBe(
      `Course events course-1: ${EDITOR_MESSAGES.chooseEvent}`,
    );
  });

  it('asks for at least one chatbot event in plain words', () => {
    const none = node('chatbot-1', 'chatbot', { chatbotId: AGENT, events: [] });
    expect(graphProblems({ nodes: [none], edges: [] }).filter((problem) => problem.kind === 'form')).toEqual([
      {
        kind: 'form',
        nodeId: 'chatbot-1',
        message: `Chatbot events chatbot-1: ${EDITOR_MESSAGES.chooseEvent}`,
      },
    ]);
  });

  it('checks conditions with the contract (learner.count needs what is counted)', () => {
    const filter = node('filter-1', 'filter', {
      match: 'all',
      conditions: [{ field: 'learner.count', op: 'gte', value: 2 }],
    });
    const messages = graphProblems({ nodes: [filter], edges: [] }).map((problem) => problem.message);
    expect(messages).toContain(`Filter filter-1: ${CONDITION_MESSAGES.eventTypeRequired}`);
  });

  it('leaves out the server problems the editor already shows', () => {
    const local = graphProblems({ nodes: [course, action], edges: [] });
    const server = serverOnlyProblems(
      [
        { nodeId: 'action-1', message: PIPELINE_MESSAGES.unconnected('Action action-1') },
        { nodeId: 'action-1', message: PIPELINE_MESSAGES.unknownAction('Action action-1') },
      ],
      local,
    );
    expect(server).toEqual([
      { kind: 'server', nodeId: 'action-1', message: PIPELINE_MESSAGES.unknownAction('Action action-1') },
    ]);
  });
});

describe('connections', () => {
  const graph: EditorGraph = { nodes: [course, branch, action], edges: [] };

  it('refuses what the graph rules would refuse, with a reason', () => {
    expect(connectionProblem(graph, { source: 'action-1', target: 'branch-1', sourceHandle: null })).toBe(
      EDITOR_MESSAGES.connectFromAction('Action action-1'),
    );
    expect(connectionProblem(graph, { source: 'branch-1', target: 'course-1', sourceHandle: 'yes' })).toBe(
      EDITOR_MESSAGES.connectToSource('Course events course-1'),
    );
    expect(connectionProblem(graph, { source: 'branch-1', target: 'action-1', sourceHandle: null })).toBe(
      EDITOR_MESSAGES.branchWay,
    );
    expect(connectionProblem(graph, { source: 'course-1', target: 'course-1', sourceHandle: null })).toBe(
      EDITOR_MESSAGES.sameNode,
    );
  });

  it('keeps the way out of a branch and refuses a second connection between the same nodes', () => {
    const connected = addConnection(graph, { source: 'branch-1', target: 'action-1', sourceHandle: 'yes' });
    expect(connected.edges).toEqual([
      { id: 'branch-1->action-1:yes', source: 'branch-1', target: 'action-1', sourceHandle: 'yes' },
    ]);
    expect(connectionProblem(connected, { source: 'branch-1', target: 'action-1', sourceHandle: 'no' })).toBe(
      EDITOR_MESSAGES.duplicateEdge,
    );
  });

  it('refuses a connection that closes a loop', () => {
    const filter = node('filter-1', 'filter', branch.data);
    const delay = node('delay-1', 'delay', { amount: 1, unit: 'hours' });
    let looped: EditorGraph = { nodes: [filter, delay], edges: [] };
    looped = addConnection(looped, { source: 'filter-1', target: 'delay-1', sourceHandle: null });
    expect(connectionProblem(looped, { source: 'delay-1', target: 'filter-1', sourceHandle: null })).toBe(
      EDITOR_MESSAGES.loop,
    );
  });

  it('removes a node with its connections in one step', () => {
    const connected = addConnection(
      addConnection(graph, { source: 'course-1', target: 'branch-1', sourceHandle: null }),
      { source: 'branch-1', target: 'action-1', sourceHandle: 'no' },
    );
    const removed = removeElements(connected, new Set(['branch-1']), new Set());
    expect(removed.nodes.map((item) => item.id)).toEqual(['course-1', 'action-1']);
    expect(removed.edges).toEqual([]);
  });
});

describe('reading and writing the API’s shape', () => {
  it('gives new nodes the first free id of their type', () => {
    expect(nextNodeId({ nodes: [course], edges: [] }, 'course')).toBe('course-2');
    expect(nextNodeId({ nodes: [], edges: [] }, 'map_variables')).toBe('map-variables-1');
  });

  it('reads edges without ids and nodes without positions, and writes whole positions', () => {
    const read = graphFromApi(
      [
        { id: 'course-1', type: 'course', data: { courseId: COURSE } },
        { id: 'action-1', type: 'action', position: { x: 10.4, y: 2.6 }, data: { actionId: ACTION } },
        { id: 'odd', type: 'not-a-node' },
      ],
      [{ source: 'course-1', target: 'action-1' }],
    );
    expect(read.hasMissingPositions).toBe(true);
    expect(read.nodes.map((item) => item.id)).toEqual(['course-1', 'action-1']);
    expect(read.edges[0]?.id).toBe('course-1->action-1');
    expect(graphToApi(read).nodes[1]?.position).toEqual({ x: 10, y: 3 });
  });

  it('describes what each node does', () => {
    expect(nodeSummary(course, lookups)).toBe('Fire safety · Completed the course');
    expect(nodeSummary(action, lookups)).toBe('Tell the LMS');
    expect(nodeSummary(branch, lookups)).toBe('The score of a pass or a fail is at least 80');
    expect(nodeSummary(node('delay-1', 'delay', { amount: 1, unit: 'hours' }), lookups)).toBe('Wait 1 hour');
    expect(nodeSummary(node('delay-2', 'delay', { amount: 3, unit: 'days' }), lookups)).toBe('Wait 3 days');
  });

  it('names the agent of a chatbot source, as a course source names its course', () => {
    expect(nodeSummary(node('chatbot-1', 'chatbot', defaultNodeData('chatbot')), lookups)).toBe(
      'Choose an agent · Every event',
    );
    expect(
      nodeSummary(node('chatbot-1', 'chatbot', { chatbotId: AGENT, events: ['chat.ended'] }), lookups),
    ).toBe('Onboarding guide · Has given every required value');
    expect(
      nodeSummary(
        node('chatbot-1', 'chatbot', { chatbotId: AGENT, events: ['chat.started', 'chat.ended'] }),
        lookups,
      ),
    ).toBe('Onboarding guide · 2 events');
  });
});

describe('autoLayout', () => {
  it('lays the graph out from left to right: sources, then steps, then actions', () => {
    const graph = addConnection(
      addConnection(
        { nodes: [action, branch, course], edges: [] },
        {
          source: 'course-1',
          target: 'branch-1',
          sourceHandle: null,
        },
      ),
      { source: 'branch-1', target: 'action-1', sourceHandle: 'yes' },
    );
    const laidOut = autoLayout(graph);
    const x = (id: string) => laidOut.nodes.find((item) => item.id === id)!.position.x;
    expect(x('course-1')).toBeLessThan(x('branch-1'));
    expect(x('branch-1')).toBeLessThan(x('action-1'));
  });
});
