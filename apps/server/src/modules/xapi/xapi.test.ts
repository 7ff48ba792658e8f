import { createHash, randomUUID } from 'node:crypto';
import { LRS_MESSAGES } from '@courselens/contracts';
import { and, eq } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  courseRunQuestions,
  courseRuns,
  courses,
  learners,
  learnerVariableValues,
  learningEvents,
  variables,
  xapiStatements,
} from '../../db/schema';
import { createTestApp, type TestApp } from '../../test/app';
import { changePlanViaApi, signUpViaApi, type SignedUp } from '../../test/auth';

// The Learning Record Store through the real app and database: the xAPI
// resource rules (conflicts, voiding, paging, consistency, documents'
// concurrency, attachments, alternate syntax) and the facts statements
// become. Runs on PGlite and, with scripts/with-postgres.sh, on PostgreSQL.

type Key = { id: string; key: string };
let testApp: TestApp;
let owner: SignedUp;
let key: Key;
let otherOrgKey: Key;

const db = () => testApp.database.db;
const inject = (options: InjectOptions) => testApp.app.inject(options);
const basic = (k: Key) => `Basic ${Buffer.from(`${k.id}:${k.key}`).toString('base64')}`;
let sequence = 0;
const uniqueCourse = () => `https://courses.example.com/${process.pid}/course-${++sequence}`;

async function createKey(who: SignedUp, name: string): Promise<Key> {
  const response = await inject({
    method: 'POST',
    url: '/api/api-keys',
    headers: who.headers,
    payload: { name, scope: 'ingest' },
  });
  expect(response.statusCode).toBe(201);
  return response.json<Key>();
}

beforeAll(async () => {
  testApp = await createTestApp();
  owner = await signUpViaApi(testApp.app);
  await changePlanViaApi(testApp.app, owner);
  key = await createKey(owner, 'Storyline');
  const stranger = await signUpViaApi(testApp.app);
  otherOrgKey = await createKey(stranger, 'Other LMS');
});

afterAll(async () => {
  await testApp.close();
});

type LrsOptions = {
  payload?: unknown;
  headers?: Record<string, string>;
  as?: Key | null;
  contentType?: string;
};

function lrs(method: InjectOptions['method'], url: string, options: LrsOptions = {}) {
  const { payload, as = key, contentType = 'application/json' } = options;
  return inject({
    method,
    url,
    headers: {
      'x-experience-api-version': '1.0.3',
      ...(as ? { authorization: basic(as) } : {}),
      ...(payload !== undefined ? { 'content-type': contentType } : {}),
      ...options.headers,
    },
    ...(payload !== undefined
      ? {
          payload: Buffer.isBuffer(payload)
            ? payload
            : typeof payload === 'string'
              ? payload
              : JSON.stringify(payload),
        }
      : {}),
  });
}

const VERB = (name: string) => ({
  id: `http://adlnet.gov/expapi/verbs/${name}`,
  display: { 'en-US': name },
});

function learner(email = `learner-${++sequence}@example.com`, name = 'Ann Example') {
  return { objectType: 'Agent', name, mbox: `mailto:${email}` };
}

/** A statement as Storyline 360 sends it: the course in grouping, the slide as parent. */
function statement(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    actor: learner(),
    verb: VERB('experienced'),
    object: {
      objectType: 'Activity',
      id: 'https://courses.example.com/generic/slide-1',
      definition: { name: { 'en-US': 'Welcome' } },
    },
    ...overrides,
  };
}

async function post(body: unknown, as: Key = key): Promise<string[]> {
  const response = await lrs('POST', '/xapi/statements', { payload: body, as });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<string[]>();
}

async function query(search: string, as: Key = key) {
  const response = await lrs('GET', `/xapi/statements${search}`, { as });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ statements: Record<string, unknown>[]; more: string }>();
}

