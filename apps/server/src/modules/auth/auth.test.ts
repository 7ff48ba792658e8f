import type { SignupResponse } from '@courselens/contracts';
import { eq, sql } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { seedDemo, DEMO_OWNER } from '../../db/seed/seed';
import {
  authAccounts,
  authSessions,
  authUsers,
  organizations,
  rateLimitBuckets,
  userOrganizations,
  users,
} from '../../db/schema';
import { createTestApp, type TestApp } from '../../test/app';
import { bearer, signUpViaApi } from '../../test/auth';
import { loadConfig } from '../../config';
import { SIGN_IN_LIMITS } from './auth.service';
import { hashPassword, verifyPassword } from './password';
import type * as PasswordModule from './password';

// A pass-through spy: the parallel sign-in test counts the password checks.
vi.mock('./password', async (importOriginal) => {
  const original = await importOriginal<typeof PasswordModule>();
  return { ...original, verifyPassword: vi.fn(original.verifyPassword) };
});

let testApp: TestApp;

beforeAll(async () => {
  testApp = await createTestApp();
  await testApp.app.ready();
});

afterAll(async () => {
  await testApp.close();
});

const inject = (options: InjectOptions) => testApp.app.inject(options);

describe('POST /api/signup', () => {
  it('creates the identity, the organization, the owner profile and the primary membership', async () => {
    const response = await inject({
      method: 'POST',
      url: '/api/signup',
      payload: {
        name: 'Ada Owner',
        email: 'Ada@Example.com',
        password: 'long enough',
        organizationName: 'Ada Academy',
        subdomain: 'ada-academy',
      },
    });
    expect(response.statusCode).toBe(201);
    const body = response.json<SignupResponse>();
    expect(body).toEqual({
      token: expect.any(String),
      user: { id: expect.any(String), name: 'Ada Owner', email: 'ada@example.com' },
      organization: { id: expect.any(String), name: 'Ada Academy', subdomain: 'ada-academy' },
    });
    // At least 128 bits of randomness: 32 characters of [A-Za-z0-9].
    expect(body.token).toMatch(/^[A-Za-z0-9]{32,}$/);
    const db = testApp.database.db;
    const [organization] = await db
      .select()
      .from(organizations)
      .where(eq(organizations.id, body.organization.id));
    expect(organization?.ownerId).toBe(body.user.id);
    const [profile] = await db.select().from(users).where(eq(users.userId, body.user.id));
    expect(profile).toMatchObject({
      role: 'owner',
      organizationId: body.organization.id,
      email: 'ada@example.com',
    });
    const memberships = await db
      .select()
      .from(userOrganizations)
      .where(eq(userOrganizations.userId, body.user.id));
    expect(memberships).toEqual([expect.objectContaining({ role: 'owner', isPrimary: true })]);
    const [account] = await db.select().from(authAccounts).where(eq(authAccounts.userId, body.user.id));
    expect(account?.password).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);

    const me = await inject({ method: 'GET', url: '/api/me', headers: bearer(body.token) });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toEqual({
      user: body.user,
      organizations: [{ ...body.organization, role: 'owner', isPrimary: true }],
    });
  });

  it('derives the subdomain from the organization name when none is given', async () => {
    const first = await signUpViaApi(testApp.app, { organizationName: 'Derived Name, Ltd.' });
    expect(first.organization.subdomain).toBe('derived-name-ltd');
    const second = await signUpViaApi(testApp.app, { organizationName: 'Derived Name Ltd' });
    expect(second.organization.subdomain).toMatch(/^derived-name-ltd-\d{1,4}$/);
    const reserved = await signUpViaApi(testApp.app, { organizationName: 'Admin' });
    expect(reserved.organization.subdomain).toMatch(/^admin-\d{1,4}$/);
  });

  it.each([
    ['', 'Subdomain cannot be empty'],
    ['ab', 'Subdomain must be at least 3 characters long'],
    ['a'.repeat(51), 'Subdomain must be at most 50 characters long'],
    ['Bad_Name', 'Subdomain can only contain lowercase letters, numbers, and hyphens'],
    ['-abc', 'Subdomain cannot start or end with a hyphen'],
    ['ab--c', 'Subdomain cannot contain consecutive hyphens'],
    ['support', 'This subdomain is reserved and cannot be used'],
  ])('refuses subdomain %j with 400 "%s" and creates nothing', async (subdomain, message) => {
    const email = `bad-${subdomain.length}-${Math.random()}@example.com`;
    const response = await inject({
      method: 'POST',
      url: '/api/signup',
      payload: { name: 'X', email, password: 'long enough', organizationName: 'X Org', subdomain },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: message });
    const rows = await testApp.database.db.select().from(authUsers).where(eq(authUsers.email, email));
    expect(rows).toEqual([]);
  });

  it('answers 409 for an e-mail already registered, whatever its case', async () => {
    const existing = await signUpViaApi(testApp.app);
    const response = await inject({
      method: 'POST',
      url: '/api/signup',
      payload: {
        name: 'Again',
        email: existing.user.email.toUpperCase(),
        password: 'long enough',
        organizationName: 'Another',
      },
    });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({ error: 'An account with this email already exists', code: 'CONFLICT' });
  });

  it('answers 409 for a subdomain another organization has', async () => {
    await signUpViaApi(testApp.app, { subdomain: 'taken-one' });
    const response = await inject({
      method: 'POST',
      url: '/api/signup',
      payload: {
        name: 'B',
        email: 'b-taken@example.com',
        password: 'long enough',
        organizationName: 'B',
        subdomain: 'taken-one',
      },
    });
    expect(response.statusCode).toBe(409);
    expect(response.json().error).toBe('This subdomain is already taken');
  });

  it('checks the password length (8 to 128)', async () => {
    const short = await inject({
      method: 'POST',
      url: '/api/signup',
      payload: { name: 'S', email: 's@example.com', password: 'short', organizationName: 'S Org' },
    });
    expect(short.statusCode).toBe(400);
    expect(short.json().error).toBe('Password must be at least 8 characters long');
    const long = await inject({
      method: 'POST',
      url: '/api/signup',
      payload: { name: 'S', email: 's@example.com', password: 'x'.repeat(129), organizationName: 'S Org' },
    });
    expect(long.json().error).toBe('Password must be at most 128 characters long');
  });

  it('leaves nothing behind when the organization step fails (compensation)', async () => {
    const db = testApp.database.db;
    // Make the profile insert fail for this one person, after Better Auth created the identity.
    await db.execute(sql`
      create or replace function fail_signup() returns trigger language plpgsql as $$
      begin
        if new.name = 'Doomed Person' then raise exception 'simulated failure'; end if;
        return new;
      end $$`);
    await db.execute(
      sql`create trigger fail_signup before insert on users for each row execute function fail_signup()`,
    );
    try {
      const response = await inject({
        method: 'POST',
        url: '/api/signup',
        payload: {
          name: 'Doomed Person',
          email: 'doomed@example.com',
          password: 'long enough',
          organizationName: 'Doomed Org',
          subdomain: 'doomed-org',
        },
      });
      expect(response.statusCode).toBe(500);
      expect(response.json()).toEqual({ error: 'Organization creation failed.', code: 'INTERNAL_ERROR' });
      expect(await db.select().from(authUsers).where(eq(authUsers.email, 'doomed@example.com'))).toEqual([]);
      expect(await db.select().from(organizations).where(eq(organizations.subdomain, 'doomed-org'))).toEqual(
        [],
      );
    } finally {
      await db.execute(sql`drop trigger fail_signup on users`);
    }
    // The same person can sign up afterwards.
    const retry = await signUpViaApi(testApp.app, {
      name: 'Doomed Person',
      email: 'doomed@example.com',
      subdomain: 'doomed-org',
    });
    expect(retry.organization.subdomain).toBe('doomed-org');
  });
});

