import { QueryClient } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { api, isApiError } from './api-client';
import {
  CURRENT_ORGANIZATION_KEY,
  SESSION_TOKEN_KEY,
  ensureCurrentOrganization,
  getPostSignInPath,
  getSelectedOrganizationId,
  pickCurrentOrganization,
  selectOrganization,
  signOut,
  startSession,
  type OrganizationMembership,
} from './auth';

const org = (id: string, isPrimary = false): OrganizationMembership => ({
  id,
  name: `Org ${id}`,
  subdomain: id,
  role: 'owner',
  isPrimary,
});

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

describe('pickCurrentOrganization', () => {
  it('prefers the selection, then the primary, then the first', () => {
    const orgs = [org('a'), org('b', true), org('c')];
    expect(pickCurrentOrganization(orgs, 'c')?.id).toBe('c');
    expect(pickCurrentOrganization(orgs, null)?.id).toBe('b');
    expect(pickCurrentOrganization(orgs, 'gone')?.id).toBe('b');
    expect(pickCurrentOrganization([org('a'), org('c')], null)?.id).toBe('a');
    expect(pickCurrentOrganization([], null)).toBeNull();
  });
});

describe('getPostSignInPath', () => {
  it('accepts only paths of this app', () => {
    expect(getPostSignInPath('/courses?x=1')).toBe('/courses?x=1');
    expect(getPostSignInPath(null)).toBe('/dashboard');
    expect(getPostSignInPath('https://evil.example')).toBe('/dashboard');
    expect(getPostSignInPath('//evil.example')).toBe('/dashboard');
  });
});

describe('session start-up and sign-out', () => {
  beforeEach(() => {
    window.localStorage.clear();
    selectOrganization(null);
  });
  afterEach(() => {
    window.localStorage.clear();
    window.sessionStorage.clear();
  });

  it('without a token sends nothing and is signed out', async () => {
    const fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
    expect(await startSession(new QueryClient())).toBeNull();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('loads the profile with the bearer token and selects the primary organization', async () => {
    window.localStorage.setItem(SESSION_TOKEN_KEY, 'tok');
    const fetchMock = vi.fn(async () =>
      json({ user: { id: 'u', name: 'Ada', email: 'ada@x.dev' }, organizations: [org('a'), org('b', true)] }),
    );
    vi.stubGlobal('fetch', fetchMock);
    const profile = await startSession(new QueryClient());
    expect(profile?.user.name).toBe('Ada');
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/me');
    expect((init.headers as Record<string, string>).Authorization).toBe('Bearer tok');
    expect(getSelectedOrganizationId()).toBe('b');
    // The primary is looked up again on every fresh load: nothing is stored.
    expect(window.sessionStorage.getItem(CURRENT_ORGANIZATION_KEY)).toBeNull();
    expect(window.localStorage.getItem(CURRENT_ORGANIZATION_KEY)).toBeNull();
  });

  it('a failing profile request is ignored silently; a 401 drops the token', async () => {
    window.localStorage.setItem(SESSION_TOKEN_KEY, 'tok');
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => json({ error: 'Not authenticated', code: 'UNAUTHORIZED' }, 401)),
    );
    expect(await startSession(new QueryClient())).toBeNull();
    expect(window.localStorage.getItem(SESSION_TOKEN_KEY)).toBeNull();

    window.localStorage.setItem(SESSION_TOKEN_KEY, 'tok');
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Promise.reject(new TypeError('offline'))),
    );
    expect(await startSession(new QueryClient())).toBeNull();
    expect(window.localStorage.getItem(SESSION_TOKEN_KEY)).toBe('tok');
  });

  it('signing out revokes the session on the server and forgets the token', async () => {
    window.localStorage.setItem(SESSION_TOKEN_KEY, 'tok');
    const fetchMock = vi.fn(async () => new Response(null, { status: 204 }));
    vi.stubGlobal('fetch', fetchMock);
    await signOut(new QueryClient());
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/session');
    expect(init.method).toBe('DELETE');
    expect((init.headers as Record<string, string>).Authorization).toBe('Bearer tok');
    expect(window.localStorage.getItem(SESSION_TOKEN_KEY)).toBeNull();
  });

  it('sends nothing the page starts while the session is being revoked', async () => {
    const queryClient = new QueryClient();
    await startSession(queryClient);
    window.localStorage.setItem(SESSION_TOKEN_KEY, 'tok');
    const sent: string[] = [];
    const refused: string[] = [];
    const pageRequest = async (path: string) => {
      try {
        await api.get(path);
      } catch (error) {
        if (isApiError(error)) refused.push(`${path} ${error.code}`);
      }
    };
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init?: RequestInit) => {
        sent.push(`${init?.method ?? 'GET'} ${url}`);
        // A part of the page mounts while the session is being revoked.
        if (init?.method === 'DELETE') await pageRequest('/late-part');
        return new Response(null, { status: 204 });
      }),
    );
    await signOut(queryClient);
    expect(sent).toEqual(['DELETE /api/session']);
    expect(refused).toEqual(['/late-part SESSION_CLOSING']);
    // Once signed out, requests go out again (the next sign-in).
    await pageRequest('/after');
    expect(sent).toEqual(['DELETE /api/session', 'GET /api/after']);
  });

  it('calls off requests still on their way before revoking the session', async () => {
    window.localStorage.setItem(SESSION_TOKEN_KEY, 'tok');
    const events: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (_url: string, init?: RequestInit) => {
        events.push(`fetch ${init?.method ?? 'GET'}`);
        return new Response(null, { status: 204 });
      }),
    );
    const queryClient = new QueryClient();
    const pending = queryClient.fetchQuery({
      queryKey: ['banner'],
      queryFn: ({ signal }) =>
        new Promise((_resolve, reject) => {
          signal.addEventListener('abort', () => {
            events.push('aborted');
            reject(new DOMException('Aborted', 'AbortError'));
          });
        }),
    });
    await signOut(queryClient);
    await expect(pending).rejects.toBeDefined();
    expect(events).toEqual(['aborted', 'fetch DELETE']);
  });
});