describe('the LRS surface', () => {
  it('answers /about without credentials, with the version header', async () => {
    const response = await inject({ method: 'GET', url: '/xapi/about' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['x-experience-api-version']).toBe('1.0.3');
    expect(response.json()).toEqual({ version: ['1.0.3', '1.0.2', '1.0.1', '1.0.0'], extensions: {} });
  });

  it('refuses a missing or wrong credential, and a key id that is not the key’s own', async () => {
    const none = await lrs('GET', '/xapi/statements', { as: null });
    expect(none.statusCode).toBe(401);
    expect(none.json()).toMatchObject({ error: LRS_MESSAGES.invalidCredentials });
    expect(none.headers['x-experience-api-version']).toBe('1.0.3');
    const wrongId = await inject({
      method: 'GET',
      url: '/xapi/statements',
      headers: {
        'x-experience-api-version': '1.0.3',
        authorization: `Basic ${Buffer.from(`${otherOrgKey.id}:${key.key}`).toString('base64')}`,
      },
    });
    expect(wrongId.statusCode).toBe(401);
    const bearer = await inject({
      method: 'GET',
      url: '/xapi/statements',
      headers: { 'x-experience-api-version': '1.0.3', authorization: `Bearer ${key.key}` },
    });
    expect(bearer.statusCode).toBe(200);
  });

  it('requires a supported X-Experience-API-Version', async () => {
    const missing = await lrs('GET', '/xapi/statements', { headers: { 'x-experience-api-version': '' } });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ error: LRS_MESSAGES.versionMissing });
    const old = await lrs('GET', '/xapi/statements', { headers: { 'x-experience-api-version': '0.95' } });
    expect(old.statusCode).toBe(400);
    expect(old.json()).toMatchObject({ error: LRS_MESSAGES.versionUnsupported('0.95') });
    const older = await lrs('GET', '/xapi/statements', { headers: { 'x-experience-api-version': '1.0.1' } });
    expect(older.statusCode).toBe(200);
  });

  it('answers a browser’s preflight and any origin', async () => {
    const preflight = await inject({
      method: 'OPTIONS',
      url: '/xapi/statements',
      headers: {
        origin: 'https://lms.example.com',
        'access-control-request-method': 'PUT',
        'access-control-request-headers': 'authorization, x-experience-api-version, content-type',
      },
    });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe('*');
    expect(String(preflight.headers['access-control-allow-headers'])).toContain('X-Experience-API-Version');
    expect(String(preflight.headers['access-control-allow-methods'])).toContain('PUT');
    const get = await lrs('GET', '/xapi/statements?limit=1', {
      headers: { origin: 'https://lms.example.com' },
    });
    expect(get.headers['access-control-allow-origin']).toBe('*');
    expect(String(get.headers['access-control-expose-headers'])).toContain(
      'X-Experience-API-Consistent-Through',
    );
  });

  it('answers an unknown LRS path with a JSON 404', async () => {
    const response = await lrs('GET', '/xapi/nothing-here');
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-type']).toContain('application/json');
  });
});

