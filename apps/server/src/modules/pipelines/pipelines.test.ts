import { randomUUID } from 'node:crypto';
import {
  PIPELINE_MESSAGES,
  PIPELINE_RUN_STATUSES,
  PIPELINE_STEP_STATUSES,
  PIPELINE_TRIGGER_KINDS,
  type PipelineDetail,
  type PipelineListResponse,
} from '@courselens/contracts';
import { and, eq } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertCourse, insertVariable } from '../../db/factories/learning';
import {
  PIPELINE_RUN_STATUS_VALUES,
  PIPELINE_STEP_STATUS_VALUES,
  PIPELINE_TRIGGER_KIND_VALUES,
  actions,
  activityEvents,
  courseVariableMappings,
  pipelineVersions,
  pipelines,
} from '../../db/schema';
import type { JobDefinition } from '../../jobs/job-runner';
import { hasActivePipeline } from './pipelines.queries';
import { createTestApp, type TestApp } from '../../test/app';
import { signUpViaApi, type SignedUp } from '../../test/auth';

// Pipelines through the real app: graphs saved as versions, the problems
// that keep one off, the list's status and counts, the course-variable
// mappings and cron schedules that follow whether a pipeline is on.

let testApp: TestApp;
let owner: SignedUp;
let stranger: SignedUp;
let courseId: string;
let otherCourseId: string;
let actionId: string;
let scoreVariableId: string;

const db = () => testApp.database.db;
const inject = (options: InjectOptions) => testApp.app.inject(options);
const orgId = () => owner.organization.id;

beforeAll(async () => {
  testApp = await createTestApp();
  owner = await signUpViaApi(testApp.app, { name: 'Paula Pipes' });
  stranger = await signUpViaApi(testApp.app);
  const course = await insertCourse(db(), { organizationId: orgId(), courseTitle: 'Safety basics' });
  const other = await insertCourse(db(), { organizationId: orgId(), courseTitle: 'Fire drill' });
  courseId = course.id;
  otherCourseId = other.id;
  const [action] = await db()
    .insert(actions)
    .values({
      organizationId: orgId(),
      name: 'Tell the team',
      actionType: 'notify_team',
      config: { message: 'Done: {{learner.email}}', roles: ['owner'] },
      createdBy: owner.user.id,
    })
    .returning();
  actionId = action!.id;
  const variable = await insertVariable(db(), {
    organizationId: orgId(),
    courseId,
    name: 'final_score',
    dataType: 'number',
  });
  scoreVariableId = variable.id;
});

afterAll(async () => {
  await testApp.close();
});

function completionGraph(course = courseId, action = actionId) {
  return {
    nodes: [
      {
        id: 'source',
        type: 'course',
        position: { x: 0, y: 0 },
        data: { courseId: course, on: 'completion' },
      },
      { id: 'notify', type: 'action', position: { x: 200, y: 0 }, data: { actionId: action } },
    ],
    edges: [{ source: 'source', target: 'notify' }],
  };
}

async function create(payload: Record<string, unknown>, headers = owner.headers) {
  return inject({ method: 'POST', url: '/api/pipelines', headers, payload });
}

describe('the statuses of the contract and the schema', () => {
  it('are the same lists', () => {
    expect([...PIPELINE_RUN_STATUS_VALUES]).toEqual([...PIPELINE_RUN_STATUSES]);
    expect([...PIPELINE_STEP_STATUS_VALUES]).toEqual([...PIPELINE_STEP_STATUSES]);
    expect([...PIPELINE_TRIGGER_KIND_VALUES]).toEqual([...PIPELINE_TRIGGER_KINDS]);
  });
});

