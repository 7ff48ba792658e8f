import { randomUUID } from 'node:crypto';
import { OWNER_ONLY_MESSAGES } from '@courselens/contracts';
import { and, eq } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  activityEvents,
  apiKeys,
  courses,
  customReports,
  invitations,
  organizations,
  sharedViews,
  userOrganizations,
} from '../db/schema';
import { insertCourse, insertQuestion, insertVariable } from '../db/factories/learning';
import { authenticateApiKey } from '../modules/api-keys/api-keys.service';
import { createTestApp, type TestApp } from '../test/app';
import { bearer, signUpViaApi, type SignedUp } from '../test/auth';

/**
 * Roles (decision 008): what a team member may not do answers 403 with the
 * area's message and changes nothing (no row, no activity); what members may
 * do still works. The route-by-route table is in tenant.test.ts.
 */

let testApp: TestApp;
let owner: SignedUp;
let member: { token: string; userId: string; headers: { authorization: string } };
let ownerKey: { id: string; key: string };
let courseId: string;
let variableId: string;
let questionId: string;
let memberReportId: string;

const db = () => testApp.database.db;
const inject = (options: InjectOptions) => testApp.app.inject(options);

/** Every row an owner-only call could write, including the activity log. */
async function snapshot() {
  const organizationId = owner.organization.id;
  return {
    organization: await db().select().from(organizations).where(eq(organizations.id, organizationId)),
    memberships: await db()
      .select()
      .from(userOrganizations)
      .where(eq(userOrganizations.organizationId, organizationId)),
    invitations: await db().select().from(invitations).where(eq(invitations.organizationId, organizationId)),
    apiKeys: await db().select().from(apiKeys).where(eq(apiKeys.organizationId, organizationId)),
    courses: await db().select().from(courses).where(eq(courses.organizationId, organizationId)),
    reports: await db().select().from(customReports).where(eq(customReports.organizationId, organizationId)),
    sharedViews: await db().select().from(sharedViews).where(eq(sharedViews.organizationId, organizationId)),
    activity: await db()
      .select()
      .from(activityEvents)
      .where(eq(activityEvents.organizationId, organizationId)),
  };
}

/** The member's call is refused with `message`, and not one row changed. */
async function expectRefused(options: InjectOptions, message: string): Promise<void> {
  const before = await snapshot();
  const response = await inject({ ...options, headers: { ...member.headers, ...options.headers } });
  expect(response.statusCode, response.body).toBe(403);
  expect(response.json()).toEqual({ error: message, code: 'FORBIDDEN' });
  expect(await snapshot()).toEqual(before);
}

beforeAll(async () => {
  testApp = await createTestApp();
  owner = await signUpViaApi(testApp.app);
  const created = await inject({
    method: 'POST',
    url: '/api/api-keys',
    headers: owner.headers,
    payload: { name: 'LMS' },
  });
  expect(created.statusCode).toBe(201);
  ownerKey = created.json<{ id: string; key: string }>();

  const sent = await inject({
    method: 'POST',
    url: '/api/invitations',
    headers: owner.headers,
    payload: { email: `mia-${randomUUID()}@example.com` },
  });
  const joined = await inject({
    method: 'POST',
    url: `/api/invitations/${sent.json<{ token: string }>().token}/signup`,
    payload: { name: 'Mia Member', password: 'correct horse battery' },
  });
  expect(joined.statusCode).toBe(201);
  const body = joined.json<{ token: string; user: { id: string } }>();
  member = { token: body.token, userId: body.user.id, headers: bearer(body.token) };

  const tenant = { organizationId: owner.organization.id };
  const course = await insertCourse(db(), tenant);
  courseId = course.id;
  variableId = (await insertVariable(db(), { ...tenant, courseId })).id;
  questionId = (await insertQuestion(db(), { ...tenant, courseId })).id;
  const report = await inject({
    method: 'POST',
    url: '/api/custom-reports',
    headers: member.headers,
    payload: { name: 'Mia’s report' },
  });
  expect(report.statusCode).toBe(201);
  memberReportId = report.json<{ id: string }>().id;
});

afterAll(async () => {
  await testApp.close();
});

