import { format } from 'node:util';
import { sql } from 'drizzle-orm';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../app';
import { loadConfig } from '../config';
import { insertCourse, insertLearner, insertQuestion } from '../db/factories/learning';
import { insertCustomReport } from '../db/factories/reports';
import { createTestDatabase, type TestDatabaseConnection } from '../test/database';
import { createLogger, redactUrl, scrubError, scrubSecrets, scrubText } from './logger';

describe('redactUrl', () => {
  it.each([
    ['/api/shared/questions/q1/report?token=abcDEF123', '/api/shared/questions/q1/report?token=[redacted]'],
    ['/api/public-reports/abcDEF123', '/api/public-reports/[redacted]'],
    ['/api/public-reports/abcDEF123?x=1', '/api/public-reports/[redacted]?x=1'],
    ['/public-reports/abcDEF123', '/public-reports/[redacted]'],
    ['/api/invitations/abcDEF123/signup', '/api/invitations/[redacted]/signup'],
    [
      '/api/invitations/6f1c2a9e-1b2c-4d5e-8f90-123456789abc/resend',
      '/api/invitations/6f1c2a9e-1b2c-4d5e-8f90-123456789abc/resend',
    ],
    ['/team-signup?token=abc&x=1', '/team-signup?token=[redacted]&x=1'],
    [
      '/x?api_key=1&apiKey=2&key=3&secret=4&password=5&sortKey=name',
      '/x?api_key=[redacted]&apiKey=[redacted]&key=[redacted]&secret=[redacted]&password=[redacted]&sortKey=name',
    ],
    ['/api/learners?search=ann%40example.com&page=2', '/api/learners?search=[email]&page=2'],
    ['/api/learners/ann@example.com', '/api/learners/[email]'],
    [
      '/login?redirectTo=%2Fteam-signup%3Ftoken%3Dabc',
      `/login?redirectTo=${encodeURIComponent('/team-signup?token=[redacted]')}`,
    ],
    ['https://u:p@example.com/public-reports/abc#frag', 'https://example.com/public-reports/[redacted]'],
    ['/api/courses?page=1', '/api/courses?page=1'],
  ])('%s → %s', (url, expected) => {
    expect(redactUrl(url)).toBe(expected);
  });
});

describe('scrubbing text and errors', () => {
  it('takes bearer tokens, API keys, URL secrets and (scrubText) e-mail addresses out of text', () => {
    const text =
      'Authorization: Bearer abcdefgh12345678 key cl_AAAAAAAAAAAAAAAAAAAAAAAA at /api/public-reports/tok?token=t1 for ann@example.com via postgres://u:pw@db/x';
    expect(scrubSecrets(text)).toBe(
      'Authorization: Bearer [redacted] key cl_[redacted] at /api/public-reports/[redacted]?token=[redacted] for ann@example.com via postgres://[redacted]@db/x',
    );
    expect(scrubText(text)).toContain('for [email] via');
  });

  it("drops a failed query's parameters and e-mail addresses from an error, message and stack", () => {
    const error = Object.assign(
      new Error('Failed query: insert into "auth_user" values ($1, $2)\nparams: Ann,ann@example.com'),
      {
        detail: 'Key (token)=(s3cr3tSessionToken) already exists.',
        params: ['Ann', 'ann@example.com'],
        query: 'insert into "auth_user" values ($1, $2)',
      },
    );
    const serialized = JSON.stringify(scrubError(error));
    expect(serialized).not.toContain('ann@example.com');
    expect(serialized).not.toContain('Ann,');
    expect(serialized).not.toContain('s3cr3tSessionToken');
    expect(serialized).toContain('Key (token)=([redacted]) already exists.');
    expect(serialized).toContain('params: [redacted]');
    expect(serialized).toContain('insert into \\"auth_user\\"');
  });
});

