import { COURSE_LEARNER_LIST_DEFAULTS } from '@courselens/contracts';
import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider, type LoaderFunction, type RouteObject } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { paths } from '@/config/paths';
import { apiKeysQueryOptions } from '@/features/api-keys/api/get-api-keys';
import { courseQueryOptions } from '@/features/courses/api/get-course';
import { courseLearnersQueryOptions } from '@/features/courses/api/get-course-learners';
import { variableCoursesQueryOptions } from '@/features/variables/api/get-variable-courses';
import { failedJobsQueryOptions } from '@/features/jobs/api/get-failed-jobs';
import { invitationPreviewQueryOptions } from '@/features/team/api/get-invitation-preview';
import { invitationsQueryOptions } from '@/features/team/api/get-invitations';
import { membersQueryOptions } from '@/features/team/api/get-members';
import { variablesQueryOptions } from '@/features/variables/api/get-variables';
import { selectOrganization, sessionQueryKey, SESSION_TOKEN_KEY } from '@/lib/auth';
import { createQueryClient } from '@/lib/react-query';
import { createTestQueryClient, fetchedRequests, jsonResponse, stubFetch } from '@/testing/test-utils';

import { createRoutes } from './router';

// The course page's code (layout and tab) arrives only when a test opens this
// gate, so a test can tell requests its loaders start from those its
// components would start once rendered.
const pageCode = vi.hoisted(() => {
  let open: () => void = () => {};
  const isOpen = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { isOpen, open: () => open() };
});
vi.mock('./routes/app/course-layout', async (importOriginal) => {
  await pageCode.isOpen;
  return importOriginal();
});
vi.mock('@/features/courses/components/course-learners-page', async (importOriginal) => {
  await pageCode.isOpen;
  return importOriginal();
});

function renderAt(path: string, queryClient = createTestQueryClient()) {
  const router = createMemoryRouter(createRoutes(queryClient), { initialEntries: [path] });
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return Object.assign(router, { queryClient });
}

describe('routes', () => {
  it('shows the 404 page for an unknown path, and Go Home leads to the home page', async () => {
    stubFetch(() => jsonResponse(200, { status: 'ok', database: 'pglite', version: '0.1.0' }));
    const router = renderAt('/this/does/not/exist');

    expect(await screen.findByRole('heading', { level: 1, name: 'Page Not Found' })).toBeInTheDocument();
    expect(
      screen.getByText("The page you're looking for doesn't exist or has been moved."),
    ).toBeInTheDocument();

    await userEvent.click(screen.getByRole('link', { name: 'Go Home' }));

    expect(
      await screen.findByRole('heading', { level: 1, name: 'Turn every course run into insight' }),
    ).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
  });

  it('renders the home page inside the page landmarks, without server internals', async () => {
    const fetchMock = stubFetch(() =>
      jsonResponse(200, { status: 'ok', database: 'pglite', version: '0.1.0' }),
    );
    renderAt('/');

    expect(
      await screen.findByRole('heading', { level: 1, name: 'Turn every course run into insight' }),
    ).toBeInTheDocument();
    expect(screen.getByRole('banner')).toBeInTheDocument();
    expect(screen.getByRole('main')).toBeInTheDocument();
    expect(screen.getByRole('contentinfo')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /Start free/ })).toHaveAttribute('href', '/signup');
    // A visitor is told nothing about how the server runs (engine, version, health).
    expect(screen.queryByText(/PGlite|PostgreSQL|System status/)).not.toBeInTheDocument();
    expect(fetchMock.mock.calls.some(([url]) => typeof url === 'string' && url.includes('/api/health'))).toBe(
      false,
    );
  });

  it('serves the public chat of an agent at /chat/:id, without the app shell', async () => {
    stubFetch((url) =>
      url.includes('/api/chat/')
        ? jsonResponse(404, { error: 'Chatbot not found', code: 'NOT_FOUND' })
        : jsonResponse(401, { error: 'Not authenticated', code: 'UNAUTHENTICATED' }),
    );
    renderAt('/chat/00000000-0000-4000-8000-000000000000');

    expect(
      await screen.findByRole('heading', { level: 1, name: 'This assistant does not exist' }),
    ).toBeInTheDocument();
    expect(screen.queryByRole('textbox')).not.toBeInTheDocument();
    expect(screen.queryByRole('form')).not.toBeInTheDocument();
    expect(screen.queryByText(/What will appear here/)).not.toBeInTheDocument();
    expect(screen.queryByRole('complementary', { name: 'Sidebar' })).not.toBeInTheDocument();
  });

  it.each([
    ['/login', 'Sign in to CourseLens'],
    ['/signup', 'Create your CourseLens account'],
  ])('serves the identity screen at %s inside the page landmarks', async (path, title) => {
    renderAt(path);

    expect(await screen.findByRole('heading', { level: 1, name: title })).toBeInTheDocument();
    expect(screen.getByRole('main')).toBeInTheDocument();
    expect(screen.getByRole('complementary', { name: 'Sidebar' })).toBeInTheDocument();
  });
});

