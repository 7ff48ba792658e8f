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
      payload: { name: 'New Name', email: 'New.Address@Example.com' },
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
      payload: { email: other.user.email },
    });
    expect(response.statusCode).toBe(409);
    expect(response.json().error).toBe('An account with this email already exists');
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