describe('the logger', () => {
  function capture() {
    const lines: string[] = [];
    const logger = createLogger(
      { env: 'production', logLevel: 'info' },
      { write: (line: string) => void lines.push(line) },
    );
    return { logger, lines, entries: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>) };
  }

  it('censors secret fields, headers and bodies wherever a log call puts them', () => {
    const { logger, lines } = capture();
    logger.info(
      {
        req: {
          headers: { authorization: 'Bearer s3cr3t-session', cookie: 'sid=s3cr3t-cookie' },
          body: { a: 1 },
        },
        user: { email: 'ann@example.com', password: 's3cr3t-password', name: 'Ann' },
        deeper: { input: { apiKey: 'cl_s3cr3t', token: 's3cr3t-token' } },
        body: { anything: 's3cr3t-body' },
      },
      'a message',
    );
    expect(lines.join('')).not.toMatch(/s3cr3t|ann@example\.com/);
    expect(lines.join('')).toContain('"name":"Ann"');
  });

  it('keeps a message with newlines on one JSON line', () => {
    const { logger, lines, entries } = capture();
    logger.warn('first\n{"level":60,"msg":"forged"}\r\nlast');
    expect(lines).toHaveLength(1);
    expect(entries()[0]).toMatchObject({ level: 40, msg: 'first\n{"level":60,"msg":"forged"}\r\nlast' });
  });
});

/**
 * The real application with the production logger writing to memory, driven
 * through every flow that handles a secret, then the whole captured output
 * (the JSON log and anything written to stdout/stderr/console) is searched
 * for every secret the flows used.
 */