describe('a team member is refused, and nothing changes, when they', () => {
  it('create an API key (full scope or not), list the keys or revoke the owner’s key', async () => {
    const message = OWNER_ONLY_MESSAGES['api-keys'];
    expect(message).toBe('Only owners can manage API keys');
    await expectRefused({ method: 'POST', url: '/api/api-keys', payload: { name: 'Mine' } }, message);
    await expectRefused(
      { method: 'POST', url: '/api/api-keys', payload: { name: 'Everything', scope: 'full' } },
      message,
    );
    await expectRefused({ method: 'GET', url: '/api/api-keys' }, message);
    await expectRefused({ method: 'POST', url: `/api/api-keys/${ownerKey.id}/revoke` }, message);
    // The owner's key still sends data.
    await expect(authenticateApiKey(db(), ownerKey.key)).resolves.not.toBeNull();
  });

  it('delete a course, with or without its learner data', async () => {
    const message = OWNER_ONLY_MESSAGES['course-deletion'];
    expect(message).toBe('Only owners can delete courses');
    await expectRefused({ method: 'DELETE', url: `/api/courses/${courseId}` }, message);
    await expectRefused(
      { method: 'DELETE', url: `/api/courses/${courseId}?keepLearnerData=true&deleteRelatedReports=true` },
      message,
    );
    const [course] = await db().select().from(courses).where(eq(courses.id, courseId));
    expect(course).toMatchObject({ isDeleted: false, deletedAt: null });
  });

  it('make a report public (even their own) or replace its link', async () => {
    const message = OWNER_ONLY_MESSAGES.sharing;
    await expectRefused(
      { method: 'PUT', url: `/api/custom-reports/${memberReportId}/public`, payload: { isPublic: true } },
      message,
    );
    await expectRefused(
      { method: 'POST', url: `/api/custom-reports/${memberReportId}/public/rotate` },
      message,
    );
    const [report] = await db().select().from(customReports).where(eq(customReports.id, memberReportId));
    expect(report).toMatchObject({ isPublic: false, publicShareToken: null });
  });

  it('share a variable or a question view, or replace its link', async () => {
    const message = OWNER_ONLY_MESSAGES.sharing;
    for (const url of [`/api/variables/${variableId}/share`, `/api/questions/${questionId}/share`]) {
      await expectRefused({ method: 'PUT', url, payload: { enabled: true } }, message);
      await expectRefused({ method: 'POST', url: `${url}/rotate` }, message);
    }
    expect(await db().select().from(sharedViews)).toEqual([]);
  });

  it('invite people, change a role (their own included) or remove a member', async () => {
    const message = OWNER_ONLY_MESSAGES.team;
    await expectRefused(
      { method: 'POST', url: '/api/invitations', payload: { email: 'friend@example.com', role: 'owner' } },
      message,
    );
    await expectRefused({ method: 'GET', url: '/api/invitations' }, message);
    await expectRefused(
      { method: 'PATCH', url: `/api/team/members/${member.userId}`, payload: { role: 'owner' } },
      message,
    );
    await expectRefused({ method: 'DELETE', url: `/api/team/members/${owner.user.id}` }, message);
    const [membership] = await db()
      .select()
      .from(userOrganizations)
      .where(
        and(
          eq(userOrganizations.organizationId, owner.organization.id),
          eq(userOrganizations.userId, member.userId),
        ),
      );
    expect(membership?.role).toBe('team_member');
  });

  it('rename the organization or change its subdomain', async () => {
    await expectRefused(
      {
        method: 'PATCH',
        url: `/api/organizations/${owner.organization.id}`,
        payload: { name: 'Hijacked', subdomain: 'hijacked' },
      },
      OWNER_ONLY_MESSAGES.organization,
    );
  });
});

