/**
 * The browser session: the bearer token, the signed-in person and the current
 * organization.
 *
 * - The session token lives in localStorage (`courselens.sessionToken`) and is
 *   sent by `lib/api-client` as `Authorization: Bearer …` on every request,
 *   with the current organization as `X-Organization-Id`.
 * - `useSession()` reads `GET /api/me` through TanStack Query.
 * - The current organization is the one the user picked in this tab (kept
 *   in sessionStorage, so it survives a reload of this tab only), else the
 *   primary one, else the first (spec section 2). Another tab, or a new
 *   visit, starts from the primary organization again.
 * - Failures while loading the session or the organization are swallowed: the
 *   visitor is treated as signed out, as the spec asks for start-up errors.
 *
 * The identity screens (sign in, sign up) call {@link signIn} with the token
 * the server returned and then {@link getPostSignInPath}.
 */
import { queryOptions, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useCallback, useSyncExternalStore } from 'react';

import { trackLoggedOut } from './analytics';
import { api, configureApiClient, isApiError } from './api-client';

export const SESSION_TOKEN_KEY = 'courselens.sessionToken';
export const CURRENT_ORGANIZATION_KEY = 'courselens.currentOrganizationId';

export type SessionUser = { id: string; name: string; email: string };

export type OrganizationRole = 'owner' | 'team_member' | (string & {});

/** One organization the user belongs to, as `GET /api/me` lists it. */
export type OrganizationMembership = {
  id: string;
  name: string;
  subdomain: string;
  role: OrganizationRole;
  isPrimary: boolean;
};

export type SessionProfile = { user: SessionUser; organizations: OrganizationMembership[] };

// --- small localStorage-backed stores ------------------------------------