const me = {
  user: { id: 'u1', name: 'Ada Lovelace', email: 'ada@example.com' },
  organizations: [{ id: 'o1', name: 'Acme', subdomain: 'acme', role: 'owner', isPrimary: true }],
};
const COURSE_ID = '33333333-3333-4333-8333-333333333333';
const course = {
  id: COURSE_ID,
  courseTitle: 'Stored title',
  externalCourseId: 'ext-1',
  description: null,
  broadcastMessage: null,
  learners: 3,
  views: 4,
  lastActivityAt: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
};
const emptyPage = { items: [], total: 0, page: 1, pageSize: 25 };

const pathOf = (url: string) => new URL(url, 'http://x').pathname;

// These use the app's own query client: its freshness window is what lets a
// page read a prefetched answer instead of asking again.
describe('route loaders', () => {
  afterEach(() => selectOrganization(null));

  it('a course page asks for the course and its tab together, before its code has arrived, once each', async () => {
    window.localStorage.setItem(SESSION_TOKEN_KEY, 'token-1');
    const answers = new Map<string, (response: Response) => void>();
    const fetchMock = stubFetch((url) => {
      const path = pathOf(url);
      if (path === '/api/me') return jsonResponse(200, me);
      // Everything else waits until the test answers it.
      return new Promise<Response>((resolve) => answers.set(path, resolve));
    });
    const coursePath = `/api/courses/${COURSE_ID}`;
    const learnersPath = `/api/courses/${COURSE_ID}/learners`;

    const { queryClient } = renderAt(paths.courses.learners.href(COURSE_ID), createQueryClient());

    // Both requests are out at once, while neither has an answer and the page's code is still loading.
    await waitFor(() =>
      expect([...answers.keys()]).toEqual(expect.arrayContaining([coursePath, learnersPath])),
    );
    expect(screen.queryByTestId('course-page')).not.toBeInTheDocument();
    // Under the keys the page's hooks read: the same query options, the list's defaults from the URL.
    const courseKey = courseQueryOptions('o1', COURSE_ID).queryKey;
    const learnersKey = courseLearnersQueryOptions('o1', COURSE_ID, {
      q: '',
      page: 1,
      ...COURSE_LEARNER_LIST_DEFAULTS,
    }).queryKey;
    expect(queryClient.getQueryState(courseKey)?.fetchStatus).toBe('fetching');
    expect(queryClient.getQueryState(learnersKey)?.fetchStatus).toBe('fetching');

    pageCode.open();
    answers.get(coursePath)?.(jsonResponse(200, course));
    answers.get(learnersPath)?.(jsonResponse(200, emptyPage));

    expect(await screen.findByRole('heading', { level: 1, name: 'Stored title' })).toBeInTheDocument();
    expect(await screen.findByText('No learners yet')).toBeInTheDocument();
    // The page's hooks joined the loaders' requests instead of sending their own.
    const requested = fetchedRequests(fetchMock).map(({ url }) => pathOf(url));
    expect(requested.filter((path) => path === coursePath)).toHaveLength(1);
    expect(requested.filter((path) => path === learnersPath)).toHaveLength(1);
  });

  it('a list page prefetches the list its URL asks for, which the page reads without asking again', async () => {
    window.localStorage.setItem(SESSION_TOKEN_KEY, 'token-1');
    const fetchMock = stubFetch((url) => {
      const path = pathOf(url);
      if (path === '/api/me') return jsonResponse(200, me);
      if (path === '/api/variables/courses') return jsonResponse(200, { courses: [] });
      if (path === '/api/variables') return jsonResponse(200, { ...emptyPage, page: 2 });
      return jsonResponse(404, { error: 'Not found', code: 'NOT_FOUND' });
    });

    const { queryClient } = renderAt(
      '/variables?q=rate&status=inactive&sort=learnerCount&order=desc&page=2',
      createQueryClient(),
    );

    expect(await screen.findByRole('heading', { level: 1, name: 'Variables' })).toBeInTheDocument();
    const listKey = variablesQueryOptions('o1', {
      q: 'rate',
      page: 2,
      sort: 'learnerCount',
      order: 'desc',
      courseId: undefined,
      active: false,
    }).queryKey;
    expect(queryClient.getQueryState(listKey)?.status).toBe('success');
    expect(queryClient.getQueryState(variableCoursesQueryOptions('o1').queryKey)?.status).toBe('success');
    const calls = fetchedRequests(fetchMock).map(({ url }) => url);
    expect(calls.filter((url) => pathOf(url) === '/api/variables')).toEqual([
      '/api/variables?q=rate&sort=learnerCount&order=desc&active=false&page=2&pageSize=25',
    ]);
    expect(calls.filter((url) => pathOf(url) === '/api/variables/courses')).toHaveLength(1);
  });

  it('a page shows a refusal its loader received without asking again', async () => {
    const fetchMock = stubFetch((url) =>
      pathOf(url).startsWith('/api/public-reports/')
        ? jsonResponse(404, { error: 'Report not found', code: 'NOT_FOUND' })
        : jsonResponse(401, { error: 'Not authenticated', code: 'UNAUTHENTICATED' }),
    );

    renderAt(paths.customReports.public.href('t'.repeat(43)), createQueryClient());

    expect(
      await screen.findByRole('heading', { level: 1, name: 'This report is not available' }),
    ).toBeInTheDocument();
    const asked = fetchedRequests(fetchMock).filter(({ url }) =>
      pathOf(url).startsWith('/api/public-reports/'),
    );
    expect(asked).toHaveLength(1);
  });
});

