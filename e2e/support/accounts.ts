import type { APIRequestContext, Page } from '@playwright/test';

import { expect } from './test';

/** Where lib/auth.ts keeps the session token. */
export const SESSION_TOKEN_KEY = 'courselens.sessionToken';

export type Account = {
  token: string;
  user: { id: string; name: string; email: string };
  organization: { id: string; name: string; subdomain: string };
};

export type SignUpOverrides = Partial<{
  name: string;
  email: string;
  password: string;
  organizationName: string;
  subdomain: string;
}>;

/** A short suffix that keeps e-mails and organization names apart between tests. */
export function uniqueSuffix(): string {
  return `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
}

/**
 * Creates a real account and its (primary) organization through POST /api/signup.
 * Every call uses a new e-mail unless one is given, so tests stay independent.
 */
export async function signUpViaApi(
  request: APIRequestContext,
  overrides: SignUpOverrides = {},
): Promise<Account> {
  const suffix = uniqueSuffix();
  const data = {
    name: 'Ada Lovelace',
    email: `ada.${suffix}@example.com`,
    password: 'correct horse battery',
    organizationName: `Acme Learning ${suffix}`,
    ...overrides,
  };
  const response = await request.post('/api/signup', { data });
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()) as Account;
}

/**
 * Moves the account's organization to a plan through the billing API (the
 * local provider changes it at once), for tests that hold more than Free
 * allows (3 courses, 1 chatbot, 100 learners).
 */
export async function changePlanViaApi(
  request: APIRequestContext,
  token: string,
  plan: 'team' | 'business' = 'business',
): Promise<void> {
  const response = await request.post('/api/billing/checkout', {
    headers: { authorization: `Bearer ${token}` },
    data: { plan, interval: 'month' },
  });
  expect(response.status(), await response.text()).toBe(200);
}

/** Creates another organization for the signed-in person (POST /api/organizations; not primary). */
export async function createOrganizationViaApi(
  request: APIRequestContext,
  token: string,
  name: string,
  subdomain?: string,
): Promise<{ id: string; name: string; subdomain: string }> {
  const response = await request.post('/api/organizations', {
    data: { name, subdomain },
    headers: { authorization: `Bearer ${token}` },
  });
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()) as { id: string; name: string; subdomain: string };
}

/** GET /api/me with a token, for checking what the server really holds. */
export function getMe(request: APIRequestContext, token: string) {
  return request.get('/api/me', { headers: { authorization: `Bearer ${token}` } });
}

/**
 * Stores the token before the app loads, as lib/auth.ts would after signing in.
 * Only on the tab's first load, so signing out in the test is not undone by the next navigation.
 */
export async function signInAs(page: Page, token: string): Promise<void> {
  await page.addInitScript(
    ([key, value]) => {
      if (!window.sessionStorage.getItem('e2e-token-set')) {
        window.localStorage.setItem(key!, value!);
        window.sessionStorage.setItem('e2e-token-set', '1');
      }
    },
    [SESSION_TOKEN_KEY, token],
  );
}