describe('creating a pipeline', () => {
  it('saves an active pipeline whose course node reacts on completion as version 1', async () => {
    const response = await create({ name: 'Completion to the team', active: true, ...completionGraph() });
    expect(response.statusCode, response.body).toBe(201);
    const body = response.json<PipelineDetail>();
    expect(body).toMatchObject({
      name: 'Completion to the team',
      active: true,
      status: 'active',
      version: 1,
      sources: ['course'],
      nodeCount: 2,
      problems: [],
      createdByName: 'Paula Pipes',
      runs: { total: 0, succeeded: 0, failed: 0, running: 0 },
      lastRunAt: null,
    });
    expect(body.nodes[0]).toMatchObject({ data: { courseId, events: ['course.completed'] } });
    expect(body.edges).toEqual([{ id: 'source->notify', source: 'source', target: 'notify' }]);
    const versions = await db()
      .select()
      .from(pipelineVersions)
      .where(eq(pipelineVersions.pipelineId, body.id));
    expect(versions.map((version) => version.version)).toEqual([1]);
  });

  it('keeps a draft with problems off and says what they are', async () => {
    const response = await create({
      name: 'Draft',
      nodes: [{ id: 'a', type: 'action', data: { actionId } }],
      edges: [],
    });
    expect(response.statusCode).toBe(201);
    const body = response.json<PipelineDetail>();
    expect(body.status).toBe('inactive');
    expect(body.problems.map((problem) => problem.message)).toEqual([
      PIPELINE_MESSAGES.noSource,
      PIPELINE_MESSAGES.unconnected('Action a'),
    ]);
  });

  it('refuses to turn on a graph with problems: 400 with the problems, nothing saved', async () => {
    const before = await db().select().from(pipelines).where(eq(pipelines.organizationId, orgId()));
    const missingCourse = randomUUID();
    const response = await create({
      name: 'Broken',
      active: true,
      ...completionGraph(missingCourse),
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      error: PIPELINE_MESSAGES.cannotActivate,
      code: 'VALIDATION_ERROR',
      issues: [{ path: 'nodes.source', message: PIPELINE_MESSAGES.unknownCourse('Course events source') }],
    });
    const after = await db().select().from(pipelines).where(eq(pipelines.organizationId, orgId()));
    expect(after).toHaveLength(before.length);
  });

  it('names an action, a chatbot and a variable that do not exist', async () => {
    const response = await inject({
      method: 'POST',
      url: '/api/pipelines/validate',
      headers: owner.headers,
      payload: {
        nodes: [
          { id: 'bot', type: 'chatbot', data: { chatbotId: randomUUID() } },
          { id: 'act', type: 'action', data: { actionId: randomUUID(), label: 'Ghost' } },
          {
            id: 'map',
            type: 'map_variables',
            data: { destinationVariableId: randomUUID(), sources: [{ courseId, variableName: 'score' }] },
          },
        ],
        edges: [{ source: 'bot', target: 'act' }],
      },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json<{ problems: { message: string }[] }>().problems.map((p) => p.message)).toEqual([
      PIPELINE_MESSAGES.unknownChatbot('Chatbot events bot'),
      PIPELINE_MESSAGES.unknownAction('Ghost'),
      PIPELINE_MESSAGES.unknownVariable('Map variables map'),
    ]);
  });

  it('answers 400 for a node of an unknown type and for a course event that does not exist', async () => {
    const unknownType = await create({
      name: 'x',
      nodes: [{ id: 'a', type: 'teleport', data: {} }],
      edges: [],
    });
    expect(unknownType.statusCode).toBe(400);
    const unknownEvent = await create({
      name: 'x',
      nodes: [{ id: 'a', type: 'course', data: { courseId, events: ['course.finished'] } }],
      edges: [],
    });
    expect(unknownEvent.statusCode).toBe(400);
    expect(unknownEvent.body).toContain('Unknown course event');
  });
});

describe('changing a pipeline', () => {
  it('saves a changed graph as a new version, a new name alone as none, and restores an old one', async () => {
    const created = (await create({ name: 'Versions', ...completionGraph() })).json<PipelineDetail>();
    const renamed = await inject({
      method: 'PATCH',
      url: `/api/pipelines/${created.id}`,
      headers: owner.headers,
      payload: { name: 'Versions, renamed' },
    });
    expect(renamed.json<PipelineDetail>()).toMatchObject({ name: 'Versions, renamed', version: 1 });

    const other = completionGraph(otherCourseId);
    const changed = await inject({
      method: 'PATCH',
      url: `/api/pipelines/${created.id}`,
      headers: owner.headers,
      payload: other,
    });
    expect(changed.json<PipelineDetail>()).toMatchObject({ version: 2 });
    // The same graph again is no new version.
    const same = await inject({
      method: 'PATCH',
      url: `/api/pipelines/${created.id}`,
      headers: owner.headers,
      payload: other,
    });
    expect(same.json<PipelineDetail>()).toMatchObject({ version: 2 });

    const versions = await inject({
      method: 'GET',
      url: `/api/pipelines/${created.id}/versions`,
      headers: owner.headers,
    });
    expect(versions.json()).toMatchObject({
      items: [
        { version: 2, nodeCount: 2, runs: 0, createdByName: 'Paula Pipes' },
        { version: 1, nodeCount: 2, runs: 0 },
      ],
    });

    const restored = await inject({
      method: 'POST',
      url: `/api/pipelines/${created.id}/versions/1/restore`,
      headers: owner.headers,
    });
    expect(restored.statusCode, restored.body).toBe(200);
    const body = restored.json<PipelineDetail>();
    expect(body.version).toBe(3);
    expect(body.nodes[0]).toMatchObject({ data: { courseId } });

    const missing = await inject({
      method: 'POST',
      url: `/api/pipelines/${created.id}/versions/99/restore`,
      headers: owner.headers,
    });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ error: PIPELINE_MESSAGES.versionNotFound });
  });

  it('turns a pipeline on and off, refusing "on" while it has problems, and logs each', async () => {
    const draft = (
      await create({ name: 'Switch', nodes: [{ id: 'a', type: 'action', data: { actionId } }], edges: [] })
    ).json<PipelineDetail>();
    const refused = await inject({
      method: 'PATCH',
      url: `/api/pipelines/${draft.id}`,
      headers: owner.headers,
      payload: { active: true },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ error: PIPELINE_MESSAGES.cannotActivate });
    const [still] = await db().select().from(pipelines).where(eq(pipelines.id, draft.id));
    expect(still?.active).toBe(false);

    const fixed = await inject({
      method: 'PATCH',
      url: `/api/pipelines/${draft.id}`,
      headers: owner.headers,
      payload: { ...completionGraph(), active: true },
    });
    expect(fixed.statusCode, fixed.body).toBe(200);
    expect(fixed.json<PipelineDetail>()).toMatchObject({ active: true, status: 'active', version: 2 });
    const off = await inject({
      method: 'PATCH',
      url: `/api/pipelines/${draft.id}`,
      headers: owner.headers,
      payload: { active: false },
    });
    expect(off.json<PipelineDetail>()).toMatchObject({ active: false, status: 'inactive' });
    const kinds = await db()
      .select({ kind: activityEvents.kind, summary: activityEvents.summary })
      .from(activityEvents)
      .where(and(eq(activityEvents.subjectType, 'pipeline'), eq(activityEvents.subjectId, draft.id)));
    expect(kinds.map((entry) => entry.kind)).toEqual([
      'pipeline.created',
      'pipeline.activated',
      'pipeline.deactivated',
    ]);
    expect(kinds[1]?.summary).toBe('Pipeline “Switch” turned on');
  });

  it('refuses a change of the graph of an active pipeline that has problems', async () => {
    const active = (
      await create({ name: 'Live', active: true, ...completionGraph() })
    ).json<PipelineDetail>();
    const response = await inject({
      method: 'PATCH',
      url: `/api/pipelines/${active.id}`,
      headers: owner.headers,
      payload: { nodes: completionGraph().nodes, edges: [] },
    });
    expect(response.statusCode).toBe(400);
    const [row] = await db().select().from(pipelines).where(eq(pipelines.id, active.id));
    expect(row?.version).toBe(1);
  });

  it('deletes a pipeline with its versions', async () => {
    const doomed = (await create({ name: 'Doomed', ...completionGraph() })).json<PipelineDetail>();
    const response = await inject({
      method: 'DELETE',
      url: `/api/pipelines/${doomed.id}`,
      headers: owner.headers,
    });
    expect(response.statusCode).toBe(204);
    expect(
      await db().select().from(pipelineVersions).where(eq(pipelineVersions.pipelineId, doomed.id)),
    ).toEqual([]);
    const again = await inject({ method: 'GET', url: `/api/pipelines/${doomed.id}`, headers: owner.headers });
    expect(again.statusCode).toBe(404);
    expect(again.json()).toMatchObject({ error: PIPELINE_MESSAGES.notFound });
  });

  it('answers 404 for another organization’s pipeline, like one that does not exist', async () => {
    const mine = (await create({ name: 'Private', ...completionGraph() })).json<PipelineDetail>();
    const theirs = await inject({
      method: 'GET',
      url: `/api/pipelines/${mine.id}`,
      headers: stranger.headers,
    });
    const missing = await inject({
      method: 'GET',
      url: `/api/pipelines/${randomUUID()}`,
      headers: stranger.headers,
    });
    expect(theirs.statusCode).toBe(404);
    expect(theirs.body).toBe(missing.body);
  });
});

