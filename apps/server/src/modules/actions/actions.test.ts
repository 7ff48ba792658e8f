import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  ACTION_MESSAGES,
  SAMPLE_ACTION_EVENT,
  TEMPLATE_MESSAGES,
  type ActionBody,
  type ActionTestResult,
  type CreatedAction,
  type ListActionsResponse,
} from '@courselens/contracts';
import { and, eq, sql } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertCourse } from '../../db/factories/learning';
import {
  actions,
  activityEvents,
  broadcasts,
  courses,
  learners,
  learnerVariableValues,
  pipelines,
  variables,
} from '../../db/schema';
import { createTestApp, type TestApp } from '../../test/app';
import { signUpViaApi, type SignedUp } from '../../test/auth';
import { findActionRow } from './actions.queries';
import { executeAction, quietHoursEnd, type ActionExecutionContext } from './execute-action';
import { createActionMailer, createActionsRuntime } from './runtime';
import { verifyWebhook } from './webhook-signature';

type Received = { method: string; url: string; headers: IncomingMessage['headers']; body: string };

const AUTH_SECRET = 'actions-test-auth-secret-of-at-least-32-characters';

let receiver: Server;
let receiverPort: number;
const received: Received[] = [];
let respond: (response: ServerResponse) => void = (response) => response.end('{"ok":true}');

let testApp: TestApp;
let owner: SignedUp;
let stranger: SignedUp;