describe('a team member still works with the data', () => {
  it('creates and edits a course, sets its broadcast, edits variables and questions', async () => {
    const course = await inject({
      method: 'POST',
      url: '/api/courses',
      headers: member.headers,
      payload: { courseTitle: 'Member course', externalCourseId: `member-${randomUUID()}` },
    });
    expect(course.statusCode, course.body).toBe(201);
    const id = course.json<{ id: string }>().id;
    const edited = await inject({
      method: 'PATCH',
      url: `/api/courses/${id}`,
      headers: member.headers,
      payload: { courseTitle: 'Member course, edited' },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    const broadcast = await inject({
      method: 'PUT',
      url: `/api/courses/${id}/broadcast`,
      headers: member.headers,
      payload: { message: 'Welcome!' },
    });
    expect(broadcast.statusCode, broadcast.body).toBe(200);
    const variable = await inject({
      method: 'PATCH',
      url: `/api/variables/${variableId}`,
      headers: member.headers,
      payload: { active: false },
    });
    expect(variable.statusCode, variable.body).toBe(200);
    const question = await inject({
      method: 'PATCH',
      url: `/api/questions/${questionId}`,
      headers: member.headers,
      payload: { active: false },
    });
    expect(question.statusCode, question.body).toBe(200);
  });

  it('edits, duplicates and deletes reports, and sees whether a view is shared', async () => {
    const edited = await inject({
      method: 'PUT',
      url: `/api/custom-reports/${memberReportId}`,
      headers: member.headers,
      payload: { name: 'Mia’s report, edited' },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    const copy = await inject({
      method: 'POST',
      url: `/api/custom-reports/${memberReportId}/duplicate`,
      headers: member.headers,
    });
    expect(copy.statusCode, copy.body).toBe(201);
    const removed = await inject({
      method: 'DELETE',
      url: `/api/custom-reports/${copy.json<{ id: string }>().id}`,
      headers: member.headers,
    });
    expect(removed.statusCode).toBe(204);
    const share = await inject({
      method: 'GET',
      url: `/api/variables/${variableId}/share`,
      headers: member.headers,
    });
    expect(share.statusCode, share.body).toBe(200);
  });

  it('creates, edits, tests, rotates and deletes actions (the steps pipelines run)', async () => {
    const created = await inject({
      method: 'POST',
      url: '/api/actions',
      headers: member.headers,
      payload: {
        name: 'Mia’s webhook',
        config: { type: 'webhook', url: 'https://hooks.example.com/courselens' },
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const { id, secret } = created.json<{ id: string; secret: string }>();
    expect(secret).toMatch(/^whsec_/);
    const edited = await inject({
      method: 'PUT',
      url: `/api/actions/${id}`,
      headers: member.headers,
      payload: {
        name: 'Mia’s webhook, edited',
        config: { type: 'webhook', url: 'https://hooks.example.com/v2' },
      },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    const rotated = await inject({
      method: 'POST',
      url: `/api/actions/${id}/rotate-secret`,
      headers: member.headers,
    });
    expect(rotated.statusCode, rotated.body).toBe(200);
    // The owner sees the member's action and may remove it.
    const read = await inject({ method: 'GET', url: `/api/actions/${id}`, headers: owner.headers });
    expect(read.json()).toMatchObject({ name: 'Mia’s webhook, edited', createdByName: 'Mia Member' });
    const removed = await inject({ method: 'DELETE', url: `/api/actions/${id}`, headers: member.headers });
    expect(removed.statusCode).toBe(204);
  });

  it('drafts a pipeline from a sentence (the generator saves nothing)', async () => {
    const drafted = await inject({
      method: 'POST',
      url: '/api/pipelines/generate',
      headers: member.headers,
      payload: { prompt: 'every Monday at 8am notify the team' },
    });
    expect(drafted.statusCode, drafted.body).toBe(200);
    expect(drafted.json()).toMatchObject({ engine: 'builtin', unmapped: [] });
  });

  it('builds, turns on, runs by hand, tests and deletes a pipeline', async () => {
    const notify = await inject({
      method: 'POST',
      url: '/api/actions',
      headers: member.headers,
      payload: { name: 'Mia’s note', config: { type: 'notify_team', message: 'Hello' } },
    });
    expect(notify.statusCode, notify.body).toBe(201);
    const created = await inject({
      method: 'POST',
      url: '/api/pipelines',
      headers: member.headers,
      payload: {
        name: 'Mia’s pipeline',
        active: true,
        nodes: [
          { id: 'button', type: 'manual', data: {} },
          { id: 'note', type: 'action', data: { actionId: notify.json<{ id: string }>().id } },
        ],
        edges: [{ source: 'button', target: 'note' }],
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const { id } = created.json<{ id: string }>();
    const started = await inject({
      method: 'POST',
      url: `/api/pipelines/${id}/run`,
      headers: member.headers,
    });
    expect(started.statusCode, started.body).toBe(202);
    const off = await inject({
      method: 'PATCH',
      url: `/api/pipelines/${id}`,
      headers: member.headers,
      payload: { active: false },
    });
    expect(off.statusCode, off.body).toBe(200);
    // The owner sees the member's pipeline; the member may remove it.
    const read = await inject({ method: 'GET', url: `/api/pipelines/${id}`, headers: owner.headers });
    expect(read.json()).toMatchObject({ name: 'Mia’s pipeline', createdByName: 'Mia Member' });
    const removed = await inject({ method: 'DELETE', url: `/api/pipelines/${id}`, headers: member.headers });
    expect(removed.statusCode).toBe(204);
  });

  it('while the owner shares the member’s report, and the member then sees its link', async () => {
    const shared = await inject({
      method: 'PUT',
      url: `/api/custom-reports/${memberReportId}/public`,
      headers: owner.headers,
      payload: { isPublic: true },
    });
    expect(shared.statusCode, shared.body).toBe(200);
    const seen = await inject({
      method: 'GET',
      url: `/api/custom-reports/${memberReportId}`,
      headers: member.headers,
    });
    expect(seen.json()).toMatchObject({ isPublic: true, publicShareToken: expect.any(String) });
  });

  it('and gets the same powers as soon as an owner promotes them', async () => {
    const promoted = await inject({
      method: 'PATCH',
      url: `/api/team/members/${member.userId}`,
      headers: owner.headers,
      payload: { role: 'owner' },
    });
    expect(promoted.statusCode, promoted.body).toBe(200);
    const list = await inject({ method: 'GET', url: '/api/api-keys', headers: member.headers });
    expect(list.statusCode).toBe(200);
  });
});

describe('the API reference', () => {
  it('marks every owner-only operation with the message a member gets', async () => {
    const response = await inject({ method: 'GET', url: '/docs/json' });
    expect(response.statusCode).toBe(200);
    const paths = response.json<{ paths: Record<string, Record<string, { description?: string }>> }>().paths;
    expect(paths['/api/api-keys']?.post?.description).toMatch(
      /^\*\*Owners only\.\*\* Only owners can manage API keys; a team member gets 403\./,
    );
    expect(paths['/api/courses/{courseId}']?.delete?.description).toContain('Only owners can delete courses');
    expect(paths['/api/courses/{courseId}']?.patch?.description ?? '').not.toContain('Owners only');
  });
});
