import { DEFAULT_ANALYTICS_SETTINGS, OWNER_ONLY_MESSAGES } from '@courselens/contracts';
import { and, eq } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activityEvents, courses, learners, userOrganizations } from '../../db/schema';
import { createTestApp, type TestApp } from '../../test/app';
import { signUpViaApi, type SignedUp } from '../../test/auth';
import { readSettings } from './analytics-settings.service';

let testApp: TestApp;
let owner: SignedUp;
let member: SignedUp;
let courseId: string;

beforeAll(async () => {
  testApp = await createTestApp();
  await testApp.app.ready();
  owner = await signUpViaApi(testApp.app);
  member = await signUpViaApi(testApp.app);
  const db = testApp.database.db;
  await db
    .insert(userOrganizations)
    .values({ userId: member.user.id, organizationId: owner.organization.id, role: 'team_member' });
  const [course] = await db
    .insert(courses)
    .values({ organizationId: owner.organization.id, courseTitle: 'Safety basics' })
    .returning({ id: courses.id });
  courseId = course?.id ?? '';
  await db.insert(learners).values([
    { organizationId: owner.organization.id, email: 'ann@acme.test', name: 'Ann' },
    { organizationId: owner.organization.id, email: 'qa@test.acme.test', name: 'QA' },
    { organizationId: owner.organization.id, email: 'trainer@acme.test', name: 'Trainer' },
    { organizationId: owner.organization.id, email: 'bob@other.test', name: 'Bob' },
  ]);
});

afterAll(async () => {
  await testApp.close();
});

const inject = (options: InjectOptions) => testApp.app.inject(options);
const asMember = {
  get headers() {
    return { ...member.headers, 'x-organization-id': owner.organization.id };
  },
};