describe('sessions', () => {
  it('signs in with the right password and refuses a wrong one with 401', async () => {
    const person = await signUpViaApi(testApp.app);
    const ok = await inject({
      method: 'POST',
      url: '/api/session',
      payload: { email: person.user.email, password: person.password },
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ token: expect.any(String), user: person.user });
    const wrong = await inject({
      method: 'POST',
      url: '/api/session',
      payload: { email: person.user.email, password: 'not the password' },
    });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toEqual({ error: 'Invalid email or password', code: 'UNAUTHENTICATED' });
    const unknown = await inject({
      method: 'POST',
      url: '/api/session',
      payload: { email: 'nobody@example.com', password: 'whatever1' },
    });
    expect(unknown.statusCode).toBe(401);
  });

  it('signs out: 204, and the token no longer works', async () => {
    const person = await signUpViaApi(testApp.app);
    expect((await inject({ method: 'GET', url: '/api/me', headers: person.headers })).statusCode).toBe(200);
    const out = await inject({ method: 'DELETE', url: '/api/session', headers: person.headers });
    expect(out.statusCode).toBe(204);
    const after = await inject({ method: 'GET', url: '/api/me', headers: person.headers });
    expect(after.statusCode).toBe(401);
    expect(after.json()).toEqual({ error: 'Not authenticated', code: 'UNAUTHENTICATED' });
  });

  it('answers 401 without a token or with a made-up one', async () => {
    expect((await inject({ method: 'GET', url: '/api/me' })).json()).toEqual({
      error: 'Not authenticated',
      code: 'UNAUTHENTICATED',
    });
    expect((await inject({ method: 'GET', url: '/api/me', headers: bearer('made-up') })).statusCode).toBe(
      401,
    );
  });

  it('ends a session after 7 idle days and after 30 days at most; extends it with use', async () => {
    const db = testApp.database.db;
    const person = await signUpViaApi(testApp.app);
    const day = 24 * 3600 * 1000;
    const where = eq(authSessions.token, person.token);

    // Used after 2 days: pushed out to 7 days from now.
    await db
      .update(authSessions)
      .set({ expiresAt: new Date(Date.now() + 5 * day) })
      .where(where);
    expect((await inject({ method: 'GET', url: '/api/me', headers: person.headers })).statusCode).toBe(200);
    const [extended] = await db.select().from(authSessions).where(where);
    expect(extended!.expiresAt.getTime()).toBeGreaterThan(Date.now() + 6.9 * day);

    // Signed in 31 days ago: over, even though it was used recently.
    await db
      .update(authSessions)
      .set({ createdAt: new Date(Date.now() - 31 * day) })
      .where(where);
    expect((await inject({ method: 'GET', url: '/api/me', headers: person.headers })).statusCode).toBe(401);
    expect(await db.select().from(authSessions).where(where)).toEqual([]);

    // Idle past its end: over.
    const other = await signUpViaApi(testApp.app);
    await db
      .update(authSessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(authSessions.token, other.token));
    expect((await inject({ method: 'GET', url: '/api/me', headers: other.headers })).statusCode).toBe(401);
  });

  it('limits failed sign-ins per e-mail and client address with a 429 that says when to retry', async () => {
    const person = await signUpViaApi(testApp.app);
    for (let attempt = 0; attempt < 10; attempt += 1) {
      const response = await inject({
        method: 'POST',
        url: '/api/session',
        payload: { email: person.user.email, password: 'wrong password' },
      });
      expect(response.statusCode).toBe(401);
    }
    const limited = await inject({
      method: 'POST',
      url: '/api/session',
      payload: { email: person.user.email, password: person.password },
    });
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({
      error: expect.stringMatching(/^Too many sign-in attempts\. Try again in 1[45] minutes\.$/),
      code: 'RATE_LIMITED',
    });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(800);
    // Another address from the same client is not blocked by this one.
    const other = await signUpViaApi(testApp.app);
    const fine = await inject({
      method: 'POST',
      url: '/api/session',
      payload: { email: other.user.email, password: other.password },
    });
    expect(fine.statusCode).toBe(200);
    // Nor is the owner on another computer: guessing from one place does not lock them out.
    const owner = await inject({
      method: 'POST',
      url: '/api/session',
      remoteAddress: '192.0.2.44',
      payload: { email: person.user.email, password: person.password },
    });
    expect(owner.statusCode).toBe(200);
  });

  it('stops guesses spread over many client addresses at a looser per-e-mail ceiling', async () => {
    const person = await signUpViaApi(testApp.app);
    // As if 99 failures had come from ten addresses already.
    await testApp.database.db.insert(rateLimitBuckets).values({
      key: `sign-in:email:${person.user.email}`,
      windowStartedAt: new Date(),
      hits: SIGN_IN_LIMITS.perEmail - 1,
    });
    const attempt = (remoteAddress: string, password: string) =>
      inject({
        method: 'POST',
        url: '/api/session',
        remoteAddress,
        payload: { email: person.user.email, password },
      });
    expect((await attempt('192.0.2.50', 'wrong password')).statusCode).toBe(401);
    expect((await attempt('192.0.2.51', 'wrong password')).statusCode).toBe(429);
    expect((await attempt('192.0.2.52', person.password)).statusCode).toBe(429);
  });

  it('counts parallel attempts exactly: 60 at once get 10 password checks, the rest 429', async () => {
    const person = await signUpViaApi(testApp.app);
    vi.mocked(verifyPassword).mockClear();
    const responses = await Promise.all(
      Array.from({ length: 60 }, () =>
        inject({
          method: 'POST',
          url: '/api/session',
          remoteAddress: '192.0.2.60',
          payload: { email: person.user.email, password: 'wrong password' },
        }),
      ),
    );
    expect(verifyPassword).toHaveBeenCalledTimes(SIGN_IN_LIMITS.perEmailAndClient);
    const statuses = responses.map((response) => response.statusCode);
    expect(statuses.filter((status) => status === 401)).toHaveLength(SIGN_IN_LIMITS.perEmailAndClient);
    expect(statuses.filter((status) => status === 429)).toHaveLength(60 - SIGN_IN_LIMITS.perEmailAndClient);
    const [bucket] = await testApp.database.db
      .select()
      .from(rateLimitBuckets)
      .where(eq(rateLimitBuckets.key, `sign-in:email-client:${person.user.email}|192.0.2.60`));
    expect(bucket?.hits).toBe(SIGN_IN_LIMITS.perEmailAndClient);
  });

  it('counts a right password as no failure', async () => {
    const person = await signUpViaApi(testApp.app);
    const attempt = (password: string) =>
      inject({
        method: 'POST',
        url: '/api/session',
        remoteAddress: '192.0.2.70',
        payload: { email: person.user.email, password },
      });
    for (let round = 0; round < 3; round += 1) {
      for (let failure = 0; failure < 9; failure += 1)
        expect((await attempt('wrong password')).statusCode).toBe(401);
      expect((await attempt(person.password)).statusCode).toBe(200);
    }
  });

  it('counts an IPv6 client by its /64 network', async () => {
    const person = await signUpViaApi(testApp.app);
    for (let attempt = 0; attempt < 10; attempt += 1) {
      const response = await inject({
        method: 'POST',
        url: '/api/session',
        remoteAddress: `2001:db8:1:2::${(attempt + 1).toString(16)}`,
        payload: { email: person.user.email, password: 'wrong password' },
      });
      expect(response.statusCode).toBe(401);
    }
    const limited = await inject({
      method: 'POST',
      url: '/api/session',
      remoteAddress: '2001:db8:1:2:ffff:ffff:ffff:ffff',
      payload: { email: person.user.email, password: person.password },
    });
    expect(limited.statusCode).toBe(429);
  });

  it('limits failed sign-ins per client address', async () => {
    for (let attempt = 0; attempt < 50; attempt += 1) {
      await inject({
        method: 'POST',
        url: '/api/session',
        remoteAddress: '203.0.113.7',
        payload: { email: `nobody-${attempt}@example.com`, password: 'wrong password' },
      });
    }
    const limited = await inject({
      method: 'POST',
      url: '/api/session',
      remoteAddress: '203.0.113.7',
      payload: { email: 'someone-new@example.com', password: 'wrong password' },
    });
    expect(limited.statusCode).toBe(429);
    const elsewhere = await inject({
      method: 'POST',
      url: '/api/session',
      remoteAddress: '203.0.113.8',
      payload: { email: 'someone-new@example.com', password: 'wrong password' },
    });
    expect(elsewhere.statusCode).toBe(401);
  });
});