/** The loader a path's route runs, found in the app's route table as the router would. */
function loaderAt(routes: RouteObject[], path: string): LoaderFunction {
  for (const route of routes) {
    if (route.path === path && typeof route.loader === 'function') return route.loader;
    const inner = route.children ? loaderOrNull(route.children, path) : null;
    if (inner) return inner;
  }
  throw new Error(`no loader at ${path}`);
}
function loaderOrNull(routes: RouteObject[], path: string): LoaderFunction | null {
  try {
    return loaderAt(routes, path);
  } catch {
    return null;
  }
}

const loaderArgs = (href: string) => ({
  request: new Request(`http://localhost${href}`),
  url: new URL(`http://localhost${href}`),
  pattern: '',
  params: {},
  context: undefined,
});

/** The queries a loader left in the cache, besides the session it read. */
function startedKeys(queryClient: ReturnType<typeof createTestQueryClient>) {
  return queryClient
    .getQueryCache()
    .getAll()
    .map((query) => query.queryKey)
    .filter((key) => JSON.stringify(key) !== JSON.stringify(sessionQueryKey));
}

// The settings page's tabs come from several features: the app's loader
// picks the open tab's prefetch, and each feature's prefetch knows whether
// the person's role may read its list.
describe('the organization settings and team sign-up loaders', () => {
  afterEach(() => selectOrganization(null));

  function signedInAs(role: 'owner' | 'team_member') {
    window.localStorage.setItem(SESSION_TOKEN_KEY, 'token-1');
    stubFetch((url) =>
      pathOf(url) === '/api/me'
        ? jsonResponse(200, { ...me, organizations: [{ ...me.organizations[0], role }] })
        : // The lists never answer: the test reads what the loader started.
          new Promise<Response>(() => {}),
    );
  }

  it.each([
    ['members', 'team_member', membersQueryOptions('o1').queryKey],
    ['invitations', 'owner', invitationsQueryOptions('o1').queryKey],
    ['api-keys', 'owner', apiKeysQueryOptions('o1').queryKey],
    ['jobs', 'owner', failedJobsQueryOptions('o1').queryKey],
  ] as const)('the %s tab’s list starts for a %s', async (tab, role, key) => {
    signedInAs(role);
    const queryClient = createTestQueryClient();
    const loader = loaderAt(createRoutes(queryClient), paths.organization.settings.path);

    expect(await loader(loaderArgs(`/organization/settings?tab=${tab}`))).toBeNull();

    expect(startedKeys(queryClient)).toEqual([key]);
    expect(queryClient.getQueryState(key)?.fetchStatus).toBe('fetching');
  });

  it.each(['invitations', 'api-keys', 'jobs', 'general'])(
    'nothing starts on the %s tab for a member (an owner-only tab says why instead)',
    async (tab) => {
      signedInAs('team_member');
      const queryClient = createTestQueryClient();
      const loader = loaderAt(createRoutes(queryClient), paths.organization.settings.path);

      expect(await loader(loaderArgs(`/organization/settings?tab=${tab}`))).toBeNull();

      expect(startedKeys(queryClient)).toEqual([]);
    },
  );

  it('the invitation of a team sign-up link starts without a session', async () => {
    stubFetch(() => new Promise<Response>(() => {}));
    const queryClient = createTestQueryClient();
    const loader = loaderAt(createRoutes(queryClient), paths.auth.teamSignup.path);

    expect(await loader(loaderArgs('/team-signup?token=abc'))).toBeNull();

    const key = invitationPreviewQueryOptions('abc').queryKey;
    expect(startedKeys(queryClient)).toEqual([key]);
    expect(queryClient.getQueryState(key)?.fetchStatus).toBe('fetching');
  });
});