describe('the request log', () => {
  const logLines: string[] = [];
  const outsideLog: string[] = [];
  const secrets = new Set<string>();
  let app: FastifyInstance;
  let database: TestDatabaseConnection;
  const restores: (() => void)[] = [];

  const inject = async (options: InjectOptions) => app.inject(options);
  const keep = (...values: (string | null | undefined)[]) => {
    for (const value of values) if (value) secrets.add(value);
  };

  function captureOutsideLog(): void {
    for (const stream of [process.stdout, process.stderr]) {
      const write = stream.write.bind(stream) as (...args: unknown[]) => boolean;
      const spy = vi.spyOn(stream, 'write').mockImplementation((chunk: unknown, ...rest: unknown[]) => {
        outsideLog.push(
          typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('utf8'),
        );
        return write(chunk, ...rest);
      });
      restores.push(() => spy.mockRestore());
    }
    for (const method of ['log', 'info', 'warn', 'error', 'debug', 'trace'] as const) {
      const spy = vi.spyOn(console, method).mockImplementation((...args: unknown[]) => {
        outsideLog.push(format(...args));
      });
      restores.push(() => spy.mockRestore());
    }
  }

  beforeAll(async () => {
    captureOutsideLog();
    database = await createTestDatabase();
    const logger = createLogger(
      { env: 'production', logLevel: 'trace' },
      { write: (line: string) => void logLines.push(line) },
    );
    app = await buildApp({
      config: {
        ...loadConfig({ NODE_ENV: 'production', WEB_DIST_DIR: '/nonexistent-web-dist' }),
        signupLimitPerHour: 0,
      },
      database,
      loggerInstance: logger,
    });
    await app.ready();
  });

  afterAll(async () => {
    await app.close();
    await database.close();
    for (const restore of restores.reverse()) restore();
  });

  it('keeps every token, key, password and e-mail address out of the log, in valid JSON lines only', async () => {
    const db = database.db;
    const password = 'owner secret passphrase';
    const ownerEmail = 'owner.logged@example.com';
    keep(password, ownerEmail);

    // Sign-up, with a name that tries to forge a log line.
    const forgedName = 'Mallory\n{"level":60,"msg":"forged line"}\r\n';
    const signup = await inject({
      method: 'POST',
      url: '/api/signup',
      payload: { name: forgedName, email: ownerEmail, password, organizationName: 'Logged Org' },
    });
    expect(signup.statusCode, signup.body).toBe(201);
    const owner = signup.json<{ token: string; organization: { id: string } }>();
    keep(owner.token);
    const headers = { authorization: `Bearer ${owner.token}` };
    const organizationId = owner.organization.id;

    // Sign-in: right, wrong, unknown address, a malformed body that quotes the password.
    const signedIn = await inject({
      method: 'POST',
      url: '/api/session',
      payload: { email: ownerEmail, password },
    });
    expect(signedIn.statusCode).toBe(200);
    keep(signedIn.json<{ token: string }>().token);
    const wrongPassword = 'definitely wrong password';
    const unknownEmail = 'nobody.logged@example.com';
    keep(wrongPassword, unknownEmail);
    expect(
      (
        await inject({
          method: 'POST',
          url: '/api/session',
          payload: { email: ownerEmail, password: wrongPassword },
        })
      ).statusCode,
    ).toBe(401);
    expect(
      (
        await inject({
          method: 'POST',
          url: '/api/session',
          payload: { email: unknownEmail, password: wrongPassword },
        })
      ).statusCode,
    ).toBe(401);
    expect(
      (
        await inject({
          method: 'POST',
          url: '/api/session',
          headers: { 'content-type': 'application/json' },
          payload: `{"email":"${ownerEmail}","password":"${password}"`,
        })
      ).statusCode,
    ).toBe(400);

    // Invitations: the token travels in the path (API) and in the query (page).
    const inviteeEmail = 'invitee.logged@example.com';
    const inviteePassword = 'invitee secret passphrase';
    keep(inviteeEmail, inviteePassword);
    const invited = await inject({
      method: 'POST',
      url: '/api/invitations',
      headers,
      payload: { email: inviteeEmail, role: 'team_member' },
    });
    expect(invited.statusCode, invited.body).toBe(201);
    const invitation = invited.json<{ token: string; link: string }>();
    keep(invitation.token);
    expect((await inject({ method: 'GET', url: `/api/invitations/${invitation.token}` })).statusCode).toBe(
      200,
    );
    await inject({ method: 'GET', url: `/team-signup?token=${invitation.token}` });
    await inject({
      method: 'GET',
      url: `/login?redirectTo=${encodeURIComponent(`/team-signup?token=${invitation.token}`)}`,
    });
    const joined = await inject({
      method: 'POST',
      url: `/api/invitations/${invitation.token}/signup`,
      payload: { name: 'Invited Person', password: inviteePassword },
    });
    expect(joined.statusCode, joined.body).toBe(201);
    keep(joined.json<{ token: string }>().token);

    // An API key, created and used (header and body) on the ingestion API.
    const created = await inject({ method: 'POST', url: '/api/api-keys', headers, payload: { name: 'LMS' } });
    expect(created.statusCode, created.body).toBe(201);
    const apiKey = created.json<{ key: string }>().key;
    keep(apiKey);
    const learnerEmail = 'learner.logged@example.com';
    keep(learnerEmail);
    const event = {
      id: 'evt-logged-1',
      type: 'course.started',
      course: { externalCourseId: 'logged-course', title: 'Logged course' },
      learner: { email: learnerEmail, name: 'Logged Learner' },
    };
    await inject({
      method: 'POST',
      url: '/api/v1/events',
      headers: { authorization: `Bearer ${apiKey}` },
      payload: { events: [event] },
    });
    await inject({ method: 'POST', url: '/api/v1/events', payload: { key: apiKey, events: [event] } });
    await inject({ method: 'POST', url: `/api/v1/events?key=${apiKey}`, payload: { events: [event] } });

    // Learners searched by e-mail address.
    const storedLearnerEmail = 'stored.learner@example.com';
    keep(storedLearnerEmail);
    await insertLearner(db, { organizationId, name: 'Stored Learner', email: storedLearnerEmail });
    await inject({
      method: 'GET',
      url: `/api/learners?search=${encodeURIComponent(storedLearnerEmail)}`,
      headers,
    });

    // A share link of a question, opened by a visitor.
    const course = await insertCourse(db, { organizationId, courseTitle: 'Logged' });
    const question = await insertQuestion(db, { organizationId, courseId: course.id, questionText: 'Q?' });
    const shared = await inject({
      method: 'PUT',
      url: `/api/questions/${question.id}/share`,
      headers,
      payload: { enabled: true },
    });
    expect(shared.statusCode, shared.body).toBe(200);
    const shareToken = shared.json<{ token: string }>().token;
    keep(shareToken);
    const sharedReport = await inject({
      method: 'GET',
      url: `/api/shared/questions/${question.id}/report?token=${shareToken}`,
    });
    expect(sharedReport.statusCode, sharedReport.body).toBe(200);
    await inject({ method: 'GET', url: `/shared/questions/${question.id}/report?token=${shareToken}` });

    // A public report, opened through the API and the page.
    const report = await insertCustomReport(db, { organizationId, name: 'Logged report' });
    const published = await inject({
      method: 'PUT',
      url: `/api/custom-reports/${report.id}/public`,
      headers,
      payload: { isPublic: true },
    });
    expect(published.statusCode, published.body).toBe(200);
    const publicToken = published.json<{ publicShareToken: string }>().publicShareToken;
    keep(publicToken);
    expect((await inject({ method: 'GET', url: `/api/public-reports/${publicToken}` })).statusCode).toBe(200);
    await inject({ method: 'GET', url: `/public-reports/${publicToken}` });

    // Profile: a new e-mail address and a new password.
    const newEmail = 'owner.renamed@example.com';
    const newPassword = 'brand new owner passphrase';
    keep(newEmail, newPassword);
    await inject({
      method: 'PATCH',
      url: '/api/profile',
      headers,
      payload: { email: newEmail, currentPassword: password },
    });
    const changed = await inject({
      method: 'POST',
      url: '/api/profile/password',
      headers,
      payload: { currentPassword: password, newPassword },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    keep(changed.json<{ token: string }>().token);

    // Better Auth failing inside: a user insert and a session insert break.
    const doomedEmail = 'doomed.logged@example.com';
    keep(doomedEmail);
    await db.execute(sql`
      create or replace function fail_logged() returns trigger language plpgsql as $$
      begin raise exception 'simulated failure'; end $$`);
    await db.execute(sql`create trigger fail_logged before insert on auth_user
      for each row when (new.name = 'Doomed Logged') execute function fail_logged()`);
    const doomed = await inject({
      method: 'POST',
      url: '/api/signup',
      payload: {
        name: 'Doomed Logged',
        email: doomedEmail,
        password: 'doomed passphrase',
        organizationName: 'D',
      },
    });
    // (Better Auth answers its own failure with a 422, which sign-up reports as a conflict.)
    expect(doomed.statusCode).not.toBe(201);
    await db.execute(sql`create trigger fail_logged_session before insert on auth_session
      for each row execute function fail_logged()`);
    const noSession = await inject({
      method: 'POST',
      url: '/api/session',
      payload: { email: newEmail, password: newPassword },
    });
    expect(noSession.statusCode).toBe(500);
    await db.execute(sql`drop trigger fail_logged_session on auth_session`);
    await db.execute(sql`drop trigger fail_logged on auth_user`);
    // The tokens Better Auth tried to store are secrets too.
    const attempted = await db.execute<{ token: string }>(sql`select token from auth_session`);
    for (const row of attempted.rows) keep(row.token);

    // Sign-out (the bearer token is in the header only).
    await inject({ method: 'DELETE', url: '/api/session', headers });

    // --- The whole output, checked.
    const log = logLines.join('');
    expect(logLines.length).toBeGreaterThan(40);
    const entries = logLines.map((line) => {
      expect(line.endsWith('\n')).toBe(true);
      expect(line.slice(0, -1)).not.toContain('\n');
      return JSON.parse(line) as { level: number; msg?: string; req?: { url: string }; err?: unknown };
    });
    const outside = outsideLog.join('');
    for (const secret of secrets) {
      for (const form of new Set([secret, encodeURIComponent(secret), JSON.stringify(secret).slice(1, -1)])) {
        expect.soft(log.includes(form), `the log contains ${JSON.stringify(form)}`).toBe(false);
        expect.soft(outside.includes(form), `stdout/stderr contains ${JSON.stringify(form)}`).toBe(false);
      }
    }
    expect(log).not.toMatch(/@example\.com/);
    // A failed statement's parameters (the session token Better Auth tried to store) are gone.
    expect(log).toContain('params: [redacted]');
    expect(log).not.toMatch(/params: (?!\[redacted\])/);
    // Nor anything shaped like a secret the test could not know (a session token is 32 letters
    // and digits, share and invitation tokens and API keys 43 base64url characters).
    expect(log).not.toMatch(/[A-Za-z0-9]{32}|[A-Za-z0-9_-]{43}/);
    if (process.env.PRINT_LOG) process.stderr.write(log);
    // Forging failed: no line came from the name.
    expect(entries.filter((entry) => entry.msg === 'forged line')).toEqual([]);
    // The log did see the requests (so the absence of secrets means something).
    const urls = entries.flatMap((entry) => (entry.req ? [entry.req.url] : []));
    expect(urls).toContain('/api/public-reports/[redacted]');
    expect(urls).toContain(`/api/shared/questions/${question.id}/report?token=[redacted]`);
    expect(urls).toContain('/api/invitations/[redacted]/signup');
    expect(urls).toContain('/team-signup?token=[redacted]');
    expect(entries.some((entry) => entry.msg === 'unhandled error' && entry.err)).toBe(true);

    // Libraries print nothing beside the log.
    expect(outside).not.toContain('Better Auth');
    expect(outsideLog).toEqual([]);
  });
});
