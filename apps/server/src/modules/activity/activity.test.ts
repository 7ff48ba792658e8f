import {
  ACTIVITY_KIND_GROUPS,
  ACTIVITY_KINDS as CONTRACT_KINDS,
  type ActivityActorsResponse,
  type ActivityListResponse,
} from '@courselens/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACTIVITY_KINDS, activityEvents } from '../../db/schema';
import { createTestApp, type TestApp } from '../../test/app';
import { signUpViaApi, type SignedUp } from '../../test/auth';

let testApp: TestApp;
let owner: SignedUp;
let member: SignedUp;
let other: SignedUp;

async function list(user: SignedUp, query = '') {
  const response = await testApp.app.inject({
    method: 'GET',
    url: `/api/activity${query}`,
    headers: user.headers,
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<ActivityListResponse>();
}

const summaries = (body: ActivityListResponse) => body.items.map((item) => item.summary);

beforeAll(async () => {
  testApp = await createTestApp();
  owner = await signUpViaApi(testApp.app, { name: 'Olive Owner' });
  member = await signUpViaApi(testApp.app, { name: 'Max Member' });
  other = await signUpViaApi(testApp.app);
  const organizationId = owner.organization.id;
  const at = (iso: string) => new Date(iso);
  await testApp.database.db.insert(activityEvents).values([
    {
      organizationId,
      kind: 'events.ingested',
      summary: '120 events ingested (3 duplicates)',
      details: { accepted: 120, duplicates: 3 },
      createdAt: at('2026-03-01T00:00:00.000Z'),
    },
    {
      organizationId,
      actorUserId: owner.user.id,
      kind: 'api_key.created',
      subjectType: 'api_key',
      subjectId: 'key-1',
      summary: 'API key “Course player” created',
      createdAt: at('2026-03-01T23:59:59.999Z'),
    },
    {
      organizationId,
      actorUserId: owner.user.id,
      kind: 'course.deleted',
      summary: 'Deleted course Safety 100%_basics',
      createdAt: at('2026-03-02T12:00:00.000Z'),
    },
    {
      organizationId,
      actorUserId: member.user.id,
      kind: 'member.invited',
      summary: 'Invited ann@example.com',
      createdAt: at('2026-03-03T00:00:00.000Z'),
    },
    {
      organizationId,
      kind: 'events.ingested',
      summary: '=2 events ingested',
      createdAt: at('2026-03-04T08:00:00.000Z'),
    },
    {
      organizationId,
      actorUserId: member.user.id,
      kind: 'custom.future_kind',
      summary: 'Something newer',
      createdAt: at('2026-03-05T08:00:00.000Z'),
    },
    { organizationId: other.organization.id, kind: 'events.ingested', summary: 'Not yours' },
  ]);
});

afterAll(async () => {
  await testApp.close();
});

describe('GET /api/activity', () => {
  it('lists the organization’s activity newest first with a readable label and the actor', async () => {
    const body = await list(owner);
    expect(body.total).toBe(6);
    expect(summaries(body)).toEqual([
      'Something newer',
      '=2 events ingested',
      'Invited ann@example.com',
      'Deleted course Safety 100%_basics',
      'API key “Course player” created',
      '120 events ingested (3 duplicates)',
    ]);
    expect(body.items[2]).toMatchObject({
      kind: 'member.invited',
      label: 'Member invited',
      actor: { id: member.user.id, name: 'Max Member', email: member.user.email },
      createdAt: '2026-03-03T00:00:00.000Z',
    });
    expect(body.items.at(-1)).toMatchObject({
      kind: 'events.ingested',
      label: 'Events ingested',
      actor: null,
      details: { accepted: 120, duplicates: 3 },
    });
    // A kind logged by a newer module shows under its raw name.
    expect(body.items[0]?.label).toBe('custom.future_kind');
  });

  it('pages without overlap', async () => {
    const first = await list(owner, '?pageSize=4');
    const second = await list(owner, '?pageSize=4&page=2');
    expect(first).toMatchObject({ total: 6, page: 1, pageSize: 4 });
    expect(first.items).toHaveLength(4);
    expect(second.items).toHaveLength(2);
    expect(new Set([...first.items, ...second.items].map((item) => item.id)).size).toBe(6);
    expect((await list(owner, '?page=3&pageSize=4')).items).toEqual([]);
  });

  it('filters by one or several kinds', async () => {
    expect(summaries(await list(owner, '?kind=events.ingested'))).toEqual([
      '=2 events ingested',
      '120 events ingested (3 duplicates)',
    ]);
    const several = await list(owner, '?kind=api_key.created,course.deleted');
    expect(several.total).toBe(2);
    expect(several.items.map((item) => item.kind)).toEqual(['course.deleted', 'api_key.created']);
  });

  it('filters by actor, and by "system" for activity without a person', async () => {
    const byMember = await list(owner, `?actor=${member.user.id}`);
    expect(summaries(byMember)).toEqual(['Something newer', 'Invited ann@example.com']);
    const system = await list(owner, '?actor=system');
    expect(system.items.every((item) => item.actor === null)).toBe(true);
    expect(system.total).toBe(2);
  });

  it('filters by whole UTC days, both ends included', async () => {
    expect(summaries(await list(owner, '?from=2026-03-01&to=2026-03-01'))).toEqual([
      'API key “Course player” created',
      '120 events ingested (3 duplicates)',
    ]);
    expect(summaries(await list(owner, '?from=2026-03-02&to=2026-03-03'))).toEqual([
      'Invited ann@example.com',
      'Deleted course Safety 100%_basics',
    ]);
    expect((await list(owner, '?from=2026-03-04')).total).toBe(2);
    expect((await list(owner, '?to=2026-02-28')).total).toBe(0);
  });

  it('searches the summary case-insensitively, with % and _ taken literally', async () => {
    expect(summaries(await list(owner, '?q=EVENTS'))).toEqual([
      '=2 events ingested',
      '120 events ingested (3 duplicates)',
    ]);
    expect(summaries(await list(owner, `?q=${encodeURIComponent('100%_b')}`))).toEqual([
      'Deleted course Safety 100%_basics',
    ]);
    expect((await list(owner, `?q=${encodeURIComponent('%')}`)).total).toBe(1);
    expect((await list(owner, '?q=events&kind=events.ingested&actor=system&from=2026-03-04')).total).toBe(1);
  });

  it('shows one organization only', async () => {
    expect(summaries(await list(other))).toEqual(['Not yours']);
    expect((await list(other, `?actor=${owner.user.id}`)).total).toBe(0);
  });

  it('answers 400 with a message for bad filters', async () => {
    const cases: [string, string][] = [
      ['?kind=nope', 'Kind must be one or more of:'],
      ['?kind=events.ingested,nope', 'Kind must be one or more of:'],
      ['?actor=bob', 'Actor must be a user id or "system"'],
      ['?from=yesterday', 'Dates must be written YYYY-MM-DD'],
      ['?to=2026-13-01', 'Dates must be written YYYY-MM-DD'],
      ['?from=2026-03-05&to=2026-03-01', 'The start date must be on or before the end date'],
      ['?page=0', 'Page must be a whole number of 1 or more'],
      ['?pageSize=101', 'Page size must be a whole number from 1 to 100'],
    ];
    for (const [query, message] of cases) {
      const response = await testApp.app.inject({
        method: 'GET',
        url: `/api/activity${query}`,
        headers: owner.headers,
      });
      expect(response.statusCode, query).toBe(400);
      expect(response.json<{ error: string }>().error, query).toContain(message);
    }
  });

  it('answers 401 without a session', async () => {
    for (const url of ['/api/activity', '/api/activity/export', '/api/activity/actors']) {
      expect((await testApp.app.inject({ method: 'GET', url })).statusCode).toBe(401);
    }
  });
});

describe('GET /api/activity/actors', () => {
  it('lists the people who appear in the feed, by name', async () => {
    const response = await testApp.app.inject({
      method: 'GET',
      url: '/api/activity/actors',
      headers: owner.headers,
    });
    expect(response.json<ActivityActorsResponse>().actors).toEqual([
      { id: member.user.id, name: 'Max Member', email: member.user.email },
      { id: owner.user.id, name: 'Olive Owner', email: owner.user.email },
    ]);
  });
});

describe('GET /api/activity/export', () => {
  it('exports the filtered feed as CSV with labels, actors and formula-safe cells', async () => {
    const response = await testApp.app.inject({
      method: 'GET',
      url: '/api/activity/export?kind=events.ingested,member.invited',
      headers: owner.headers,
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toMatch(
      /^attachment; filename="activity-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    expect(response.body.replace(/^\uFEFF/, '').split('\r\n')).toEqual([
      'Time (UTC),Activity,Kind,Summary,Actor,Actor e-mail,Subject type,Subject id',
      "2026-03-04T08:00:00.000Z,Events ingested,events.ingested,'=2 events ingested,System,,,",
      `2026-03-03T00:00:00.000Z,Member invited,member.invited,Invited ann@example.com,Max Member,${member.user.email},,`,
      '2026-03-01T00:00:00.000Z,Events ingested,events.ingested,120 events ingested (3 duplicates),System,,,',
      '',
    ]);
  });

  it('answers 400 for bad filters', async () => {
    const response = await testApp.app.inject({
      method: 'GET',
      url: '/api/activity/export?from=2026-03-05&to=2026-03-01',
      headers: owner.headers,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: 'The start date must be on or before the end date' });
  });
});

describe('activity kinds', () => {
  it('the contracts know every kind of the schema, each with a label and in one filter group', () => {
    expect([...CONTRACT_KINDS]).toEqual([...ACTIVITY_KINDS]);
    const grouped = ACTIVITY_KIND_GROUPS.flatMap((group) => [...group.kinds]).sort();
    expect(grouped).toEqual([...ACTIVITY_KINDS].sort());
  });
});
