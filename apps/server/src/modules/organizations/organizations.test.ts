import { and, eq } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userOrganizations } from '../../db/schema';
import { createTestApp, type TestApp } from '../../test/app';
import { signUpViaApi, type SignedUp } from '../../test/auth';

let testApp: TestApp;
let owner: SignedUp;

beforeAll(async () => {
  testApp = await createTestApp();
  await testApp.app.ready();
  owner = await signUpViaApi(testApp.app, { organizationName: 'First Org' });
});

afterAll(async () => {
  await testApp.close();
});

const inject = (options: InjectOptions) => testApp.app.inject(options);

type Membership = { id: string; name: string; subdomain: string; role: string; isPrimary: boolean };

async function me(headers: Record<string, string>) {
  return (await inject({ method: 'GET', url: '/api/me', headers })).json<{ organizations: Membership[] }>();
}

describe('POST /api/organizations', () => {
  it('creates a second organization, owned by the caller and not primary', async () => {
    const response = await inject({
      method: 'POST',
      url: '/api/organizations',
      headers: owner.headers,
      payload: { name: 'Second Org', subdomain: 'second-org' },
    });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toEqual({ id: expect.any(String), name: 'Second Org', subdomain: 'second-org' });
    const { organizations } = await me(owner.headers);
    expect(organizations).toEqual([
      { ...owner.organization, role: 'owner', isPrimary: true },
      {
        id: response.json<{ id: string }>().id,
        name: 'Second Org',
        subdomain: 'second-org',
        role: 'owner',
        isPrimary: false,
      },
    ]);
  });

  it('derives the subdomain when none is given', async () => {
    const response = await inject({
      method: 'POST',
      url: '/api/organizations',
      headers: owner.headers,
      payload: { name: 'Third Org!' },
    });
    expect(response.json()).toMatchObject({ subdomain: 'third-org' });
  });

  it.each([
    ['', 'Subdomain cannot be empty'],
    ['xy', 'Subdomain must be at least 3 characters long'],
    ['a'.repeat(51), 'Subdomain must be at most 50 characters long'],
    ['my org', 'Subdomain can only contain lowercase letters, numbers, and hyphens'],
    ['org-', 'Subdomain cannot start or end with a hyphen'],
    ['my--org', 'Subdomain cannot contain consecutive hyphens'],
    ['billing', 'This subdomain is reserved and cannot be used'],
  ])('answers 400 for subdomain %j: "%s"', async (subdomain, message) => {
    const response = await inject({
      method: 'POST',
      url: '/api/organizations',
      headers: owner.headers,
      payload: { name: 'Bad', subdomain },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: message });
  });

  it('answers 409 for a subdomain in use', async () => {
    const response = await inject({
      method: 'POST',
      url: '/api/organizations',
      headers: owner.headers,
      payload: { name: 'Dup', subdomain: owner.organization.subdomain },
    });
    expect(response.statusCode).toBe(409);
    expect(response.json().error).toBe('This subdomain is already taken');
  });
});

describe('GET /api/organizations/:id', () => {
  it("returns one of the caller's organizations, and 404 for any other", async () => {
    const response = await inject({
      method: 'GET',
      url: `/api/organizations/${owner.organization.id}`,
      headers: owner.headers,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      id: owner.organization.id,
      name: expect.any(String),
      subdomain: expect.any(String),
    });
    const stranger = await signUpViaApi(testApp.app);
    const other = await inject({
      method: 'GET',
      url: `/api/organizations/${owner.organization.id}`,
      headers: stranger.headers,
    });
    expect(other.statusCode).toBe(404);
    expect(other.json()).toEqual({ error: 'Organization not found', code: 'NOT_FOUND' });
  });
});

