import type { Page } from '@playwright/test';

/**
 * A signed-in browser without depending on the identity endpoints' state:
 * stores a session token the way lib/auth.ts does and answers the session
 * calls (GET /api/me, DELETE /api/session, POST /api/organizations/:id/primary)
 * with the contract of issue 3. Tests that need the real server use the API.
 */
export const SESSION_TOKEN_KEY = 'courselens.sessionToken';

export type FakeOrganization = {
  id: string;
  name: string;
  subdomain: string;
  role: 'owner' | 'team_member';
  isPrimary: boolean;
};

export type FakeSession = {
  user: { id: string; name: string; email: string };
  organizations: FakeOrganization[];
  /** Every request the page sent to the session endpoints, for assertions. */
  calls: { method: string; path: string; headers: Record<string, string> }[];
};

export const acme: FakeOrganization = {
  id: 'org-acme',
  name: 'Acme Learning',
  subdomain: 'acme',
  role: 'owner',
  isPrimary: true,
};

export const globex: FakeOrganization = {
  id: 'org-globex',
  name: 'Globex Academy',
  subdomain: 'globex',
  role: 'team_member',
  isPrimary: false,
};

export async function signInWithFakeSession(
  page: Page,
  options: { organizations?: FakeOrganization[]; setToken?: boolean } = {},
): Promise<FakeSession> {
  const session: FakeSession = {
    user: { id: 'user-1', name: 'Ada Lovelace', email: 'ada@example.com' },
    organizations: (options.organizations ?? [acme]).map((organization) => ({ ...organization })),
    calls: [],
  };
  let isSignedIn = true;
  if (options.setToken !== false) {
    await page.addInitScript(
      ([key]) => {
        if (!window.sessionStorage.getItem('e2e-token-set')) {
          window.localStorage.setItem(key as string, 'e2e-token');
          window.sessionStorage.setItem('e2e-token-set', '1');
        }
      },
      [SESSION_TOKEN_KEY],
    );
  }
  await page.route('**/api/me', async (route) => {
    session.calls.push({
      method: route.request().method(),
      path: '/api/me',
      headers: route.request().headers(),
    });
    if (!isSignedIn) {
      await route.fulfill({ status: 401, json: { error: 'Not authenticated', code: 'UNAUTHORIZED' } });
      return;
    }
    await route.fulfill({ json: { user: session.user, organizations: session.organizations } });
  });
  await page.route('**/api/session', async (route) => {
    session.calls.push({
      method: route.request().method(),
      path: '/api/session',
      headers: route.request().headers(),
    });
    if (route.request().method() === 'DELETE') {
      isSignedIn = false;
      await route.fulfill({ status: 204 });
      return;
    }
    await route.fallback();
  });
  await page.route('**/api/organizations/*/primary', async (route) => {
    const id = new URL(route.request().url()).pathname.split('/')[3];
    session.calls.push({
      method: route.request().method(),
      path: `/api/organizations/${id}/primary`,
      headers: route.request().headers(),
    });
    for (const organization of session.organizations) organization.isPrimary = organization.id === id;
    await route.fulfill({ status: 204 });
  });
  return session;
}