function readStorage(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

function writeStorage(key: string, value: string | null): void {
  try {
    if (value === null) window.localStorage.removeItem(key);
    else window.localStorage.setItem(key, value);
  } catch {
    // Storage blocked (privacy mode, sandboxed frame): the value lives for this page only.
  }
}

function readTabStorage(key: string): string | null {
  try {
    return window.sessionStorage.getItem(key);
  } catch {
    return null;
  }
}

function writeTabStorage(key: string, value: string | null): void {
  try {
    if (value === null) window.sessionStorage.removeItem(key);
    else window.sessionStorage.setItem(key, value);
  } catch {
    // Storage blocked: the choice lasts until the page is reloaded.
  }
}

const organizationListeners = new Set<() => void>();
/** The organization the user picked in this tab (sessionStorage), if any. */
let chosenOrganizationId: string | null = readTabStorage(CURRENT_ORGANIZATION_KEY);
/**
 * The current organization of this page: the tab's choice, else the one
 * settled at start-up. Kept in memory so that marking another organization
 * primary does not switch the organization under the user's feet; a reload
 * settles it again.
 */
let selectedOrganizationId: string | null = chosenOrganizationId;
let memoryToken: string | null = null;
/** While a sign-out revokes the session: the API client sends nothing but the revoke. */
let isClosingSession = false;

function notifyOrganizationListeners(): void {
  for (const listener of organizationListeners) listener();
}

export function getSessionToken(): string | null {
  return readStorage(SESSION_TOKEN_KEY) ?? memoryToken;
}

export function setSessionToken(token: string | null): void {
  memoryToken = token;
  writeStorage(SESSION_TOKEN_KEY, token);
}

export function getSelectedOrganizationId(): string | null {
  return selectedOrganizationId;
}

/**
 * The user picks `organizationId` as the current organization: it stays
 * current in this tab, across reloads, until another pick or sign-out. Other
 * tabs are not affected.
 */
export function selectOrganization(organizationId: string | null): void {
  chosenOrganizationId = organizationId;
  selectedOrganizationId = organizationId;
  writeTabStorage(CURRENT_ORGANIZATION_KEY, organizationId);
  notifyOrganizationListeners();
}

function subscribeOrganization(listener: () => void): () => void {
  organizationListeners.add(listener);
  return () => organizationListeners.delete(listener);
}

/** The selected organization if the user still belongs to it, else the primary one, else the first. */
export function pickCurrentOrganization(
  organizations: readonly OrganizationMembership[],
  selectedId: string | null,
): OrganizationMembership | null {
  return (
    organizations.find((organization) => organization.id === selectedId) ??
    organizations.find((organization) => organization.isPrimary) ??
    organizations[0] ??
    null
  );
}

// --- the session query ---------------------------------------------------

export const sessionQueryKey = ['session'] as const;

async function fetchSession(): Promise<SessionProfile | null> {
  if (!getSessionToken()) return null;
  try {
    return await api.get<SessionProfile>('/me');
  } catch (error) {
    if (isApiError(error) && error.status === 401) setSessionToken(null);
    // Any other failure: treated as signed out for now, silently (spec section 2).
    return null;
  }
}

export function sessionQueryOptions() {
  return queryOptions({
    queryKey: sessionQueryKey,
    queryFn: fetchSession,
    staleTime: 5 * 60_000,
    retry: false,
  });
}

/** Reads the session, never throws. */
export async function loadSession(queryClient: QueryClient): Promise<SessionProfile | null> {
  try {
    return await queryClient.fetchQuery(sessionQueryOptions());
  } catch {
    return null;
  }
}

/**
 * Start-up, after the theme (applied before paint by theme-init.js): wires the
 * token and organization into the API client, loads the session, then settles
 * the current organization. Every error is ignored.
 */
export async function startSession(queryClient: QueryClient): Promise<SessionProfile | null> {
  // A fresh load: only a pick made in this tab counts. Earlier versions kept
  // the pick in localStorage, where it leaked into every tab and visit.
  chosenOrganizationId = readTabStorage(CURRENT_ORGANIZATION_KEY);
  selectedOrganizationId = chosenOrganizationId;
  writeStorage(CURRENT_ORGANIZATION_KEY, null);
  configureApiClient({
    getAuthToken: getSessionToken,
    getOrganizationId: () => {
      const profile = queryClient.getQueryData<SessionProfile | null>(sessionQueryKey);
      return profile
        ? (pickCurrentOrganization(profile.organizations, selectedOrganizationId)?.id ?? null)
        : null;
    },
    onUnauthorized: () => {
      setSessionToken(null);
      queryClient.setQueryData(sessionQueryKey, null);
    },
    isClosingSession: () => isClosingSession,
  });
  const profile = await loadSession(queryClient);
  if (profile) ensureCurrentOrganization(profile);
  return profile;
}

/**
 * Settles the current organization of this page: the tab's pick while the
 * user still belongs to it, else the primary one, else the first. Only a
 * pick is stored; the primary is looked up again on every fresh load.
 */
export function ensureCurrentOrganization(profile: SessionProfile): OrganizationMembership | null {
  const isMember = (id: string | null) =>
    profile.organizations.some((organization) => organization.id === id);
  if (chosenOrganizationId !== null && !isMember(chosenOrganizationId)) {
    chosenOrganizationId = null;
    writeTabStorage(CURRENT_ORGANIZATION_KEY, null);
  }
  const current = pickCurrentOrganization(profile.organizations, selectedOrganizationId);
  const currentId = current?.id ?? null;
  if (currentId !== selectedOrganizationId) {
    selectedOrganizationId = currentId;
    notifyOrganizationListeners();
  }
  return current;
}

/**
 * The current organization as a route loader sees it: the session read (from
 * the cache, or joining the request in flight) and the organization settled
 * by the same rule as {@link useSession}, so a loader prefetches under the
 * key the page reads. Null when signed out or without one.
 */
export async function loadCurrentOrganization(
  queryClient: QueryClient,
): Promise<OrganizationMembership | null> {
  const profile = await loadSession(queryClient);
  return profile ? ensureCurrentOrganization(profile) : null;
}

export type SessionState =
  | { status: 'loading'; user: null; organizations: []; currentOrganization: null }
  | { status: 'unauthenticated'; user: null; organizations: []; currentOrganization: null }
  | {
      status: 'authenticated';
      user: SessionUser;
      organizations: OrganizationMembership[];
      currentOrganization: OrganizationMembership | null;
    };

export function useSession(): SessionState {
  const { data, isPending } = useQuery(sessionQueryOptions());
  const selectedId = useSyncExternalStore(subscribeOrganization, getSelectedOrganizationId, () => null);
  if (isPending) return { status: 'loading', user: null, organizations: [], currentOrganization: null };
  if (!data) return { status: 'unauthenticated', user: null, organizations: [], currentOrganization: null };
  return {
    status: 'authenticated',
    user: data.user,
    organizations: data.organizations,
    currentOrganization: pickCurrentOrganization(data.organizations, selectedId),
  };
}

// --- sign in, sign out, primary organization -------------------------------

/** Called by the identity screens with the token `POST /api/session` or `/api/signup` returned. */
export async function signIn(queryClient: QueryClient, token: string): Promise<SessionProfile | null> {
  setSessionToken(token);
  await queryClient.invalidateQueries({ queryKey: sessionQueryKey });
  const profile = await loadSession(queryClient);
  if (profile) ensureCurrentOrganization(profile);
  return profile;
}

/** Revokes the session on the server (errors ignored) and forgets it here. */
export async function signOut(queryClient: QueryClient): Promise<void> {
  const token = getSessionToken();
  // Any request would come back 401 once the session is revoked: those still on their way (a banner
  // loading beside the page) are called off, and those the page starts meanwhile (a part that mounts
  // late) are not sent at all.
  isClosingSession = true;
  try {
    await queryClient.cancelQueries();
    if (token) {
      await api.delete<void>('/session', { anonymous: true, headers: { Authorization: `Bearer ${token}` } });
    }
  } catch {
    // The token is dropped locally whatever the server said.
  } finally {
    isClosingSession = false;
  }
  trackLoggedOut();
  setSessionToken(null);
  selectOrganization(null);
  queryClient.setQueryData(sessionQueryKey, null);
  queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== sessionQueryKey[0] });
}

export function useSignOut(): () => Promise<void> {
  const queryClient = useQueryClient();
  return useCallback(() => signOut(queryClient), [queryClient]);
}

export async function markOrganizationPrimary(
  queryClient: QueryClient,
  organizationId: string,
): Promise<void> {
  await api.post<unknown>(`/organizations/${encodeURIComponent(organizationId)}/primary`);
  await queryClient.invalidateQueries({ queryKey: sessionQueryKey });
}

/**
 * Where to go after signing in: the `redirectTo` the guard put on the login
 * URL when it is a path of this app, else the dashboard.
 */
export function getPostSignInPath(redirectTo: string | null | undefined, fallback = '/dashboard'): string {
  if (
    !redirectTo ||
    !redirectTo.startsWith('/') ||
    redirectTo.startsWith('//') ||
    redirectTo.startsWith('/\\')
  ) {
    return fallback;
  }
  return redirectTo;
}