describe('statements', () => {
  it('stores a PUT statement whole, with stored, authority, timestamp and version set by the LRS', async () => {
    const id = randomUUID();
    const sent = statement();
    const put = await lrs('PUT', `/xapi/statements?statementId=${id}`, { payload: sent });
    expect(put.statusCode, put.body).toBe(204);
    const got = await lrs('GET', `/xapi/statements?statementId=${id}`);
    expect(got.statusCode).toBe(200);
    const stored = got.json<Record<string, unknown>>();
    expect(stored).toMatchObject({ ...sent, id, version: '1.0.0' });
    expect(typeof stored.stored).toBe('string');
    expect(stored.timestamp).toBe(stored.stored);
    expect(stored.authority).toMatchObject({ objectType: 'Agent', account: { name: key.id } });
    expect(got.headers['last-modified']).toBeDefined();
    expect(got.headers['x-experience-api-consistent-through']).toBeDefined();
  });

  it('gives ids to POSTed statements and returns them in order', async () => {
    const mine = randomUUID();
    const ids = await post([statement(), statement({ id: mine }), statement()]);
    expect(ids).toHaveLength(3);
    expect(ids[1]).toBe(mine);
    expect(new Set(ids).size).toBe(3);
  });

  it('takes the same statement again without change, and refuses different content under its id (409)', async () => {
    const id = randomUUID();
    const sent = statement({ id });
    await post(sent);
    const [before] = await db().select().from(xapiStatements).where(eq(xapiStatements.id, id));
    // The same statement, keys in another order and the timestamp absent: no change.
    const again = await lrs('PUT', `/xapi/statements?statementId=${id}`, {
      payload: { object: sent.object, verb: sent.verb, actor: sent.actor },
    });
    expect(again.statusCode).toBe(204);
    expect(await post(sent)).toEqual([id]);
    const conflict = await lrs('POST', '/xapi/statements', {
      payload: [statement(), { ...sent, verb: VERB('completed') }],
    });
    expect(conflict.statusCode).toBe(409);
    expect(conflict.json()).toMatchObject({ error: LRS_MESSAGES.statementConflict(id) });
    const [after] = await db().select().from(xapiStatements).where(eq(xapiStatements.id, id));
    expect(after).toEqual(before);
  });

  it('refuses a whole batch when one statement is invalid, naming the property', async () => {
    const before = (await query('?limit=0')).statements.length;
    const response = await lrs('POST', '/xapi/statements', {
      payload: [statement(), statement({ actor: { mbox: 'ann@example.com' } })],
    });
    expect(response.statusCode).toBe(400);
    expect(response.json<{ error: string }>().error).toContain('statements[1].actor.mbox');
    expect((await query('?limit=0')).statements.length).toBe(before);
  });

  it('refuses an id twice in one request, a PUT whose id differs, and a body that is not JSON', async () => {
    const id = randomUUID();
    const twice = await lrs('POST', '/xapi/statements', { payload: [statement({ id }), statement({ id })] });
    expect(twice.statusCode).toBe(400);
    expect(twice.json()).toMatchObject({ error: LRS_MESSAGES.duplicateInBatch(id) });
    const mismatch = await lrs('PUT', `/xapi/statements?statementId=${randomUUID()}`, {
      payload: statement({ id }),
    });
    expect(mismatch.json()).toMatchObject({ error: LRS_MESSAGES.statementIdMismatch });
    const notJson = await lrs('POST', '/xapi/statements', { payload: '{"actor": ' });
    expect(notJson.json()).toMatchObject({ error: LRS_MESSAGES.invalidJson });
    const text = await lrs('POST', '/xapi/statements', { payload: 'hello', contentType: 'text/plain' });
    expect(text.json()).toMatchObject({ error: LRS_MESSAGES.statementsContentType });
  });

  it('voids a statement: gone from queries and statementId, there by voidedStatementId', async () => {
    const activity = uniqueCourse();
    const [target] = await post(statement({ object: { id: activity } }));
    const [voiding] = await post(
      statement({ verb: VERB('voided'), object: { objectType: 'StatementRef', id: target } }),
    );
    expect((await lrs('GET', `/xapi/statements?statementId=${target}`)).statusCode).toBe(404);
    const voided = await lrs('GET', `/xapi/statements?voidedStatementId=${target}`);
    expect(voided.statusCode).toBe(200);
    expect(voided.json()).toMatchObject({ id: target });
    expect((await lrs('GET', `/xapi/statements?voidedStatementId=${voiding}`)).statusCode).toBe(404);
    const page = await query(`?activity=${encodeURIComponent(activity)}`);
    expect(page.statements.map((s) => s.id)).toEqual([]);
    // The voiding statement itself is a statement like any other.
    expect((await lrs('GET', `/xapi/statements?statementId=${voiding}`)).statusCode).toBe(200);
    const again = await lrs('POST', '/xapi/statements', {
      payload: statement({ verb: VERB('voided'), object: { objectType: 'StatementRef', id: voiding } }),
    });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toMatchObject({ error: LRS_MESSAGES.voidingVoiding(voiding as string) });
  });

  it('pages a query with more links until the last page, newest first or ascending', async () => {
    const activity = uniqueCourse();
    const ids: string[] = [];
    for (let i = 0; i < 5; i += 1) {
      ids.push(...(await post(statement({ object: { id: activity } }))));
    }
    const seen: string[] = [];
    let page = await query(`?activity=${encodeURIComponent(activity)}&limit=2`);
    for (;;) {
      seen.push(...page.statements.map((s) => s.id as string));
      if (!page.more) break;
      expect(page.more).toMatch(/^\/xapi\/statements\?more=/);
      page = await query(page.more.slice('/xapi/statements'.length));
    }
    expect(seen).toEqual([...ids].reverse());
    const ascending = await query(`?activity=${encodeURIComponent(activity)}&ascending=true&limit=0`);
    expect(ascending.statements.map((s) => s.id)).toEqual(ids);
    expect(ascending.more).toBe('');
    const bad = await lrs('GET', '/xapi/statements?more=not-a-token');
    expect(bad.json()).toMatchObject({ error: LRS_MESSAGES.invalidMore });
  });

  it('says statements stored before X-Experience-API-Consistent-Through are all visible', async () => {
    const before = Date.now();
    const [id] = await post(statement());
    const response = await lrs('GET', '/xapi/statements?limit=1');
    const through = Date.parse(String(response.headers['x-experience-api-consistent-through']));
    expect(through).toBeGreaterThanOrEqual(before - 1);
    const stored = (await lrs('GET', `/xapi/statements?statementId=${id}`)).json<{ stored: string }>().stored;
    expect(Date.parse(stored)).toBeLessThanOrEqual(through + 1);
  });

  it('filters by agent, verb, activity, registration, related activities and agents, since and until', async () => {
    const course = uniqueCourse();
    const slide = `${course}/slide-9`;
    const ann = learner();
    const registration = randomUUID();
    const instructor = learner();
    const [a] = await post(
      statement({
        actor: ann,
        verb: VERB('experienced'),
        object: { id: slide },
        context: {
          registration,
          instructor,
          contextActivities: { grouping: [{ id: course }] },
        },
      }),
    );
    const mark = new Date().toISOString();
    await new Promise((resolve) => setTimeout(resolve, 5));
    const [b] = await post(statement({ actor: ann, verb: VERB('completed'), object: { id: course } }));
    const agent = encodeURIComponent(JSON.stringify({ mbox: ann.mbox }));
    const ids = async (search: string) => (await query(search)).statements.map((s) => s.id);
    expect(await ids(`?agent=${agent}`)).toEqual([b, a]);
    expect(await ids(`?agent=${agent}&verb=${encodeURIComponent(VERB('completed').id)}`)).toEqual([b]);
    expect(await ids(`?activity=${encodeURIComponent(course)}`)).toEqual([b]);
    expect(await ids(`?activity=${encodeURIComponent(course)}&related_activities=true`)).toEqual([b, a]);
    expect(await ids(`?registration=${registration}`)).toEqual([a]);
    const teacher = encodeURIComponent(JSON.stringify({ mbox: instructor.mbox }));
    expect(await ids(`?agent=${teacher}`)).toEqual([]);
    expect(await ids(`?agent=${teacher}&related_agents=true`)).toEqual([a]);
    expect(await ids(`?agent=${agent}&since=${encodeURIComponent(mark)}`)).toEqual([b]);
    expect(await ids(`?agent=${agent}&until=${encodeURIComponent(mark)}`)).toEqual([a]);
    const unknown = await lrs('GET', '/xapi/statements?colour=red');
    expect(unknown.json()).toMatchObject({ error: LRS_MESSAGES.unknownParameter('colour') });
    const combined = await lrs(
      'GET',
      `/xapi/statements?statementId=${a}&verb=${encodeURIComponent(VERB('completed').id)}`,
    );
    expect(combined.json()).toMatchObject({ error: LRS_MESSAGES.statementIdWithFilters });
  });

  it('returns statements that point at a matching statement (StatementRef)', async () => {
    const course = uniqueCourse();
    const [target] = await post(statement({ object: { id: course } }));
    const [pointer] = await post(
      statement({ verb: VERB('commented'), object: { objectType: 'StatementRef', id: target } }),
    );
    const page = await query(`?activity=${encodeURIComponent(course)}`);
    expect(page.statements.map((s) => s.id)).toEqual([pointer, target]);
  });

  it('formats ids and canonical', async () => {
    const course = uniqueCourse();
    const ann = learner();
    const [id] = await post(
      statement({
        actor: ann,
        verb: { id: VERB('experienced').id, display: { 'en-US': 'experienced', 'fr-FR': 'a vécu' } },
        object: { id: course, definition: { name: { 'en-US': 'Safety', 'fr-FR': 'Sécurité' } } },
      }),
    );
    const ids = await lrs('GET', `/xapi/statements?statementId=${id}&format=ids`);
    expect(ids.json()).toMatchObject({
      actor: { objectType: 'Agent', mbox: ann.mbox },
      verb: { id: VERB('experienced').id },
      object: { objectType: 'Activity', id: course },
    });
    expect(ids.json<{ actor: Record<string, unknown> }>().actor.name).toBeUndefined();
    const canonical = await lrs('GET', `/xapi/statements?statementId=${id}&format=canonical`, {
      headers: { 'accept-language': 'fr-FR, en;q=0.5' },
    });
    expect(canonical.json()).toMatchObject({
      verb: { display: { 'fr-FR': 'a vécu' } },
      object: { definition: { name: { 'fr-FR': 'Sécurité' } } },
    });
    expect(Object.keys(canonical.json<{ verb: { display: object } }>().verb.display)).toEqual(['fr-FR']);
  });

  it('never shows one organization’s statements to another', async () => {
    const [id] = await post(statement());
    expect((await lrs('GET', `/xapi/statements?statementId=${id}`, { as: otherOrgKey })).statusCode).toBe(
      404,
    );
    const theirs = await query('?limit=0', otherOrgKey);
    expect(theirs.statements.map((s) => s.id)).not.toContain(id);
    // The same id in another organization is a different statement.
    const put = await lrs('PUT', `/xapi/statements?statementId=${id}`, {
      payload: statement({ verb: VERB('completed') }),
      as: otherOrgKey,
    });
    expect(put.statusCode).toBe(204);
  });
});