describe('PATCH /api/organizations/:id', () => {
  it('lets an owner rename and change the subdomain', async () => {
    const response = await inject({
      method: 'PATCH',
      url: `/api/organizations/${owner.organization.id}`,
      headers: owner.headers,
      payload: { name: 'First Org Renamed', subdomain: 'first-renamed' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      id: owner.organization.id,
      name: 'First Org Renamed',
      subdomain: 'first-renamed',
    });
  });

  it('applies the subdomain rules and refuses a subdomain in use', async () => {
    const bad = await inject({
      method: 'PATCH',
      url: `/api/organizations/${owner.organization.id}`,
      headers: owner.headers,
      payload: { subdomain: 'www' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toBe('This subdomain is reserved and cannot be used');
    const other = await signUpViaApi(testApp.app, { subdomain: 'someone-else' });
    const taken = await inject({
      method: 'PATCH',
      url: `/api/organizations/${owner.organization.id}`,
      headers: owner.headers,
      payload: { subdomain: other.organization.subdomain },
    });
    expect(taken.statusCode).toBe(409);
  });

  it('answers 403 to a team member', async () => {
    const member = await signUpViaApi(testApp.app);
    await testApp.database.db
      .insert(userOrganizations)
      .values({ userId: member.user.id, organizationId: owner.organization.id, role: 'team_member' });
    const response = await inject({
      method: 'PATCH',
      url: `/api/organizations/${owner.organization.id}`,
      headers: member.headers,
      payload: { name: 'Hijacked' },
    });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({
      error: 'Only owners can change the organization settings',
      code: 'FORBIDDEN',
    });
  });
});

describe('POST /api/organizations/:id/primary', () => {
  it('moves the primary flag: all off, then the one on', async () => {
    const person = await signUpViaApi(testApp.app);
    const created = await inject({
      method: 'POST',
      url: '/api/organizations',
      headers: person.headers,
      payload: { name: 'Other One' },
    });
    const otherId = created.json<{ id: string }>().id;
    const response = await inject({
      method: 'POST',
      url: `/api/organizations/${otherId}/primary`,
      headers: person.headers,
    });
    expect(response.statusCode).toBe(200);
    const list = response.json<Membership[]>();
    expect(list.map((entry) => [entry.id, entry.isPrimary])).toEqual([
      [otherId, true],
      [person.organization.id, false],
    ]);
    const primaries = await testApp.database.db
      .select()
      .from(userOrganizations)
      .where(and(eq(userOrganizations.userId, person.user.id), eq(userOrganizations.isPrimary, true)));
    expect(primaries).toHaveLength(1);
  });
});

describe('the organization a request acts on', () => {
  it('is the one in X-Organization-Id, else the primary', async () => {
    const person = await signUpViaApi(testApp.app);
    const second = (
      await inject({
        method: 'POST',
        url: '/api/organizations',
        headers: person.headers,
        payload: { name: 'Keys Two' },
      })
    ).json<{ id: string }>();
    await inject({
      method: 'POST',
      url: '/api/api-keys',
      headers: { ...person.headers, 'x-organization-id': second.id },
      payload: { name: 'In second', scope: 'ingest' },
    });
    const inPrimary = await inject({ method: 'GET', url: '/api/api-keys', headers: person.headers });
    expect(inPrimary.json<{ apiKeys: unknown[] }>().apiKeys).toEqual([]);
    const inSecond = await inject({
      method: 'GET',
      url: '/api/api-keys',
      headers: { ...person.headers, 'x-organization-id': second.id },
    });
    expect(inSecond.json<{ apiKeys: { name: string }[] }>().apiKeys.map((key) => key.name)).toEqual([
      'In second',
    ]);
    const notMine = await inject({
      method: 'GET',
      url: '/api/api-keys',
      headers: { ...person.headers, 'x-organization-id': owner.organization.id },
    });
    expect(notMine.statusCode).toBe(404);
    expect(notMine.json()).toEqual({ error: 'Organization not found', code: 'NOT_FOUND' });
  });

  it("answers 400 'No organization selected' when the caller belongs to none", async () => {
    const person = await signUpViaApi(testApp.app);
    await testApp.database.db.delete(userOrganizations).where(eq(userOrganizations.userId, person.user.id));
    const response = await inject({ method: 'GET', url: '/api/api-keys', headers: person.headers });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error: 'No organization selected', code: 'BAD_REQUEST' });
  });
});