describe('sign-up rate limit', () => {
  it('allows SIGNUP_LIMIT_PER_HOUR sign-ups per client address per hour, then answers 429 with when to retry', async () => {
    const limited = await createTestApp({ signupLimitPerHour: 2 });
    try {
      const signup = (n: number, remoteAddress: string) =>
        limited.app.inject({
          method: 'POST',
          url: '/api/signup',
          remoteAddress,
          payload: {
            name: `Person ${n}`,
            email: `limited-${n}@example.com`,
            password: 'long enough',
            organizationName: `Limited ${n}`,
          },
        });
      expect((await signup(1, '198.51.100.1')).statusCode).toBe(201);
      expect((await signup(2, '198.51.100.1')).statusCode).toBe(201);
      const third = await signup(3, '198.51.100.1');
      expect(third.statusCode).toBe(429);
      expect(third.json()).toEqual({
        error: expect.stringMatching(
          /^Too many sign-ups from this address\. Try again in (59|60) minutes\.$/,
        ),
        code: 'RATE_LIMITED',
      });
      expect(Number(third.headers['retry-after'])).toBeGreaterThan(3500);
      // Nothing was created for the refused attempt.
      const [row] = await limited.database.db
        .select({ count: sql<number>`count(*)::int` })
        .from(authUsers)
        .where(eq(authUsers.email, 'limited-3@example.com'));
      expect(row?.count).toBe(0);
      // Another address is not affected.
      expect((await signup(4, '198.51.100.2')).statusCode).toBe(201);
    } finally {
      await limited.close();
    }
  });

  it('reads the limit from SIGNUP_LIMIT_PER_HOUR (20 by default, 0 turns it off)', () => {
    expect(loadConfig({}).signupLimitPerHour).toBe(20);
    expect(loadConfig({ SIGNUP_LIMIT_PER_HOUR: '0' }).signupLimitPerHour).toBe(0);
    expect(() => loadConfig({ SIGNUP_LIMIT_PER_HOUR: 'many' })).toThrow(
      'Invalid configuration: SIGNUP_LIMIT_PER_HOUR must be a whole number (0 turns the limit off) (got "many")',
    );
  });
});

