import type { InjectOptions } from 'fastify';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../db/schema';
import { createTestApp, type TestApp } from '../../test/app';
import { bearer, signUpViaApi } from '../../test/auth';

let testApp: TestApp;

beforeAll(async () => {
  testApp = await createTestApp();
  await testApp.app.ready();
});

afterAll(async () => {
  await testApp.close();
});

const inject = (options: InjectOptions) => testApp.app.inject(options);

async function signIn(email: string, password: string) {
  return inject({ method: 'POST', url: '/api/session', payload: { email, password } });
}

describe('PATCH /api/profile', () => {
  it('changes name and e-mail on the identity and the profile', async () => {
    const person = await signUpViaApi(testApp.app);
    const response = await inject({
      method: 'PATCH',
      url: '/api/profile',
      headers: person.headers,
      payload: { name: 'New Name', email: 'New.Address@Example.com', currentPassword: person.password },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      id: person.user.id,
      name: 'New Name',
      email: 'new.address@example.com',
    });
    const [profile] = await testApp.database.db.select().from(users).where(eq(users.userId, person.user.id));
    expect(profile).toMatchObject({ name: 'New Name', email: 'new.address@example.com' });
    expect((await signIn('new.address@example.com', person.password)).statusCode).toBe(200);
  });

  it('refuses an e-mail address another account uses', async () => {
    const person = await signUpViaApi(testApp.app);
    const other = await signUpViaApi(testApp.app);
    const response = await inject({
      method: 'PATCH',
      url: '/api/profile',
      headers: person.headers,
      payload: { email: other.user.email, currentPassword: person.password },
    });
    expect(response.statusCode).toBe(409);
    expect(response.json().error).toBe('An account with this email already exists');
  });
});

describe('changing the e-mail address needs the current password', () => {
  const patch = (person: { headers: { authorization: string } }, payload: Record<string, unknown>) =>
    inject({ method: 'PATCH', url: '/api/profile', headers: person.headers, payload });

  it('refuses a new address without the password (400, says what to enter) and changes nothing', async () => {
    const person = await signUpViaApi(testApp.app);
    const response = await patch(person, { name: 'Renamed', email: 'taken-over@example.com' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      error: 'Enter your current password to change your e-mail address',
      code: 'BAD_REQUEST',
      issues: [
        {
          path: 'body.currentPassword',
          message: 'Enter your current password to change your e-mail address',
        },
      ],
    });
    expect((await patch(person, { email: 'taken-over@example.com', currentPassword: '' })).statusCode).toBe(
      400,
    );
    const [profile] = await testApp.database.db.select().from(users).where(eq(users.userId, person.user.id));
    expect(profile).toMatchObject({ name: person.user.name, email: person.user.email });
  });

  it('refuses a wrong password with 400 "Current password is incorrect", and limits the guesses', async () => {
    const person = await signUpViaApi(testApp.app);
    const wrong = await patch(person, {
      email: 'taken-over@example.com',
      currentPassword: 'not the password',
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({ error: 'Current password is incorrect', code: 'BAD_REQUEST' });
    expect((await signIn('taken-over@example.com', person.password)).statusCode).toBe(401);
    for (let attempt = 1; attempt < 10; attempt += 1)
      expect(
        (await patch(person, { email: 'x@example.com', currentPassword: `guess ${attempt}` })).statusCode,
      ).toBe(400);
    const limited = await patch(person, { email: 'x@example.com', currentPassword: person.password });
    expect(limited.statusCode).toBe(429);
    expect(limited.json().error).toMatch(/^Too many incorrect passwords\. Try again in 1[45] minutes\.$/);
  });

  it('needs no password for the name alone or for the address it already has', async () => {
    const person = await signUpViaApi(testApp.app);
    const response = await patch(person, { name: 'Only The Name', email: person.user.email.toUpperCase() });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ name: 'Only The Name', email: person.user.email });
  });
});

describe('POST /api/profile/password', () => {
  it('needs the current password', async () => {
    const person = await signUpViaApi(testApp.app);
    const response = await inject({
      method: 'POST',
      url: '/api/profile/password',
      headers: person.headers,
      payload: { currentPassword: 'not it at all', newPassword: 'brand new password' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toBe('Current password is incorrect');
    expect((await signIn(person.user.email, person.password)).statusCode).toBe(200);
  });

  it('changes the password and signs out every other session', async () => {
    const person = await signUpViaApi(testApp.app);
    const elsewhere = (await signIn(person.user.email, person.password)).json<{ token: string }>();
    const response = await inject({
      method: 'POST',
      url: '/api/profile/password',
      headers: person.headers,
      payload: { currentPassword: person.password, newPassword: 'brand new password' },
    });
    expect(response.statusCode).toBe(200);
    const { token } = response.json<{ token: string }>();
    expect(
      (await inject({ method: 'GET', url: '/api/me', headers: bearer(elsewhere.token) })).statusCode,
    ).toBe(401);
    expect((await inject({ method: 'GET', url: '/api/me', headers: bearer(token) })).statusCode).toBe(200);
    expect((await signIn(person.user.email, person.password)).statusCode).toBe(401);
    expect((await signIn(person.user.email, 'brand new password')).statusCode).toBe(200);
  });
});