beforeAll(async () => {
  receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({
        method: request.method ?? '',
        url: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      respond(response);
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverPort = (receiver.address() as AddressInfo).port;
  testApp = await createTestApp({
    authSecret: AUTH_SECRET,
    // Only the test receiver's port of 127.0.0.1 is allowed: every other local address stays refused.
    webhookAllowedHosts: [{ host: '127.0.0.1', port: receiverPort }],
  });
  owner = await signUpViaApi(testApp.app, { name: 'Olive Owner' });
  stranger = await signUpViaApi(testApp.app);
});

afterAll(async () => {
  await testApp.close();
  receiver.closeAllConnections();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
});

const db = () => testApp.database.db;
const inject = (options: InjectOptions) => testApp.app.inject(options);
const receiverUrl = (path = '/hooks/courselens') => `http://127.0.0.1:${receiverPort}${path}`;

async function create(payload: Record<string, unknown>, headers = owner.headers): Promise<CreatedAction> {
  const response = await inject({ method: 'POST', url: '/api/actions', headers, payload });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<CreatedAction>();
}

async function actionCount(organizationId = owner.organization.id): Promise<number> {
  return (await db().select().from(actions).where(eq(actions.organizationId, organizationId))).length;
}

const webhookPayload = (overrides: Record<string, unknown> = {}) => ({
  name: 'Tell the LMS',
  description: 'Completions go to the LMS',
  config: {
    type: 'webhook',
    url: receiverUrl(),
    method: 'POST',
    headers: [
      { name: 'X-Team', value: 'learning' },
      { name: 'Authorization', value: 'Bearer lms-token-123', secret: true },
    ],
    ...overrides,
  },
});

describe('webhook actions', () => {
  let created: CreatedAction;

  beforeAll(async () => {
    created = await create(webhookPayload());
  });

  it('shows the whsec_ secret once, at creation, and never again', async () => {
    expect(created).toMatchObject({
      name: 'Tell the LMS',
      type: 'webhook',
      active: true,
      target: `POST ${receiverUrl()}`,
      usedByPipelines: 0,
      createdByName: 'Olive Owner',
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
      secretHint: `${created.secret?.slice(0, 10)}…`,
      config: {
        type: 'webhook',
        url: receiverUrl(),
        method: 'POST',
        bodyTemplate: null,
        headers: [
          { name: 'X-Team', value: 'learning', secret: false },
          { name: 'Authorization', value: null, secret: true },
        ],
      },
    });
    const read = await inject({ method: 'GET', url: `/api/actions/${created.id}`, headers: owner.headers });
    expect(read.statusCode).toBe(200);
    expect(read.json()).not.toHaveProperty('secret');
    expect(read.body).not.toContain(created.secret?.slice(6));
    expect(read.body).not.toContain('lms-token-123');
    const list = await inject({ method: 'GET', url: '/api/actions', headers: owner.headers });
    expect(list.body).not.toContain(created.secret?.slice(6));
  });

  it('keeps the signing secret and secret header values encrypted in the database', async () => {
    const [row] = await db().select().from(actions).where(eq(actions.id, created.id));
    const stored = JSON.stringify(row);
    expect(stored).not.toContain(created.secret?.slice(6));
    expect(stored).not.toContain('lms-token-123');
    expect(row?.config).toMatchObject({
      signingSecret: expect.stringMatching(/^v1\./),
      headers: [
        { name: 'X-Team', secret: false, value: 'learning' },
        { name: 'Authorization', secret: true, sealed: expect.stringMatching(/^v1\./) },
      ],
    });
  });

  it('sends a test to the receiver: signed, with the sample event, answer captured, secret hidden', async () => {
    received.length = 0;
    respond = (response) => {
      response.writeHead(200, { 'content-type': 'application/json', 'x-receiver': 'lms' });
      response.end('{"received":true}');
    };
    const response = await inject({
      method: 'POST',
      url: `/api/actions/${created.id}/test`,
      headers: owner.headers,
    });
    expect(response.statusCode, response.body).toBe(200);
    const result = response.json<ActionTestResult>();
    expect(result).toMatchObject({
      ok: true,
      channel: 'http',
      error: null,
      request: { method: 'POST', url: receiverUrl(), body: JSON.stringify(SAMPLE_ACTION_EVENT) },
      response: { status: 200, body: '{"received":true}', bodyTruncated: false, retryAfterSeconds: null },
    });
    expect(result.response?.headers).toContainEqual({ name: 'x-receiver', value: 'lms' });
    expect(result.request.headers).toContainEqual({ name: 'Authorization', value: '••••••••' });
    expect(result.request.headers.map((header) => header.name)).toEqual(
      expect.arrayContaining(['webhook-id', 'webhook-timestamp', 'webhook-signature', 'Content-Type']),
    );
    expect(response.body).not.toContain('lms-token-123');

    expect(received).toHaveLength(1);
    const [hit] = received;
    expect(hit).toMatchObject({ method: 'POST', url: '/hooks/courselens' });
    expect(hit?.headers.authorization).toBe('Bearer lms-token-123');
    expect(hit?.headers['x-team']).toBe('learning');
    expect(hit?.headers['content-type']).toBe('application/json');
    expect(JSON.parse(hit?.body ?? '')).toEqual(SAMPLE_ACTION_EVENT);
    expect(
      verifyWebhook({ secret: created.secret ?? '', headers: hit?.headers ?? {}, body: hit?.body ?? '' }),
    ).toBe(true);
  });

  it('reports a failing receiver as it answered', async () => {
    respond = (response) => {
      response.writeHead(503, 'Service Unavailable', { 'retry-after': '120' });
      response.end('down for maintenance');
    };
    const result = (
      await inject({ method: 'POST', url: `/api/actions/${created.id}/test`, headers: owner.headers })
    ).json<ActionTestResult>();
    expect(result).toMatchObject({
      ok: false,
      error: 'The receiver answered 503 Service Unavailable',
      response: { status: 503, body: 'down for maintenance', retryAfterSeconds: 120 },
    });
    respond = (response) => response.end('{"ok":true}');
  });

  it('fills a body template with JSON-escaped values', async () => {
    const templated = await create(
      webhookPayload({ headers: [], bodyTemplate: '{"who": "{{learner.name}}", "score": {{value}}}' }),
    );
    received.length = 0;
    await inject({ method: 'POST', url: `/api/actions/${templated.id}/test`, headers: owner.headers });
    expect(JSON.parse(received[0]?.body ?? '')).toEqual({ who: 'Sam Learner', score: 87 });
  });

  it('edits: keeps a secret header sent without a value, and the signing secret', async () => {
    const response = await inject({
      method: 'PUT',
      url: `/api/actions/${created.id}`,
      headers: owner.headers,
      payload: webhookPayload({
        method: 'PUT',
        url: receiverUrl('/hooks/v2'),
        headers: [{ name: 'Authorization', secret: true }],
      }),
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json<ActionBody>()).toMatchObject({
      target: `PUT ${receiverUrl('/hooks/v2')}`,
      secretHint: created.secretHint,
      config: { headers: [{ name: 'Authorization', value: null, secret: true }] },
    });
    received.length = 0;
    await inject({ method: 'POST', url: `/api/actions/${created.id}/test`, headers: owner.headers });
    expect(received[0]).toMatchObject({ method: 'PUT', url: '/hooks/v2' });
    expect(received[0]?.headers.authorization).toBe('Bearer lms-token-123');
    expect(
      verifyWebhook({
        secret: created.secret ?? '',
        headers: received[0]?.headers ?? {},
        body: received[0]?.body ?? '',
      }),
    ).toBe(true);
  });

  it('refuses a new secret header without a value, and a change of type', async () => {
    const noValue = await inject({
      method: 'PUT',
      url: `/api/actions/${created.id}`,
      headers: owner.headers,
      payload: webhookPayload({ headers: [{ name: 'X-Api-Key', secret: true }] }),
    });
    expect(noValue.statusCode).toBe(400);
    expect(noValue.json()).toMatchObject({
      code: 'VALIDATION_ERROR',
      error: ACTION_MESSAGES.headerValueRequired('X-Api-Key'),
      issues: [{ path: 'body.config.headers.0.value' }],
    });
    const retyped = await inject({
      method: 'PUT',
      url: `/api/actions/${created.id}`,
      headers: owner.headers,
      payload: { name: 'Now a note', config: { type: 'notify_team', message: 'Hi' } },
    });
    expect(retyped.statusCode).toBe(400);
    expect(retyped.json().error).toBe(ACTION_MESSAGES.typeChanged);
  });

  it('rotates the secret: the new one is shown once and signs, the old one no longer does', async () => {
    const response = await inject({
      method: 'POST',
      url: `/api/actions/${created.id}/rotate-secret`,
      headers: { ...owner.headers, 'content-type': 'application/json' },
      payload: '',
    });
    expect(response.statusCode, response.body).toBe(200);
    const rotated = response.json<{ secret: string; secretHint: string }>();
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(created.secret);
    expect(rotated.secretHint).toBe(`${rotated.secret.slice(0, 10)}…`);
    const [row] = await db().select().from(actions).where(eq(actions.id, created.id));
    expect(JSON.stringify(row)).not.toContain(rotated.secret.slice(6));

    received.length = 0;
    await inject({ method: 'POST', url: `/api/actions/${created.id}/test`, headers: owner.headers });
    const hit = received[0];
    expect(
      verifyWebhook({ secret: rotated.secret, headers: hit?.headers ?? {}, body: hit?.body ?? '' }),
    ).toBe(true);
    expect(
      verifyWebhook({ secret: created.secret ?? '', headers: hit?.headers ?? {}, body: hit?.body ?? '' }),
    ).toBe(false);
  });

  it('says so when the stored secrets cannot be read any more (the auth secret changed)', async () => {
    const row = await findActionRow(db(), owner.organization.id, created.id);
    if (!row) throw new Error('missing action');
    const other = createActionsRuntime({
      authSecret: 'a-different-auth-secret-after-a-change-of-key',
      config: { smtp: undefined, webhookAllowedHosts: [{ host: '127.0.0.1', port: receiverPort }] },
    });
    const outcome = await executeAction(
      {
        db: db(),
        runtime: other,
        organizationId: owner.organization.id,
        organizationName: null,
        actorUserId: null,
      },
      row,
      { event: SAMPLE_ACTION_EVENT },
    );
    expect(outcome).toMatchObject({
      status: 'failed',
      message: ACTION_MESSAGES.secretUnreadable,
      retryable: false,
    });
  });
});

describe('webhook addresses', () => {
  it.each([
    ['http://127.0.0.1:1/elsewhere', '127.0.0.1'],
    ['http://10.0.0.8/hook', '10.0.0.8'],
    ['http://169.254.169.254/latest/meta-data', '169.254.169.254'],
    ['http://[::1]:8080/hook', '::1'],
    ['http://[fc00::1]/hook', 'fc00::1'],
    ['http://[::ffff:127.0.0.1]/hook', '::ffff:7f00:1'],
    ['http://localhost:8080/hook', 'localhost'],
  ])('refuses %s when the host is not allowed, and stores nothing', async (url, host) => {
    const before = await actionCount();
    const response = await inject({
      method: 'POST',
      url: '/api/actions',
      headers: owner.headers,
      payload: webhookPayload({ url }),
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      code: 'VALIDATION_ERROR',
      error: ACTION_MESSAGES.hostNotAllowed(host),
      issues: [{ path: 'body.config.url' }],
    });
    expect(await actionCount()).toBe(before);
  });

  it('refuses at send time a localhost URL saved before the rules changed, and sends nothing', async () => {
    // Saving refuses `localhost` by name; an action stored earlier is checked again when it sends.
    const action = await create(webhookPayload({ headers: [] }));
    await db()
      .update(actions)
      .set({ config: { ...(await storedConfigOf(action)), url: 'http://localhost:9/x' } })
      .where(eq(actions.id, action.id));
    received.length = 0;
    const result = (
      await inject({ method: 'POST', url: `/api/actions/${action.id}/test`, headers: owner.headers })
    ).json<ActionTestResult>();
    expect(result).toMatchObject({
      ok: false,
      response: null,
      error: ACTION_MESSAGES.hostNotAllowed('localhost'),
    });
    expect(received).toHaveLength(0);
  });
});

/** The stored config of an action, as the database holds it (with its sealed secrets). */
async function storedConfigOf(action: { id: string }): Promise<Record<string, unknown>> {
  const [row] = await db().select().from(actions).where(eq(actions.id, action.id));
  return row?.config ?? {};
}

describe('validation', () => {
  it.each([
    [{ name: ' ', config: { type: 'notify_team', message: 'Hi' } }, ACTION_MESSAGES.nameRequired],
    [{ name: 'SMS', config: { type: 'sms' } }, ACTION_MESSAGES.typeInvalid],
    [
      {
        name: 'Sig',
        config: {
          type: 'webhook',
          url: 'https://hooks.example.com',
          headers: [{ name: 'Webhook-Signature', value: 'x' }],
        },
      },
      ACTION_MESSAGES.headerNameReserved('Webhook-Signature'),
    ],
    [
      {
        name: 'Host',
        config: {
          type: 'webhook',
          url: 'https://hooks.example.com',
          headers: [{ name: 'Host', value: 'x' }],
        },
      },
      ACTION_MESSAGES.headerNameReserved('Host'),
    ],
    [
      { name: 'Creds', config: { type: 'webhook', url: 'https://me:pw@hooks.example.com' } },
      ACTION_MESSAGES.urlCredentials,
    ],
    [
      { name: 'Typo', config: { type: 'notify_team', message: 'Done: {{learner.mail}}' } },
      TEMPLATE_MESSAGES.unknownField('learner.mail'),
    ],
    [
      {
        name: 'Gone',
        config: { type: 'broadcast', courseId: '6f1c3c9e-7a43-4a55-9d4f-2b1c0e0b1a11', message: 'Hi' },
      },
      ACTION_MESSAGES.courseNotFound,
    ],
  ])('answers 400 with the exact message and stores nothing (%#)', async (payload, message) => {
    const before = await actionCount();
    const response = await inject({ method: 'POST', url: '/api/actions', headers: owner.headers, payload });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toBe(message);
    expect(await actionCount()).toBe(before);
  });
});

describe('the list', () => {
  let organization: SignedUp;

  beforeAll(async () => {
    organization = await signUpViaApi(testApp.app);
    const headers = organization.headers;
    const course = await insertCourse(db(), {
      organizationId: organization.organization.id,
      courseTitle: 'Safety 101',
    });
    await create(
      {
        name: 'Beta e-mail',
        config: { type: 'email', to: { kind: 'team', roles: ['owner'] }, subject: 'Hi', body: 'Hello' },
      },
      headers,
    );
    await create({ name: 'alpha note', config: { type: 'notify_team', message: 'Done' } }, headers);
    await create(
      { name: 'Gamma broadcast', config: { type: 'broadcast', courseId: course.id, message: 'Well done' } },
      headers,
    );
    await create(
      {
        name: 'Delta variable',
        config: { type: 'set_variable', variableName: 'certified', value: { kind: 'literal', value: true } },
      },
      headers,
    );
  });

  const list = async (query: string) => {
    const response = await inject({
      method: 'GET',
      url: `/api/actions${query}`,
      headers: organization.headers,
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<ListActionsResponse>();
  };

  it('is newest first, with a summary of what each action reaches', async () => {
    const page = await list('');
    expect(page.total).toBe(4);
    expect(page.items.map((item) => [item.name, item.target])).toEqual([
      ['Delta variable', 'Sets “certified” for the learner'],
      ['Gamma broadcast', 'Sets the broadcast of “Safety 101”'],
      ['alpha note', 'Activity feed: owners and team members'],
      ['Beta e-mail', 'Owners'],
    ]);
  });

  it('searches, filters by type, sorts and pages', async () => {
    expect((await list('?q=ALPHA')).items.map((item) => item.name)).toEqual(['alpha note']);
    expect((await list('?type=email')).items.map((item) => item.name)).toEqual(['Beta e-mail']);
    expect((await list('?sort=name&order=asc')).items.map((item) => item.name)).toEqual([
      'alpha note',
      'Beta e-mail',
      'Delta variable',
      'Gamma broadcast',
    ]);
    const second = await list('?sort=name&order=asc&page=2&pageSize=3');
    expect(second).toMatchObject({ total: 4, page: 2, pageSize: 3 });
    expect(second.items.map((item) => item.name)).toEqual(['Gamma broadcast']);
    const bad = await inject({ method: 'GET', url: '/api/actions?type=sms', headers: organization.headers });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toBe(ACTION_MESSAGES.typeInvalid);
  });

  it('counts the pipelines that use an action, and refuses to delete one in use', async () => {
    const [note] = (await list('?q=alpha')).items;
    if (!note) throw new Error('missing action');
    // Only the columns this test needs: the pipelines issue adds its own.
    const nodes = [
      { id: 'n1', type: 'course', data: { courseId: 'c' } },
      { id: 'n2', type: 'action', data: { actionId: note.id } },
    ];
    const inserted = await db().execute<{ id: string }>(sql`
      insert into ${pipelines} (organization_id, name, nodes)
      values (${organization.organization.id}, 'Completion follow-up', ${JSON.stringify(nodes)}::jsonb)
      returning id`);
    const pipelineId = inserted.rows[0]?.id ?? '';
    expect((await list('?q=alpha')).items[0]?.usedByPipelines).toBe(1);
    const refused = await inject({
      method: 'DELETE',
      url: `/api/actions/${note.id}`,
      headers: organization.headers,
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toBe('This action is used by 1 pipeline: remove it from it first');

    await db().execute(sql`delete from ${pipelines} where id = ${pipelineId}`);
    const deleted = await inject({
      method: 'DELETE',
      url: `/api/actions/${note.id}`,
      headers: organization.headers,
    });
    expect(deleted.statusCode).toBe(204);
    const gone = await inject({
      method: 'GET',
      url: `/api/actions/${note.id}`,
      headers: organization.headers,
    });
    expect(gone.statusCode).toBe(404);
    expect(gone.json().error).toBe(ACTION_MESSAGES.notFound);
    const feed = await db()
      .select({ kind: activityEvents.kind })
      .from(activityEvents)
      .where(and(eq(activityEvents.subjectId, note.id)));
    expect(feed.map((entry) => entry.kind).sort()).toEqual(['action.created', 'action.deleted']);
  });
});

describe('another organization', () => {
  it('gets 404 for every route naming an action it does not own, and changes nothing', async () => {
    const action = await create(webhookPayload({ headers: [] }));
    const before = await storedConfigOf(action);
    received.length = 0;
    for (const [method, url, payload] of [
      ['GET', `/api/actions/${action.id}`, undefined],
      ['PUT', `/api/actions/${action.id}`, webhookPayload({ headers: [] })],
      ['DELETE', `/api/actions/${action.id}`, undefined],
      ['POST', `/api/actions/${action.id}/rotate-secret`, undefined],
      ['POST', `/api/actions/${action.id}/test`, undefined],
    ] as const) {
      const response = await inject({
        method,
        url,
        headers: stranger.headers,
        ...(payload ? { payload } : {}),
      });
      expect(response.statusCode, `${method} ${url}`).toBe(404);
      expect(response.json()).toEqual({ error: ACTION_MESSAGES.notFound, code: 'NOT_FOUND' });
    }
    expect(await storedConfigOf(action)).toEqual(before);
    expect(received).toHaveLength(0);
    const theirs = await inject({ method: 'GET', url: '/api/actions', headers: stranger.headers });
    expect(theirs.json<ListActionsResponse>().total).toBe(0);
  });
});

describe('e-mail actions', () => {
  it('answers a test with a clear message when SMTP is not set up', async () => {
    const action = await create({
      name: 'Congratulate',
      config: {
        type: 'email',
        to: { kind: 'learner' },
        subject: 'Well done {{learner.name}}',
        body: 'You completed {{course.title}}.',
      },
    });
    const result = (
      await inject({ method: 'POST', url: `/api/actions/${action.id}/test`, headers: owner.headers })
    ).json<ActionTestResult>();
    expect(result).toMatchObject({
      ok: false,
      channel: 'smtp',
      error: ACTION_MESSAGES.smtpNotConfigured,
      request: { method: 'SMTP', body: 'You completed Sample course.' },
    });
    expect(result.request.headers).toContainEqual({ name: 'To', value: owner.user.email });
    expect(result.request.headers).toContainEqual({ name: 'Subject', value: 'Well done Sam Learner' });
  });

  it('sends through SMTP, waits out quiet hours and skips past the frequency cap', async () => {
    const transport = nodemailer.createTransport({ jsonTransport: true });
    const sent: { to: string[]; subject: string }[] = [];
    const inner = createActionMailer(
      { url: 'smtp://mail.test:25', from: 'CourseLens <no-reply@test>' },
      transport,
    );
    const runtime = createActionsRuntime({
      authSecret: AUTH_SECRET,
      config: {
        smtp: { url: 'smtp://mail.test:25', from: 'CourseLens <no-reply@test>' },
        webhookAllowedHosts: [],
      },
      mailer: async (mail) => {
        sent.push({ to: mail.to, subject: mail.subject });
        return inner(mail);
      },
    });
    const action = await create({
      name: 'Nudge',
      config: {
        type: 'email',
        to: { kind: 'learner' },
        subject: '{{course.title}}: well done',
        body: 'Hello {{learner.name}}',
        quietHours: { start: '22:00', end: '07:00', timeZone: 'Europe/Paris' },
        frequencyCap: { count: 1, perHours: 24 },
      },
    });
    const row = await findActionRow(db(), owner.organization.id, action.id);
    if (!row) throw new Error('missing action');
    const context = (now: Date): ActionExecutionContext => ({
      db: db(),
      runtime,
      organizationId: owner.organization.id,
      organizationName: owner.organization.name,
      actorUserId: null,
      now,
    });
    // 23:30 in Paris (22:30 UTC in winter): quiet until 07:00 Paris time.
    const night = await executeAction(context(new Date('2026-01-15T22:30:00Z')), row, {
      event: SAMPLE_ACTION_EVENT,
    });
    expect(night).toMatchObject({ status: 'deferred', deferredUntil: new Date('2026-01-16T06:00:00Z') });
    expect(sent).toHaveLength(0);

    // Noon UTC today: daytime in Paris, and the e-mail's record (stamped now) falls in the cap's window.
    const noon = new Date();
    noon.setUTCHours(12, 0, 0, 0);
    const day = await executeAction(context(noon), row, { event: SAMPLE_ACTION_EVENT });
    expect(day).toMatchObject({ status: 'succeeded', trace: { channel: 'smtp', response: { status: 250 } } });
    expect(sent).toEqual([{ to: ['sam.learner@example.com'], subject: 'Sample course: well done' }]);
    const again = await executeAction(context(noon), row, { event: SAMPLE_ACTION_EVENT });
    expect(again).toMatchObject({ status: 'skipped' });
    expect(again.message).toMatch(/^Frequency cap reached/);
    expect(sent).toHaveLength(1);
    const other = await executeAction(context(noon), row, {
      event: { ...SAMPLE_ACTION_EVENT, learner: { email: 'other@example.com', name: 'Other' } },
    });
    expect(other.status).toBe('succeeded');
  });

  it('knows quiet hours that run over midnight, and those that do not', () => {
    const overnight = { start: '22:00', end: '07:00', timeZone: 'UTC' };
    expect(quietHoursEnd(new Date('2026-03-01T23:15:00Z'), overnight)).toEqual(
      new Date('2026-03-02T07:00:00Z'),
    );
    expect(quietHoursEnd(new Date('2026-03-01T06:59:00Z'), overnight)).toEqual(
      new Date('2026-03-01T07:00:00Z'),
    );
    expect(quietHoursEnd(new Date('2026-03-01T07:00:00Z'), overnight)).toBeNull();
    const lunch = { start: '12:00', end: '13:30', timeZone: 'America/New_York' };
    expect(quietHoursEnd(new Date('2026-03-01T17:10:00Z'), lunch)).toEqual(new Date('2026-03-01T18:30:00Z'));
    expect(quietHoursEnd(new Date('2026-03-01T19:00:00Z'), lunch)).toBeNull();
  });
});

describe('the actions that change data', () => {
  let context: ActionExecutionContext;
  let course: { id: string; externalCourseId: string | null; courseTitle: string };

  beforeAll(async () => {
    course = await insertCourse(db(), {
      organizationId: owner.organization.id,
      courseTitle: 'Forklift basics',
    });
    context = {
      db: db(),
      runtime: createActionsRuntime({
        authSecret: AUTH_SECRET,
        config: { smtp: undefined, webhookAllowedHosts: [] },
      }),
      organizationId: owner.organization.id,
      organizationName: owner.organization.name,
      actorUserId: null,
    };
  });

  const eventOfCourse = () => ({
    ...SAMPLE_ACTION_EVENT,
    course: { id: course.id, externalCourseId: course.externalCourseId ?? '', title: course.courseTitle },
  });

  it('a test only previews them and changes nothing', async () => {
    const action = await create({
      name: 'Announce',
      config: { type: 'broadcast', courseId: course.id, message: 'Congratulations {{learner.name}}!' },
    });
    const result = (
      await inject({ method: 'POST', url: `/api/actions/${action.id}/test`, headers: owner.headers })
    ).json<ActionTestResult>();
    expect(result).toMatchObject({
      ok: true,
      channel: 'preview',
      request: {
        method: 'SET',
        url: 'The broadcast of “Forklift basics”',
        body: 'Congratulations Sam Learner!',
      },
    });
    const [row] = await db().select().from(courses).where(eq(courses.id, course.id));
    expect(row?.broadcastMessage).toBeNull();
  });

  it('sets a course broadcast through the courses module, credited to the action’s creator', async () => {
    const action = await create({
      name: 'Broadcast',
      config: { type: 'broadcast', message: 'Well done {{learner.name}}' },
    });
    const row = await findActionRow(db(), owner.organization.id, action.id);
    if (!row) throw new Error('missing action');
    const outcome = await executeAction(context, row, { event: eventOfCourse() });
    expect(outcome).toMatchObject({ status: 'succeeded', message: 'Broadcast set' });
    const [updated] = await db().select().from(courses).where(eq(courses.id, course.id));
    expect(updated?.broadcastMessage).toBe('Well done Sam Learner');
    const history = await db().select().from(broadcasts).where(eq(broadcasts.courseId, course.id));
    expect(history.map((entry) => [entry.message, entry.authorId])).toEqual([
      ['Well done Sam Learner', owner.user.id],
    ]);
    const noCourse = await executeAction(context, row, { event: { ...SAMPLE_ACTION_EVENT, course: null } });
    expect(noCourse).toMatchObject({ status: 'failed', message: ACTION_MESSAGES.needsCourse });
  });

  it('sets a learner variable through the ingestion write path, once per delivery', async () => {
    const action = await create({
      name: 'Certify',
      config: {
        type: 'set_variable',
        variableName: 'final_score',
        value: { kind: 'template', template: '{{value}}' },
      },
    });
    const row = await findActionRow(db(), owner.organization.id, action.id);
    if (!row) throw new Error('missing action');
    const first = await executeAction(context, row, { event: eventOfCourse(), deliveryId: 'run-1:node-2' });
    expect(first).toMatchObject({
      status: 'succeeded',
      message: 'Set “final_score” for sam.learner@example.com',
    });
    const retry = await executeAction(context, row, { event: eventOfCourse(), deliveryId: 'run-1:node-2' });
    expect(retry).toMatchObject({
      status: 'succeeded',
      message: 'Already set by an earlier try of this run',
    });
    const values = await db()
      .select({ value: learnerVariableValues.value, email: learners.email, name: variables.name })
      .from(learnerVariableValues)
      .innerJoin(learners, eq(learners.id, learnerVariableValues.learnerId))
      .innerJoin(variables, eq(variables.id, learnerVariableValues.variableId))
      .where(eq(learnerVariableValues.courseId, course.id));
    expect(values).toEqual([{ value: '87', email: 'sam.learner@example.com', name: 'final_score' }]);
  });

  it('notifies the team in the activity feed', async () => {
    const action = await create({
      name: 'Tell the team',
      config: {
        type: 'notify_team',
        message: '{{learner.name}} completed {{course.title}}',
        roles: ['owner'],
      },
    });
    const row = await findActionRow(db(), owner.organization.id, action.id);
    if (!row) throw new Error('missing action');
    expect(await executeAction(context, row, { event: eventOfCourse() })).toMatchObject({
      status: 'succeeded',
    });
    const [entry] = await db()
      .select()
      .from(activityEvents)
      .where(and(eq(activityEvents.subjectId, action.id), eq(activityEvents.kind, 'action.notification')));
    expect(entry).toMatchObject({
      organizationId: owner.organization.id,
      summary: 'Sam Learner completed Forklift basics',
      details: { roles: ['owner'], eventType: 'course.completed', learnerEmail: 'sam.learner@example.com' },
    });
  });
});