describe('current organization on a fresh load', () => {
  const profile = (organizations: OrganizationMembership[]) => ({
    user: { id: 'u', name: 'Ada', email: 'ada@x.dev' },
    organizations,
  });

  beforeEach(() => {
    window.localStorage.clear();
    window.sessionStorage.clear();
    selectOrganization(null);
    window.localStorage.setItem(SESSION_TOKEN_KEY, 'tok');
  });
  afterEach(() => {
    window.localStorage.clear();
    window.sessionStorage.clear();
  });

  it('a pick made in this tab wins over the primary, and only in this tab', async () => {
    selectOrganization('c');
    expect(window.sessionStorage.getItem(CURRENT_ORGANIZATION_KEY)).toBe('c');
    expect(window.localStorage.getItem(CURRENT_ORGANIZATION_KEY)).toBeNull();

    // The same tab reloads: sessionStorage still holds the pick.
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => json(profile([org('a'), org('b', true), org('c')]))),
    );
    await startSession(new QueryClient());
    expect(getSelectedOrganizationId()).toBe('c');
  });

  it('ignores (and forgets) a pick left in localStorage by an older version', async () => {
    window.localStorage.setItem(CURRENT_ORGANIZATION_KEY, 'c');
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => json(profile([org('a'), org('b', true), org('c')]))),
    );
    await startSession(new QueryClient());
    expect(getSelectedOrganizationId()).toBe('b');
    expect(window.localStorage.getItem(CURRENT_ORGANIZATION_KEY)).toBeNull();
  });

  it('without a primary organization the first one is current', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => json(profile([org('a'), org('c')]))),
    );
    await startSession(new QueryClient());
    expect(getSelectedOrganizationId()).toBe('a');
  });

  it('forgets a pick of an organization the user no longer belongs to', () => {
    selectOrganization('gone');
    expect(ensureCurrentOrganization(profile([org('a'), org('b', true)]))?.id).toBe('b');
    expect(window.sessionStorage.getItem(CURRENT_ORGANIZATION_KEY)).toBeNull();
  });

  it('keeps the current organization while another one becomes primary, until the next load', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => json(profile([org('a', true), org('b')]))),
    );
    await startSession(new QueryClient());
    expect(getSelectedOrganizationId()).toBe('a');
    // Marking b primary refetches the profile; the page stays on a.
    expect(ensureCurrentOrganization(profile([org('a'), org('b', true)]))?.id).toBe('a');
    // A fresh load follows the new primary.
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => json(profile([org('a'), org('b', true)]))),
    );
    await startSession(new QueryClient());
    expect(getSelectedOrganizationId()).toBe('b');
  });

  it('signing out forgets the pick', async () => {
    selectOrganization('c');
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(null, { status: 204 })),
    );
    await signOut(new QueryClient());
    expect(window.sessionStorage.getItem(CURRENT_ORGANIZATION_KEY)).toBeNull();
    expect(getSelectedOrganizationId()).toBeNull();
  });
});