describe('whether an organization has an active pipeline', () => {
  it('answers from the active flag alone, for that organization alone', async () => {
    const other = await signUpViaApi(testApp.app, { name: 'Nora No Pipelines' });
    const organizationId = other.organization.id;
    expect(await hasActivePipeline(db(), organizationId)).toBe(false);
    const [draft] = await db()
      .insert(pipelines)
      .values({ organizationId, name: 'Off', active: false })
      .returning({ id: pipelines.id });
    expect(await hasActivePipeline(db(), organizationId)).toBe(false);
    await db().update(pipelines).set({ active: true }).where(eq(pipelines.id, draft!.id));
    expect(await hasActivePipeline(db(), organizationId)).toBe(true);
    await db().delete(pipelines).where(eq(pipelines.id, draft!.id));
  });
});

describe('the list', () => {
  it('searches, filters by status, sorts and pages', async () => {
    const list = async (query: string) =>
      (
        await inject({ method: 'GET', url: `/api/pipelines?${query}`, headers: owner.headers })
      ).json<PipelineListResponse>();
    const all = await list('pageSize=100');
    expect(all.total).toBeGreaterThanOrEqual(6);
    expect(all.items.every((item) => item.runs.total === 0)).toBe(true);

    const active = await list('status=active&pageSize=100');
    expect(active.items.length).toBeGreaterThan(0);
    expect(active.items.every((item) => item.status === 'active')).toBe(true);
    const inactive = await list('status=inactive&pageSize=100');
    expect(inactive.total + active.total).toBe(all.total);

    const found = await list('q=VERSIONS');
    expect(found.items.map((item) => item.name)).toEqual(['Versions, renamed']);

    const byName = await list('sort=name&order=asc&pageSize=100');
    const names = byName.items.map((item) => item.name.toLowerCase());
    expect(names).toEqual([...names].sort());

    const paged = await list('sort=name&order=asc&pageSize=2&page=2');
    expect(paged.items.map((item) => item.name)).toEqual(byName.items.slice(2, 4).map((item) => item.name));
  });

  it('shows an active pipeline whose course was deleted as unable to run', async () => {
    const course = await insertCourse(db(), { organizationId: orgId(), courseTitle: 'Soon gone' });
    const pipeline = (
      await create({ name: 'Orphan', active: true, ...completionGraph(course.id) })
    ).json<PipelineDetail>();
    const deleted = await inject({
      method: 'DELETE',
      url: `/api/courses/${course.id}`,
      headers: owner.headers,
    });
    expect(deleted.statusCode).toBe(200);
    const detail = (
      await inject({ method: 'GET', url: `/api/pipelines/${pipeline.id}`, headers: owner.headers })
    ).json<PipelineDetail>();
    expect(detail.status).toBe('invalid');
    expect(detail.problems.map((problem) => problem.message)).toEqual([
      PIPELINE_MESSAGES.unknownCourse('Course events source'),
    ]);
  });
});

