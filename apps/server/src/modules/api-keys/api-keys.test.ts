import { eq } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activityEvents, apiKeys } from '../../db/schema';
import { createTestApp, type TestApp } from '../../test/app';
import { signUpViaApi, type SignedUp } from '../../test/auth';
import { authenticateApiKey, hashApiKey } from './api-keys.service';

let testApp: TestApp;
let owner: SignedUp;

beforeAll(async () => {
  testApp = await createTestApp();
  // Stand-ins for the public API (/api/v1) routes the ingestion issue adds.
  testApp.app.get('/api/v1/probe', { config: { access: 'api-key' } }, async (request) => ({
    organizationId: request.tenant?.organizationId,
  }));
  await testApp.app.ready();
  owner = await signUpViaApi(testApp.app);
});

afterAll(async () => {
  await testApp.close();
});

const inject = (options: InjectOptions) => testApp.app.inject(options);

type Created = {
  id: string;
  name: string;
  prefix: string;
  expires_at: string | null;
  scope: string;
  key: string;
};

async function createKey(payload: Record<string, unknown>): Promise<Created> {
  const response = await inject({ method: 'POST', url: '/api/api-keys', headers: owner.headers, payload });
  expect(response.statusCode).toBe(201);
  return response.json<Created>();
}

describe('API keys', () => {
  it('answers 401 "Not authenticated" without a session', async () => {
    for (const [method, url] of [
      ['GET', '/api/api-keys'],
      ['POST', '/api/api-keys'],
      ['POST', `/api/api-keys/${owner.organization.id}/revoke`],
    ] as const) {
      const response = await inject({ method, url });
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ error: 'Not authenticated', code: 'UNAUTHENTICATED' });
    }
  });

  it('creates a key shown once, stores only its SHA-256 and lists it without the secret', async () => {
    const expiresAt = new Date(Date.now() + 30 * 86_400_000).toISOString();
    const created = await createKey({ name: 'Course player', expires_at: expiresAt, scope: 'ingest' });
    expect(created).toEqual({
      id: expect.any(String),
      name: 'Course player',
      prefix: created.key.slice(0, 11),
      expires_at: expiresAt,
      scope: 'ingest',
      key: expect.stringMatching(/^cl_[A-Za-z0-9_-]{43}$/),
    });
    const [row] = await testApp.database.db.select().from(apiKeys).where(eq(apiKeys.id, created.id));
    expect(row?.keyHash).toBe(hashApiKey(created.key));
    expect(JSON.stringify(row)).not.toContain(created.key);

    const list = await inject({ method: 'GET', url: '/api/api-keys', headers: owner.headers });
    expect(list.statusCode).toBe(200);
    expect(list.body).not.toContain(created.key);
    expect(list.body).not.toContain(row?.keyHash);
    expect(list.json<{ apiKeys: unknown[] }>().apiKeys).toContainEqual({
      id: created.id,
      name: 'Course player',
      prefix: created.prefix,
      scope: 'ingest',
      expires_at: expiresAt,
      last_used_at: null,
      revoked_at: null,
      created_at: expect.any(String),
    });
  });

  it('defaults to the ingest scope and no expiry; refuses an expiry in the past', async () => {
    const created = await createKey({ name: 'Defaults' });
    expect(created).toMatchObject({ scope: 'ingest', expires_at: null });
    const past = await inject({
      method: 'POST',
      url: '/api/api-keys',
      headers: owner.headers,
      payload: { name: 'Old', expires_at: '2020-01-01T00:00:00Z', scope: 'ingest' },
    });
    expect(past.statusCode).toBe(400);
    expect(past.json().error).toBe('Expiry must be in the future');
    const noName = await inject({
      method: 'POST',
      url: '/api/api-keys',
      headers: owner.headers,
      payload: { name: ' ' },
    });
    expect(noName.json().error).toBe('Name is required');
  });

  it('authenticates a key, records its use, and fails at once when revoked (empty-body revoke)', async () => {
    const created = await createKey({ name: 'Script', scope: 'ingest' });
    const caller = await authenticateApiKey(testApp.database.db, created.key);
    expect(caller).toEqual({ kind: 'api-key', apiKeyId: created.id, organizationId: owner.organization.id });
    const [used] = await testApp.database.db.select().from(apiKeys).where(eq(apiKeys.id, created.id));
    expect(used?.lastUsedAt).toBeInstanceOf(Date);

    const revoked = await inject({
      method: 'POST',
      url: `/api/api-keys/${created.id}/revoke`,
      headers: { ...owner.headers, 'content-type': 'application/json' },
      payload: '',
    });
    expect(revoked.statusCode).toBe(200);
    expect(revoked.json()).toMatchObject({ id: created.id, revoked_at: expect.any(String) });
    await expect(authenticateApiKey(testApp.database.db, created.key)).resolves.toBeNull();
    // Revoking again is harmless.
    const again = await inject({
      method: 'POST',
      url: `/api/api-keys/${created.id}/revoke`,
      headers: owner.headers,
    });
    expect(again.statusCode).toBe(200);
  });

  it('fails an expired key at once, and any unknown or malformed key', async () => {
    const created = await createKey({
      name: 'Short-lived',
      expires_at: new Date(Date.now() + 60_000).toISOString(),
    });
    await expect(authenticateApiKey(testApp.database.db, created.key)).resolves.not.toBeNull();
    await expect(
      authenticateApiKey(testApp.database.db, created.key, new Date(Date.now() + 120_000)),
    ).resolves.toBeNull();
    await expect(authenticateApiKey(testApp.database.db, `${created.key}x`)).resolves.toBeNull();
    await expect(authenticateApiKey(testApp.database.db, 'not-a-key')).resolves.toBeNull();
  });

  it('writes activity for created and revoked keys', async () => {
    const created = await createKey({ name: 'Audited' });
    await inject({ method: 'POST', url: `/api/api-keys/${created.id}/revoke`, headers: owner.headers });
    const events = await testApp.database.db
      .select()
      .from(activityEvents)
      .where(eq(activityEvents.subjectId, created.id));
    expect(events.map((event) => [event.kind, event.actorUserId, event.organizationId]).sort()).toEqual([
      ['api_key.created', owner.user.id, owner.organization.id],
      ['api_key.revoked', owner.user.id, owner.organization.id],
    ]);
  });

  it('let routes declared for API keys accept a valid key', async () => {
    const ingest = await createKey({ name: 'Ingest only', scope: 'ingest' });
    const probe = await inject({
      method: 'GET',
      url: '/api/v1/probe',
      headers: { authorization: `Bearer ${ingest.key}` },
    });
    expect(probe.statusCode).toBe(200);
    expect(probe.json()).toEqual({ organizationId: owner.organization.id });
    // A session token is not an API key, and vice versa.
    expect((await inject({ method: 'GET', url: '/api/v1/probe', headers: owner.headers })).statusCode).toBe(
      401,
    );
    const keyAsSession = await inject({
      method: 'GET',
      url: '/api/me',
      headers: { authorization: `Bearer ${ingest.key}` },
    });
    expect(keyAsSession.statusCode).toBe(401);
    await inject({ method: 'POST', url: `/api/api-keys/${ingest.id}/revoke`, headers: owner.headers });
    const revoked = await inject({
      method: 'GET',
      url: '/api/v1/probe',
      headers: { authorization: `Bearer ${ingest.key}` },
    });
    expect(revoked.statusCode).toBe(401);
    expect(revoked.json()).toEqual({ error: 'Invalid or expired API key', code: 'UNAUTHENTICATED' });
  });

  it('has one scope: "full" is refused with a clear message and nothing is stored', async () => {
    const before = await testApp.database.db
      .select()
      .from(apiKeys)
      .where(eq(apiKeys.organizationId, owner.organization.id));
    const response = await inject({
      method: 'POST',
      url: '/api/api-keys',
      headers: owner.headers,
      payload: { name: 'Everything', scope: 'full' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      code: 'VALIDATION_ERROR',
      error: 'The only API key scope is "ingest": keys send learning data and read nothing',
    });
    const after = await testApp.database.db
      .select()
      .from(apiKeys)
      .where(eq(apiKeys.organizationId, owner.organization.id));
    expect(after).toHaveLength(before.length);
  });
});