describe('the client address behind a proxy (TRUST_PROXY)', () => {
  const proxy = '10.1.2.3';
  const realClient = '198.51.100.77';

  it('takes the address the trusted proxy saw (TRUST_PROXY=true: one hop), not a forged X-Forwarded-For', async () => {
    const proxied = await createTestApp({ trustProxy: loadConfig({ TRUST_PROXY: 'true' }).trustProxy });
    try {
      const person = await signUpViaApi(proxied.app);
      const attempt = (forwardedFor: string, password = 'wrong password') =>
        proxied.app.inject({
          method: 'POST',
          url: '/api/session',
          remoteAddress: proxy,
          headers: { 'x-forwarded-for': forwardedFor },
          payload: { email: person.user.email, password },
        });
      const statuses: number[] = [];
      for (let attempt_ = 0; attempt_ < 70; attempt_ += 1)
        statuses.push((await attempt(`203.0.113.${attempt_}, ${realClient}`)).statusCode);
      expect(statuses.filter((status) => status === 401)).toHaveLength(10);
      expect(statuses.filter((status) => status === 429)).toHaveLength(60);
      // The owner, at another address behind the same proxy, still signs in.
      expect((await attempt('198.51.100.78', person.password)).statusCode).toBe(200);
    } finally {
      await proxied.close();
    }
  });

  it('trusts the listed proxies only (TRUST_PROXY=10.0.0.0/8), hop by hop from the right', async () => {
    const proxied = await createTestApp({ trustProxy: loadConfig({ TRUST_PROXY: '10.0.0.0/8' }).trustProxy });
    try {
      const person = await signUpViaApi(proxied.app);
      const attempt = (forwardedFor: string, password = 'wrong password') =>
        proxied.app.inject({
          method: 'POST',
          url: '/api/session',
          remoteAddress: proxy,
          headers: { 'x-forwarded-for': forwardedFor },
          payload: { email: person.user.email, password },
        });
      // Two trusted hops (10.9.9.9 is ours too), then the client; anything further left is the client's word.
      for (let forged = 0; forged < 10; forged += 1)
        expect((await attempt(`203.0.113.${forged}, ${realClient}, 10.9.9.9`)).statusCode).toBe(401);
      expect((await attempt(`203.0.113.99, ${realClient}, 10.9.9.9`, person.password)).statusCode).toBe(429);
      expect((await attempt(`${realClient}, 198.51.100.80`, person.password)).statusCode).toBe(200);
    } finally {
      await proxied.close();
    }
  });

  it('applies the same rule to the sign-up limit', async () => {
    const proxied = await createTestApp({ trustProxy: 1, signupLimitPerHour: 2 });
    try {
      const signup = (n: number, forwardedFor: string) =>
        proxied.app.inject({
          method: 'POST',
          url: '/api/signup',
          remoteAddress: proxy,
          headers: { 'x-forwarded-for': forwardedFor },
          payload: {
            name: `Proxied ${n}`,
            email: `proxied-${n}@example.com`,
            password: 'long enough',
            organizationName: `Proxied ${n}`,
          },
        });
      expect((await signup(1, `203.0.113.1, ${realClient}`)).statusCode).toBe(201);
      expect((await signup(2, `203.0.113.2, ${realClient}`)).statusCode).toBe(201);
      expect((await signup(3, `203.0.113.3, ${realClient}`)).statusCode).toBe(429);
      expect((await signup(4, '198.51.100.79')).statusCode).toBe(201);
    } finally {
      await proxied.close();
    }
  });
});