describe('attachments', () => {
  const boundary = 'xapi-boundary-1';
  function multipart(statements: unknown, parts: { contentType: string; body: Buffer }[]): Buffer {
    const chunks: Buffer[] = [
      Buffer.from(`--${boundary}\r\nContent-Type: application/json\r\n\r\n${JSON.stringify(statements)}\r\n`),
    ];
    for (const part of parts) {
      const hash = createHash('sha256').update(part.body).digest('hex');
      chunks.push(
        Buffer.from(
          `--${boundary}\r\nContent-Type: ${part.contentType}\r\nContent-Transfer-Encoding: binary\r\nX-Experience-API-Hash: ${hash}\r\n\r\n`,
        ),
        part.body,
        Buffer.from('\r\n'),
      );
    }
    chunks.push(Buffer.from(`--${boundary}--\r\n`));
    return Buffer.concat(chunks);
  }
  const certificate = Buffer.from('%PDF-1.4 a certificate of completion \u0000\u00ff binary');
  const sha2 = createHash('sha256').update(certificate).digest('hex');
  const attachment = {
    usageType: 'http://id.tincanapi.com/attachment/certificate-of-completion',
    display: { 'en-US': 'Certificate' },
    contentType: 'application/pdf',
    length: certificate.length,
    sha2,
  };

  it('stores a statement with its attachment and returns both with attachments=true', async () => {
    const course = uniqueCourse();
    const response = await lrs('POST', '/xapi/statements', {
      payload: multipart(
        [statement({ object: { id: course }, attachments: [attachment] })],
        [{ contentType: 'application/pdf', body: certificate }],
      ),
      contentType: `multipart/mixed; boundary=${boundary}`,
    });
    expect(response.statusCode, response.body).toBe(200);
    const [id] = response.json<string[]>();
    const plain = await lrs('GET', `/xapi/statements?statementId=${id}`);
    expect(plain.headers['content-type']).toContain('application/json');
    const withAttachments = await lrs('GET', `/xapi/statements?statementId=${id}&attachments=true`);
    expect(withAttachments.headers['content-type']).toMatch(/^multipart\/mixed; boundary=/);
    const raw = withAttachments.rawPayload;
    expect(raw.indexOf(certificate)).toBeGreaterThan(0);
    expect(raw.toString('latin1')).toContain(`X-Experience-API-Hash: ${sha2}`);
    const page = await lrs('GET', `/xapi/statements?activity=${encodeURIComponent(course)}&attachments=true`);
    expect(page.rawPayload.indexOf(certificate)).toBeGreaterThan(0);
  });

  it('refuses an attachment with no part, a part with no attachment, and a bad hash', async () => {
    const missing = await lrs('POST', '/xapi/statements', {
      payload: statement({ attachments: [attachment] }),
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ error: LRS_MESSAGES.attachmentMissing(sha2) });
    const unused = await lrs('POST', '/xapi/statements', {
      payload: multipart([statement()], [{ contentType: 'application/pdf', body: certificate }]),
      contentType: `multipart/mixed; boundary=${boundary}`,
    });
    expect(unused.statusCode).toBe(400);
    expect(unused.json()).toMatchObject({ error: LRS_MESSAGES.attachmentPartUnused(sha2) });
    const tampered = multipart(
      [statement({ attachments: [attachment] })],
      [{ contentType: 'application/pdf', body: certificate }],
    );
    const at = tampered.indexOf(certificate) + 2;
    tampered[at] = (tampered[at] ?? 0) ^ 1;
    const badHash = await lrs('POST', '/xapi/statements', {
      payload: tampered,
      contentType: `multipart/mixed; boundary=${boundary}`,
    });
    expect(badHash.statusCode).toBe(400);
    expect(badHash.json<{ error: string }>().error).toContain('X-Experience-API-Hash');
  });

  it('checks a signed statement’s JWS against the statement', async () => {
    const signed = statement({ id: randomUUID() });
    const segment = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const jwsFor = (payload: unknown, alg = 'RS256') =>
      Buffer.from(
        `${segment({ alg })}.${segment(payload)}.${Buffer.from('signature').toString('base64url')}`,
      );
    const signatureAttachment = (jws: Buffer) => ({
      usageType: 'http://adlnet.gov/expapi/attachments/signature',
      display: { 'en-US': 'Signature' },
      contentType: 'application/octet-stream',
      length: jws.length,
      sha2: createHash('sha256').update(jws).digest('hex'),
    });
    const send = (jws: Buffer, body: Record<string, unknown>) =>
      lrs('POST', '/xapi/statements', {
        payload: multipart(
          [{ ...body, attachments: [signatureAttachment(jws)] }],
          [{ contentType: 'application/octet-stream', body: jws }],
        ),
        contentType: `multipart/mixed; boundary=${boundary}`,
      });
    const good = jwsFor(signed);
    expect((await send(good, signed)).statusCode).toBe(200);
    const other = statement({ id: randomUUID() });
    const mismatch = await send(jwsFor({ ...other, verb: VERB('failed') }), other);
    expect(mismatch.statusCode).toBe(400);
    const hs = statement({ id: randomUUID() });
    const wrongAlg = await send(jwsFor(hs, 'HS256'), hs);
    expect(wrongAlg.statusCode).toBe(400);
    expect(wrongAlg.json<{ error: string }>().error).toContain('HS256');
  });
});

