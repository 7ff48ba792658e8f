import { queryOptions } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { createTestQueryClient, jsonResponse, stubFetch } from '@/testing/test-utils';

import { SESSION_TOKEN_KEY, selectOrganization } from './auth';
import { organizationKey } from './query-keys';
import {
  organizationLoader,
  prefetchLoader,
  type OrganizationPrefetchRoute,
  type PagePrefetch,
  type PrefetchRoute,
} from './route-loaders';

const me = {
  user: { id: 'u1', name: 'Ada Lovelace', email: 'ada@example.com' },
  organizations: [
    { id: 'o1', name: 'Acme', subdomain: 'acme', role: 'owner', isPrimary: false },
    { id: 'o2', name: 'Globex', subdomain: 'globex', role: 'team_member', isPrimary: true },
  ],
};

const loaderArgs = (path: string) => ({
  request: new Request(`http://localhost${path}`),
  url: new URL(`http://localhost${path}`),
  pattern: '',
  params: { courseId: 'c1' },
  context: undefined,
});

describe('route loaders', () => {
  afterEach(() => selectOrganization(null));

  it('prefetch for the organization the page reads (the tab’s pick), with the URL, and return at once', async () => {
    window.localStorage.setItem(SESSION_TOKEN_KEY, 'token-1');
    selectOrganization('o1');
    let answer: (response: Response) => void = () => {};
    stubFetch((url) =>
      url === '/api/me' ? jsonResponse(200, me) : new Promise<Response>((resolve) => (answer = resolve)),
    );
    const queryClient = createTestQueryClient();
    const seen = vi.fn();
    const prefetchPage: PagePrefetch<OrganizationPrefetchRoute> = ({
      organizationId,
      organization,
      params,
      searchParams,
      prefetch,
    }) => {
      seen({
        organizationId,
        role: organization.role,
        courseId: params.courseId,
        q: searchParams.get('q'),
      });
      prefetch(
        queryOptions({
          queryKey: [...organizationKey(organizationId), 'courses', 'detail', params.courseId],
          queryFn: () => fetch('/api/courses/c1').then((response) => response.json() as Promise<unknown>),
        }),
      );
    };
    const loader = organizationLoader(queryClient, () => Promise.resolve(prefetchPage));

    // The loader is done while the prefetched request still waits for its answer.
    expect(await loader(loaderArgs('/course/c1/learners?q=ada'))).toBeNull();
    expect(seen).toHaveBeenCalledWith({ organizationId: 'o1', role: 'owner', courseId: 'c1', q: 'ada' });
    const state = queryClient.getQueryState(['org', 'o1', 'courses', 'detail', 'c1']);
    expect(state?.fetchStatus).toBe('fetching');
    answer(jsonResponse(200, { id: 'c1' }));
  });

  it('load the prefetch’s code while the session loads, not after it', async () => {
    window.localStorage.setItem(SESSION_TOKEN_KEY, 'token-1');
    let answerSession: (response: Response) => void = () => {};
    stubFetch((url) =>
      url === '/api/me'
        ? new Promise<Response>((resolve) => (answerSession = resolve))
        : jsonResponse(200, { id: 'c1' }),
    );
    let deliverCode: (prefetchPage: PagePrefetch<OrganizationPrefetchRoute>) => void = () => {};
    const loadPrefetch = vi.fn(
      () => new Promise<PagePrefetch<OrganizationPrefetchRoute>>((resolve) => (deliverCode = resolve)),
    );
    const prefetchPage = vi.fn();

    const done = organizationLoader(createTestQueryClient(), loadPrefetch)(loaderArgs('/course/c1/learners'));

    // The session has not answered, and the code is already on its way.
    await vi.waitFor(() => expect(loadPrefetch).toHaveBeenCalledTimes(1));
    answerSession(jsonResponse(200, me));
    deliverCode(prefetchPage);
    expect(await done).toBeNull();
    expect(prefetchPage).toHaveBeenCalledWith(expect.objectContaining({ organizationId: 'o2' }));
  });

  it('open the page anyway when the prefetch’s code does not load', async () => {
    window.localStorage.setItem(SESSION_TOKEN_KEY, 'token-1');
    stubFetch(() => jsonResponse(200, me));
    const loadPrefetch = () => Promise.reject(new TypeError('Failed to fetch dynamically imported module'));

    await expect(
      organizationLoader(createTestQueryClient(), loadPrefetch)(loaderArgs('/courses')),
    ).resolves.toBeNull();
    await expect(
      prefetchLoader(createTestQueryClient(), loadPrefetch)(loaderArgs('/public-reports/x')),
    ).resolves.toBeNull();
  });

  it('start nothing for a signed-out visitor (the guard redirects)', async () => {
    const fetchMock = stubFetch(() =>
      jsonResponse(401, { error: 'Not authenticated', code: 'UNAUTHENTICATED' }),
    );
    const prefetchPage = vi.fn();

    await organizationLoader(createTestQueryClient(), () => Promise.resolve(prefetchPage))(
      loaderArgs('/courses'),
    );

    expect(prefetchPage).not.toHaveBeenCalled();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('leave out a query its page would not run', async () => {
    const queryFn = vi.fn(() => Promise.resolve('data'));
    const queryClient = createTestQueryClient();
    const prefetchPage: PagePrefetch<PrefetchRoute> = ({ prefetch }) => {
      prefetch(queryOptions({ queryKey: ['shared', 'report', 'bad'], queryFn, enabled: false }));
      prefetch(queryOptions({ queryKey: ['shared', 'report', 'good'], queryFn }));
    };

    await prefetchLoader(queryClient, () => Promise.resolve(prefetchPage))(loaderArgs('/public-reports/x'));

    expect(queryFn).toHaveBeenCalledTimes(1);
    expect(queryClient.getQueryState(['shared', 'report', 'bad'])).toBeUndefined();
  });
});