describe('map-variables nodes', () => {
  function mapping(name = 'score') {
    return {
      nodes: [
        {
          id: 'map',
          type: 'map_variables',
          data: {
            destinationVariableId: scoreVariableId,
            sources: [{ courseId: otherCourseId, variableName: name }],
          },
        },
      ],
      edges: [],
    };
  }
  const mappings = () =>
    db().select().from(courseVariableMappings).where(eq(courseVariableMappings.organizationId, orgId()));

  it('hold their mappings while the pipeline is on, and not after', async () => {
    const created = (await create({ name: 'One score', active: true, ...mapping() })).json<PipelineDetail>();
    expect(created.problems).toEqual([]);
    expect(await mappings()).toMatchObject([
      { courseId: otherCourseId, sourceVariableName: 'score', destinationVariableId: scoreVariableId },
    ]);

    const taken = await create({ name: 'Same score', active: true, ...mapping() });
    expect(taken.statusCode).toBe(400);
    expect(taken.json()).toMatchObject({
      issues: [{ message: PIPELINE_MESSAGES.mappingTaken('score', 'One score') }],
    });

    await inject({
      method: 'PATCH',
      url: `/api/pipelines/${created.id}`,
      headers: owner.headers,
      payload: { active: false },
    });
    expect(await mappings()).toEqual([]);

    await inject({
      method: 'PATCH',
      url: `/api/pipelines/${created.id}`,
      headers: owner.headers,
      payload: { active: true },
    });
    expect(await mappings()).toHaveLength(1);
    await inject({ method: 'DELETE', url: `/api/pipelines/${created.id}`, headers: owner.headers });
    expect(await mappings()).toEqual([]);
  });
});

describe('schedule sources', () => {
  const scheduleDefinition = { name: 'pipelines.schedule' } as unknown as JobDefinition<never>;

  it('get a cron schedule while the pipeline is on, and lose it when it is off', async () => {
    const created = (
      await create({
        name: 'Mondays',
        active: true,
        nodes: [
          { id: 'weekly', type: 'schedule', data: { cron: '0 8 * * 1', timeZone: 'Europe/Paris' } },
          { id: 'notify', type: 'action', data: { actionId } },
        ],
        edges: [{ source: 'weekly', target: 'notify' }],
      })
    ).json<PipelineDetail>();
    const keys = async () =>
      (await testApp.jobs.scheduleKeys(scheduleDefinition)).filter((key) => key.startsWith(created.id));
    expect(await keys()).toHaveLength(1);
    await inject({
      method: 'PATCH',
      url: `/api/pipelines/${created.id}`,
      headers: owner.headers,
      payload: { active: false },
    });
    expect(await keys()).toEqual([]);
  });
});