describe('documents', () => {
  const agent = JSON.stringify({ mbox: 'mailto:docs@example.com' });
  const activity = 'https://courses.example.com/docs-course';
  const stateUrl = (stateId?: string, extra = '') =>
    `/xapi/activities/state?activityId=${encodeURIComponent(activity)}&agent=${encodeURIComponent(agent)}${
      stateId ? `&stateId=${encodeURIComponent(stateId)}` : ''
    }${extra}`;

  it('puts, gets, merges, lists and deletes state with ETags', async () => {
    const put = await lrs('PUT', stateUrl('bookmark'), { payload: 'slide-4', contentType: 'text/plain' });
    expect(put.statusCode).toBe(204);
    const got = await lrs('GET', stateUrl('bookmark'));
    expect(got.statusCode).toBe(200);
    expect(got.body).toBe('slide-4');
    expect(got.headers['content-type']).toContain('text/plain');
    expect(got.headers.etag).toBe(`"${createHash('sha1').update('slide-4').digest('hex')}"`);
    const head = await lrs('HEAD', stateUrl('bookmark'));
    expect(head.statusCode).toBe(200);
    expect(head.headers.etag).toBe(got.headers.etag);
    expect(head.body).toBe('');

    await lrs('POST', stateUrl('progress'), { payload: { a: 1, b: 1 } });
    const merged = await lrs('POST', stateUrl('progress'), { payload: { b: 2, c: 3 } });
    expect(merged.statusCode).toBe(204);
    expect((await lrs('GET', stateUrl('progress'))).json()).toEqual({ a: 1, b: 2, c: 3 });
    const notJson = await lrs('POST', stateUrl('bookmark'), { payload: { d: 4 } });
    expect(notJson.statusCode).toBe(400);
    expect(notJson.json()).toMatchObject({ error: LRS_MESSAGES.mergeNeedsJson });

    const registration = randomUUID();
    await lrs('PUT', stateUrl('bookmark', `&registration=${registration}`), {
      payload: 'slide-9',
      contentType: 'text/plain',
    });
    expect((await lrs('GET', stateUrl())).json()).toEqual(['bookmark', 'progress']);
    expect((await lrs('GET', stateUrl(undefined, `&registration=${registration}`))).json()).toEqual([
      'bookmark',
    ]);
    const future = encodeURIComponent(new Date(Date.now() + 60_000).toISOString());
    expect((await lrs('GET', stateUrl(undefined, `&since=${future}`))).json()).toEqual([]);

    expect((await lrs('DELETE', stateUrl('bookmark'))).statusCode).toBe(204);
    expect((await lrs('GET', stateUrl('bookmark'))).statusCode).toBe(404);
    expect((await lrs('DELETE', stateUrl())).statusCode).toBe(204);
    expect((await lrs('GET', stateUrl())).json()).toEqual([]);
    expect((await lrs('GET', stateUrl(undefined, `&registration=${registration}`))).json()).toEqual([
      'bookmark',
    ]);
  });

  it('guards profiles with If-Match and If-None-Match (412) and a blind overwrite (409)', async () => {
    const profileUrl = `/xapi/activities/profile?activityId=${encodeURIComponent(activity)}&profileId=settings`;
    const created = await lrs('PUT', profileUrl, {
      payload: { theme: 'dark' },
      headers: { 'if-none-match': '*' },
    });
    expect(created.statusCode).toBe(204);
    const etag = String((await lrs('GET', profileUrl)).headers.etag);
    const again = await lrs('PUT', profileUrl, {
      payload: { theme: 'x' },
      headers: { 'if-none-match': '*' },
    });
    expect(again.statusCode).toBe(412);
    expect(again.json()).toMatchObject({ error: LRS_MESSAGES.ifNoneMatchFailed });
    const blind = await lrs('PUT', profileUrl, { payload: { theme: 'light' } });
    expect(blind.statusCode).toBe(409);
    expect(blind.json()).toMatchObject({ error: LRS_MESSAGES.concurrencyRequired });
    const stale = await lrs('PUT', profileUrl, {
      payload: { theme: 'light' },
      headers: { 'if-match': '"0000"' },
    });
    expect(stale.statusCode).toBe(412);
    expect(stale.json()).toMatchObject({ error: LRS_MESSAGES.ifMatchFailed });
    const fresh = await lrs('PUT', profileUrl, {
      payload: { theme: 'light' },
      headers: { 'if-match': etag },
    });
    expect(fresh.statusCode).toBe(204);
    expect((await lrs('GET', profileUrl)).json()).toEqual({ theme: 'light' });
    const staleDelete = await lrs('DELETE', profileUrl, { headers: { 'if-match': etag } });
    expect(staleDelete.statusCode).toBe(412);
    const list = await lrs('GET', `/xapi/activities/profile?activityId=${encodeURIComponent(activity)}`);
    expect(list.json()).toEqual(['settings']);
  });

  it('keeps agent profiles per agent, and refuses a missing agent', async () => {
    const url = `/xapi/agents/profile?agent=${encodeURIComponent(agent)}&profileId=prefs`;
    expect((await lrs('PUT', url, { payload: { lang: 'fr' } })).statusCode).toBe(204);
    expect((await lrs('GET', url)).json()).toEqual({ lang: 'fr' });
    const other = `/xapi/agents/profile?agent=${encodeURIComponent(JSON.stringify({ mbox: 'mailto:x@example.com' }))}&profileId=prefs`;
    expect((await lrs('GET', other)).statusCode).toBe(404);
    const missing = await lrs('GET', '/xapi/agents/profile?profileId=prefs');
    expect(missing.json()).toMatchObject({ error: LRS_MESSAGES.parameterRequired('agent') });
    expect((await lrs('GET', url, { as: otherOrgKey })).statusCode).toBe(404);
  });

  it('takes the alternate request syntax (a form POST standing for PUT)', async () => {
    const form = new URLSearchParams({
      activityId: activity,
      agent,
      stateId: 'alternate',
      Authorization: basic(key),
      'X-Experience-API-Version': '1.0.3',
      'Content-Type': 'application/json',
      content: JSON.stringify({ page: 7 }),
    });
    const response = await inject({
      method: 'POST',
      url: '/xapi/activities/state?method=PUT',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: form.toString(),
    });
    expect(response.statusCode, response.body).toBe(204);
    expect((await lrs('GET', stateUrl('alternate'))).json()).toEqual({ page: 7 });
    const extra = await inject({
      method: 'POST',
      url: '/xapi/activities/state?method=PUT&stateId=x',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basic(key) },
      payload: form.toString(),
    });
    expect(extra.statusCode).toBe(400);
    expect(extra.json()).toMatchObject({ error: LRS_MESSAGES.alternateSyntax });
    const noCredential = await inject({
      method: 'POST',
      url: '/xapi/statements?method=GET',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ 'X-Experience-API-Version': '1.0.3' }).toString(),
    });
    expect(noCredential.statusCode).toBe(401);
  });
});