describe('the demo owner', () => {
  it('signs in with the documented credentials when seeded with the argon2 hasher', async () => {
    await seedDemo(testApp.database.db, { learners: 3, hashPassword });
    const response = await inject({
      method: 'POST',
      url: '/api/session',
      payload: { email: DEMO_OWNER.email, password: DEMO_OWNER.password },
    });
    expect(response.statusCode).toBe(200);
    const me = await inject({
      method: 'GET',
      url: '/api/me',
      headers: bearer(response.json<{ token: string }>().token),
    });
    expect(me.json().organizations).toEqual([
      expect.objectContaining({ subdomain: 'acme-learning', role: 'owner', isPrimary: true }),
    ]);
  });
});

describe('the auth secret', () => {
  it('is generated once and kept in the database across app instances', async () => {
    const db = testApp.database.db;
    const rows = await db.execute<{ value: string }>(
      sql`select value from app_settings where key = 'auth_secret'`,
    );
    expect(rows.rows).toHaveLength(1);
    expect(rows.rows[0]?.value.length).toBeGreaterThanOrEqual(32);
    const { resolveAuthSecret } = await import('./auth-secret');
    await expect(resolveAuthSecret(testApp.database, undefined)).resolves.toBe(rows.rows[0]?.value);
    await expect(resolveAuthSecret(testApp.database, 'c'.repeat(32))).resolves.toBe('c'.repeat(32));
  });

  it('keeps sessions valid for a new app instance (a restart) on the same database', async () => {
    const person = await signUpViaApi(testApp.app);
    const { buildApp } = await import('../../app');
    const restarted = await buildApp({
      config: { ...loadConfig({ NODE_ENV: 'test', WEB_DIST_DIR: '/nonexistent-web-dist' }) },
      database: testApp.database,
      logger: false,
    });
    try {
      expect(
        (await restarted.inject({ method: 'GET', url: '/api/me', headers: person.headers })).statusCode,
      ).toBe(200);
      // Better Auth itself (signed bearer tokens) agrees: a password change works.
      const changed = await restarted.inject({
        method: 'POST',
        url: '/api/profile/password',
        headers: person.headers,
        payload: { currentPassword: person.password, newPassword: 'after the restart' },
      });
      expect(changed.statusCode).toBe(200);
    } finally {
      await restarted.close();
    }
  });
});