describe('analytics settings', () => {
  it('starts from the defaults, for every member to read', async () => {
    for (const headers of [owner.headers, asMember.headers]) {
      const response = await inject({ method: 'GET', url: '/api/analytics/settings', headers });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({
        settings: DEFAULT_ANALYTICS_SETTINGS,
        courses: [],
        excludedLearners: 0,
        totalLearners: 4,
        updatedAt: null,
        canEdit: headers === owner.headers,
      });
    }
    expect(DEFAULT_ANALYTICS_SETTINGS).toMatchObject({
      timeZone: 'UTC',
      defaultPassMark: 70,
      completion: 'completed',
      itemAnalysisAttempts: 'first',
    });
  });

  it('lets an owner change them, counts who the exclusions leave out and records it', async () => {
    const response = await inject({
      method: 'PATCH',
      url: '/api/analytics/settings',
      headers: owner.headers,
      payload: {
        timeZone: 'Europe/Berlin',
        coursePassMarks: [{ courseId, passMark: 80 }],
        completion: 'passed',
        excludedDomains: ['@TEST.acme.test', 'test.acme.test'],
        excludedEmails: [' Trainer@Acme.test '],
        itemAnalysisAttempts: 'all',
        funnelWindowDays: 30,
      },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      settings: {
        timeZone: 'Europe/Berlin',
        defaultPassMark: 70,
        coursePassMarks: [{ courseId, passMark: 80 }],
        completion: 'passed',
        excludedDomains: ['test.acme.test'],
        excludedEmails: ['trainer@acme.test'],
        itemAnalysisAttempts: 'all',
        funnelWindowDays: 30,
        inactiveDays: 30,
      },
      courses: [{ id: courseId, title: 'Safety basics' }],
      excludedLearners: 2,
      totalLearners: 4,
      canEdit: true,
    });
    const recorded = await testApp.database.db
      .select({ summary: activityEvents.summary })
      .from(activityEvents)
      .where(
        and(
          eq(activityEvents.organizationId, owner.organization.id),
          eq(activityEvents.kind, 'analytics.settings_updated'),
        ),
      );
    expect(recorded).toEqual([{ summary: 'Analytics settings updated' }]);
  });

  it('refuses a team member with the owners-only message and changes nothing', async () => {
    const response = await inject({
      method: 'PATCH',
      url: '/api/analytics/settings',
      headers: asMember.headers,
      payload: { timeZone: 'UTC' },
    });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ error: OWNER_ONLY_MESSAGES.analytics, code: 'FORBIDDEN' });
    const after = await inject({ method: 'GET', url: '/api/analytics/settings', headers: owner.headers });
    expect(after.json<{ settings: { timeZone: string } }>().settings.timeZone).toBe('Europe/Berlin');
  });

  it('answers 400 to an empty change set, saying what to send', async () => {
    const response = await inject({
      method: 'PATCH',
      url: '/api/analytics/settings',
      headers: owner.headers,
      payload: {},
    });
    expect(response.statusCode).toBe(400);
    expect(response.json<{ error: string }>().error).toBe(
      'Nothing to change: send at least one of timeZone, defaultPassMark, coursePassMarks, completion, excludedDomains, excludedEmails, itemAnalysisAttempts, funnelWindowDays, inactiveDays',
    );
  });

  it('keeps the settings not sent', async () => {
    const response = await inject({
      method: 'PATCH',
      url: '/api/analytics/settings',
      headers: owner.headers,
      payload: { inactiveDays: 45 },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      settings: { timeZone: 'Europe/Berlin', completion: 'passed', inactiveDays: 45, funnelWindowDays: 30 },
    });
  });

  it.each([
    [
      { timeZone: 'Mars/Olympus' },
      'body.timeZone',
      'Choose a time zone from the list (for example Europe/Berlin)',
    ],
    [{ defaultPassMark: 120 }, 'body.defaultPassMark', 'A pass mark is a percentage from 0 to 100'],
    [
      { excludedDomains: ['not a domain'] },
      'body.excludedDomains.0',
      'Enter e-mail domains such as example.com, without the @',
    ],
    [
      { excludedEmails: ['nobody'] },
      'body.excludedEmails.0',
      'Enter e-mail addresses such as test.user@example.com',
    ],
    [
      { funnelWindowDays: 0 },
      'body.funnelWindowDays',
      'The conversion window is a whole number of days from 1 to 365',
    ],
    [{ inactiveDays: 2.5 }, 'body.inactiveDays', 'Inactive means a whole number of days from 1 to 365'],
    [{ completion: 'finished' }, 'body.completion', 'Completion is one of completed, passed, last_slide'],
  ])('answers 400 naming the problem for %j, and keeps the settings', async (payload, path, message) => {
    const response = await inject({
      method: 'PATCH',
      url: '/api/analytics/settings',
      headers: owner.headers,
      payload,
    });
    expect(response.statusCode).toBe(400);
    const body = response.json<{ error: string; issues: { path: string; message: string }[] }>();
    expect(body.issues).toContainEqual({ path, message });
    const after = await inject({ method: 'GET', url: '/api/analytics/settings', headers: owner.headers });
    expect(after.json<{ settings: { timeZone: string } }>().settings.timeZone).toBe('Europe/Berlin');
  });

  it('refuses a pass mark for a course of another organization', async () => {
    const other = await signUpViaApi(testApp.app);
    const [foreign] = await testApp.database.db
      .insert(courses)
      .values({ organizationId: other.organization.id, courseTitle: 'Theirs' })
      .returning({ id: courses.id });
    const response = await inject({
      method: 'PATCH',
      url: '/api/analytics/settings',
      headers: owner.headers,
      payload: { coursePassMarks: [{ courseId: foreign?.id, passMark: 50 }] },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json<{ issues: unknown[] }>().issues).toEqual([
      { path: 'body.coursePassMarks.0.courseId', message: 'Choose a course' },
    ]);
  });
});

describe('readSettings', () => {
  it('keeps each valid stored field and defaults the ones a newer version no longer accepts', () => {
    expect(readSettings({ timeZone: 'Asia/Tokyo', defaultPassMark: 'high', completion: 'passed' })).toEqual({
      ...DEFAULT_ANALYTICS_SETTINGS,
      timeZone: 'Asia/Tokyo',
      completion: 'passed',
    });
    expect(readSettings(null)).toEqual(DEFAULT_ANALYTICS_SETTINGS);
  });
});