describe('activities and agents', () => {
  it('returns the latest definition of an activity, and a Person for an agent', async () => {
    const course = uniqueCourse();
    const ann = learner(undefined, 'Ann From Storyline');
    await post(statement({ actor: ann, object: { id: course, definition: { name: { 'en-US': 'First' } } } }));
    await post(
      statement({ actor: ann, object: { id: course, definition: { name: { 'en-US': 'Second' } } } }),
    );
    const activity = await lrs('GET', `/xapi/activities?activityId=${encodeURIComponent(course)}`);
    expect(activity.json()).toEqual({
      objectType: 'Activity',
      id: course,
      definition: { name: { 'en-US': 'Second' } },
    });
    expect(
      (await lrs('GET', `/xapi/activities?activityId=${encodeURIComponent(uniqueCourse())}`)).statusCode,
    ).toBe(404);
    const person = await lrs(
      'GET',
      `/xapi/agents?agent=${encodeURIComponent(JSON.stringify({ mbox: ann.mbox }))}`,
    );
    expect(person.json()).toEqual({ objectType: 'Person', name: ['Ann From Storyline'], mbox: [ann.mbox] });
  });
});

describe('statements become CourseLens facts', () => {
  it('turns a Storyline attempt into a run, slide views, an answer, a variable and a pass', async () => {
    const course = uniqueCourse();
    const email = `storyline-${++sequence}@example.com`;
    const actor = learner(email, 'Sam Storyline');
    const registration = randomUUID();
    const courseActivity = {
      id: course,
      definition: { type: 'http://adlnet.gov/expapi/activities/course', name: { 'en-US': 'Fire safety' } },
    };
    const context = { registration, contextActivities: { grouping: [courseActivity] } };
    const at = (seconds: number) => new Date(Date.now() - 600_000 + seconds * 1000).toISOString();
    await post([
      { actor, verb: VERB('attempted'), object: courseActivity, context: { registration }, timestamp: at(0) },
      {
        actor,
        verb: VERB('experienced'),
        object: { id: `${course}/scene1/slide1`, definition: { name: { 'en-US': 'Welcome' } } },
        context,
        timestamp: at(1),
      },
      {
        actor,
        verb: VERB('experienced'),
        object: { id: `${course}/scene1/slide2`, definition: { name: { 'en-US': 'Exits' } } },
        context,
        timestamp: at(2),
      },
      {
        actor,
        verb: VERB('answered'),
        object: {
          id: `${course}/scene1/slide2/q1`,
          definition: {
            type: 'http://adlnet.gov/expapi/activities/cmi.interaction',
            description: { 'en-US': 'Which exit is nearest?' },
            interactionType: 'choice',
            correctResponsesPattern: ['north'],
            choices: [
              { id: 'north', description: { 'en-US': 'North door' } },
              { id: 'south', description: { 'en-US': 'South door' } },
            ],
          },
        },
        result: { response: 'south', score: { raw: 0, max: 10 } },
        context,
        timestamp: at(3),
      },
      {
        actor,
        verb: VERB('experienced'),
        object: { id: `${course}/scene1/slide3` },
        result: { extensions: { 'https://courses.example.com/xapi/variables/department': 'Sales' } },
        context,
        timestamp: at(4),
      },
      {
        actor,
        verb: VERB('passed'),
        object: courseActivity,
        result: { score: { scaled: 0.8 }, completion: true, success: true },
        context: { registration },
        timestamp: at(5),
      },
    ]);

    const [row] = await db()
      .select({ id: courses.id, title: courses.courseTitle })
      .from(courses)
      .where(eq(courses.externalCourseId, course));
    expect(row?.title).toBe('Fire safety');
    const [person] = await db().select().from(learners).where(eq(learners.email, email));
    expect(person?.name).toBe('Sam Storyline');
    const runs = await db()
      .select()
      .from(courseRuns)
      .where(eq(courseRuns.courseId, row?.id as string));
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ passed: true, score: 80 });
    expect(runs[0]?.completedAt).not.toBeNull();
    const answers = await db()
      .select()
      .from(courseRunQuestions)
      .where(eq(courseRunQuestions.learnerId, person?.id as string));
    expect(answers).toMatchObject([
      { answerChoice: 'South door', correct: false, correctAnswer: 'North door', pointsAssigned: 0 },
    ]);
    const [department] = await db()
      .select({ value: learnerVariableValues.value })
      .from(learnerVariableValues)
      .innerJoin(variables, eq(variables.id, learnerVariableValues.variableId))
      .where(
        and(eq(learnerVariableValues.learnerId, person?.id as string), eq(variables.name, 'department')),
      );
    expect(department?.value).toBe('Sales');
    const slides = await db()
      .select({ number: learningEvents.slideNumber, title: learningEvents.slideTitle })
      .from(learningEvents)
      .where(and(eq(learningEvents.learnerId, person?.id as string), eq(learningEvents.type, 'slide.viewed')))
      .orderBy(learningEvents.occurredAt);
    expect(slides).toEqual([
      { number: 1, title: 'Welcome' },
      { number: 2, title: 'Exits' },
      { number: 3, title: null },
    ]);

    // The same facts through the product's API: the course's questions list the answer.
    const questions = await inject({
      method: 'GET',
      url: `/api/courses/${row?.id}/questions`,
      headers: owner.headers,
    });
    expect(questions.statusCode).toBe(200);
    expect(questions.body).toContain('Which exit is nearest?');
  });

  it('keeps each slide’s first number across requests and learners; a refused request numbers nothing', async () => {
    const course = uniqueCourse();
    const courseActivity = {
      id: course,
      definition: { type: 'http://adlnet.gov/expapi/activities/course', name: { 'en-US': 'Numbers' } },
    };
    const context = { contextActivities: { grouping: [courseActivity] } };
    const viewed = (email: string, slide: string, extra: Record<string, unknown> = {}) => ({
      actor: learner(email),
      verb: VERB('experienced'),
      object: { id: `${course}/${slide}` },
      context,
      ...extra,
    });
    const numbersOf = async (email: string) => {
      const [person] = await db().select().from(learners).where(eq(learners.email, email));
      const rows = await db()
        .select({ number: learningEvents.slideNumber })
        .from(learningEvents)
        .where(
          and(eq(learningEvents.learnerId, person?.id as string), eq(learningEvents.type, 'slide.viewed')),
        )
        .orderBy(learningEvents.occurredAt);
      return rows.map((row) => row.number);
    };
    // Distinct timestamps: the views read back in the order they happened.
    const at = (seconds: number) => new Date(Date.now() - 60_000 + seconds * 1000).toISOString();
    const first = `slides-a-${++sequence}@example.com`;
    await post([
      { actor: learner(first), verb: VERB('attempted'), object: courseActivity, timestamp: at(0) },
      viewed(first, 'slide-a', { timestamp: at(1) }),
      viewed(first, 'slide-b', { timestamp: at(2) }),
    ]);
    expect(await numbersOf(first)).toEqual([1, 2]);

    // A request that would number slide-c fails as a whole (a conflicting id).
    const [stored] = await post([viewed(first, 'slide-a')]);
    const refused = await lrs('POST', '/xapi/statements', {
      payload: [viewed(first, 'slide-c'), viewed(first, 'slide-b', { id: stored })],
    });
    expect(refused.statusCode).toBe(409);

    // The next learner sees known slides with their numbers, and new ones next in line.
    const second = `slides-b-${++sequence}@example.com`;
    await post([
      viewed(second, 'slide-b', { timestamp: at(1) }),
      viewed(second, 'slide-d', { timestamp: at(2) }),
      viewed(second, 'slide-c', { timestamp: at(3) }),
    ]);
    expect(await numbersOf(second)).toEqual([2, 3, 4]);
  });

  it('reads a `variables` state document as the learner’s course variables, writing only what changed', async () => {
    const course = uniqueCourse();
    const email = `state-${++sequence}@example.com`;
    const url = `/xapi/activities/state?activityId=${encodeURIComponent(course)}&agent=${encodeURIComponent(
      JSON.stringify({ mbox: `mailto:${email}`, name: 'Stella State' }),
    )}&stateId=variables`;
    expect((await lrs('PUT', url, { payload: { department: 'Sales', score: 80 } })).statusCode).toBe(204);
    expect((await lrs('POST', url, { payload: { score: 90 } })).statusCode).toBe(204);
    // The same document again changes nothing.
    expect((await lrs('POST', url, { payload: { score: 90 } })).statusCode).toBe(204);
    const valuesOf = () =>
      db()
        .select({ name: variables.name, value: learnerVariableValues.value })
        .from(learnerVariableValues)
        .innerJoin(variables, eq(variables.id, learnerVariableValues.variableId))
        .innerJoin(learners, eq(learners.id, learnerVariableValues.learnerId))
        .where(eq(learners.email, email))
        .orderBy(learnerVariableValues.recordedAt, variables.name);
    const expected = [
      { name: 'department', value: 'Sales' },
      { name: 'score', value: '80' },
      { name: 'score', value: '90' },
    ];
    expect(await valuesOf()).toEqual(expected);
    // Any other state (Storyline's bookmark and suspend data) is kept and maps to nothing.
    const bookmark = url.replace('stateId=variables', 'stateId=bookmark');
    expect((await lrs('PUT', bookmark, { payload: { department: 'IT' } })).statusCode).toBe(204);
    expect(await valuesOf()).toEqual(expected);
  });

  it('keeps a statement that maps to nothing, with the reason', async () => {
    const [id] = await post(
      statement({
        actor: { objectType: 'Agent', mbox_sha1sum: 'a'.repeat(40) },
        object: { id: uniqueCourse() },
      }),
    );
    const [row] = await db()
      .select({ reason: xapiStatements.unmappedReason })
      .from(xapiStatements)
      .where(eq(xapiStatements.id, id as string));
    expect(row?.reason).toMatch(/mbox_sha1sum.*not a learner/);
    expect((await lrs('GET', `/xapi/statements?statementId=${id}`)).statusCode).toBe(200);

    // The API keys tab lists it with the reason, newest first.
    const activity = await inject({ method: 'GET', url: '/api/lrs/activity', headers: owner.headers });
    expect(activity.statusCode).toBe(200);
    const body = activity.json<{
      unmapped: number;
      lastStoredAt: string | null;
      recentUnmapped: { id: string; verb: string; reason: string }[];
    }>();
    expect(body.unmapped).toBeGreaterThanOrEqual(1);
    expect(body.lastStoredAt).not.toBeNull();
    expect(body.recentUnmapped[0]).toMatchObject({ id, verb: VERB('experienced').id, reason: row?.reason });
    expect((await inject({ method: 'GET', url: '/api/lrs/activity' })).statusCode).toBe(401);
  });

  it('writes nothing twice when the same statement comes again', async () => {
    const course = uniqueCourse();
    const actor = learner();
    const sent = { id: randomUUID(), actor, verb: VERB('completed'), object: { id: course } };
    await post(sent);
    await post(sent);
    const rows = await db()
      .select({ id: learningEvents.id })
      .from(learningEvents)
      .innerJoin(courses, eq(courses.id, learningEvents.courseId))
      .where(eq(courses.externalCourseId, course));
    expect(rows).toHaveLength(1);
  });
});
