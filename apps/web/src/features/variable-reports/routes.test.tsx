import {
  VARIABLE_COUNT_DEFINITIONS,
  VARIABLE_LEADERS_DEFINITION,
  type ShareSettings,
  type SharedViewContext,
  type VariableChartResponse,
  type VariableLeadersResponse,
  type VariableReportResponse,
  type VariableReportSubject,
} from '@courselens/contracts';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider, useLocation, type RouteObject } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';

import { paths } from '@/config/paths';
import { selectOrganization, sessionQueryKey } from '@/lib/auth';
import { createTestQueryClient, fetchedRequests, jsonResponse, stubFetch } from '@/testing/test-utils';

import { chatbotVariableReportRoutes, sharedVariableReportRoutes } from './routes';

const me = {
  user: { id: 'u1', name: 'Ada Lovelace', email: 'ada@example.com' },
  organizations: [{ id: 'o1', name: 'Acme', subdomain: 'acme', role: 'owner', isPrimary: true }],
};
const BUDDY = '11111111-1111-4111-8111-111111111111';
const SUPPORT = '22222222-2222-4222-8222-222222222222';
const BUDDY_VARIABLE = '33333333-3333-4333-8333-333333333333';
const SUPPORT_VARIABLE = '44444444-4444-4444-8444-444444444444';

const variable: VariableReportSubject = {
  name: 'satisfaction',
  title: 'Satisfaction',
  dataType: 'number',
  courseId: null,
  courses: [
    { id: BUDDY, courseTitle: 'Onboarding buddy', variableId: BUDDY_VARIABLE },
    { id: SUPPORT, courseTitle: 'Support desk', variableId: SUPPORT_VARIABLE },
  ],
};

const report: VariableReportResponse = {
  variable,
  items: [
    {
      learnerId: 'l1',
      learnerName: 'Grace Hopper',
      learnerEmail: 'grace@example.com',
      courseId: SUPPORT,
      courseTitle: 'Support desk',
      variableId: SUPPORT_VARIABLE,
      value: '4',
      valueNumber: 4,
      valueBoolean: null,
      valueDate: null,
      recordedAt: '2026-03-02T10:00:00.000Z',
    },
  ],
  total: 1,
  page: 1,
  pageSize: 25,
  summary: {
    dataType: 'number',
    learners: 1,
    values: 1,
    count: 1,
    definitions: VARIABLE_COUNT_DEFINITIONS,
    distinct: 1,
    mean: 4,
    median: 4,
    min: 4,
    max: 4,
    stddev: null,
    topValues: [],
    trueCount: null,
    falseCount: null,
    trueRate: null,
    earliest: null,
    latest: null,
  },
};

const chart: VariableChartResponse = {
  variable,
  distribution: { kind: 'histogram', bins: [{ from: 1, to: 5, label: '1–5', count: 1 }] },
  trend: { interval: 'day', points: [{ date: '2026-03-02', count: 1, mean: 4, isPartial: false }] },
};

const leaders: VariableLeadersResponse = {
  variable,
  order: 'desc',
  limit: 10,
  definition: VARIABLE_LEADERS_DEFINITION,
  items: [
    {
      rank: 1,
      learnerId: 'l1',
      learnerName: 'Grace Hopper',
      courseTitle: 'Support desk',
      value: '4',
      valueNumber: 4,
      recordedAt: '2026-03-02T10:00:00.000Z',
    },
  ],
};

const notFound = () => jsonResponse(404, { error: 'Variable not found', code: 'NOT_FOUND' });

/** Support desk's sharing of `satisfaction`, switched on. */
const supportShare: ShareSettings = {
  kind: 'chatbot_variable',
  enabled: true,
  token: 'tok_support',
  viewCount: 3,
  courseId: SUPPORT,
  variableName: 'satisfaction',
  questionId: null,
  updatedAt: '2026-03-02T10:00:00.000Z',
};

/**
 * The API of an organization whose agents capture `satisfaction` and nothing
 * else (both agents, or only Support desk with `onlySupport`), and whose
 * agents' variables answer their share settings.
 */
function stubApi({ onlySupport = false } = {}) {
  const subject: VariableReportSubject = onlySupport
    ? { ...variable, courses: variable.courses.filter((agent) => agent.id === SUPPORT) }
    : variable;
  return stubFetch((url, init) => {
    const { pathname, searchParams } = new URL(url, 'http://x');
    if (pathname === `/api/chatbot-variables/${SUPPORT_VARIABLE}/share`) {
      const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as { enabled: boolean }) : null;
      return jsonResponse(200, body ? { ...supportShare, enabled: body.enabled } : supportShare);
    }
    if (pathname === `/api/chatbot-variables/${BUDDY_VARIABLE}/share`) {
      return jsonResponse(200, { ...supportShare, courseId: BUDDY, enabled: false, token: null });
    }
    if (searchParams.get('source') !== 'chatbot' || searchParams.get('name') !== 'satisfaction') {
      return notFound();
    }
    if (pathname === '/api/variable-reports/report')
      return jsonResponse(200, { ...report, variable: subject });
    if (pathname === '/api/variable-reports/chart') return jsonResponse(200, { ...chart, variable: subject });
    if (pathname === '/api/variable-reports/leaders')
      return jsonResponse(200, { ...leaders, variable: subject });
    return notFound();
  });
}

function CurrentLocation() {
  const location = useLocation();
  return <p data-testid="location">{`${location.pathname}${location.search}`}</p>;
}

function renderAt(
  path: string,
  {
    session = me,
    routes = (queryClient) => chatbotVariableReportRoutes(queryClient),
  }: { session?: typeof me | null; routes?: (queryClient: QueryClient) => RouteObject[] } = {},
) {
  const queryClient = createTestQueryClient();
  queryClient.setQueryData(sessionQueryKey, session);
  const router = createMemoryRouter(
    [
      ...routes(queryClient),
      // Another feature's page: the test only needs to see that it was opened.
      { path: paths.variables.aiSummary.path, Component: CurrentLocation },
    ],
    { initialEntries: [path] },
  );
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return router;
}

/** The variable-report requests sent, as `pathname?query`. */
function reportRequests(fetchMock: ReturnType<typeof stubFetch>) {
  return fetchedRequests(fetchMock)
    .map(({ url }) => new URL(url, 'http://x'))
    .filter(({ pathname }) => pathname.startsWith('/api/variable-reports/'));
}

afterEach(() => selectOrganization(null));

describe('the report of a variable custom AI agents capture', () => {
  it('reads the agents’ values and words the page for agents, with links to each agent', async () => {
    const fetchMock = stubApi();
    renderAt(paths.variables.chatbotReport.href('satisfaction'));

    const table = await screen.findByRole('table', { name: 'Latest value of each learner' });
    expect(await within(table).findByText('Grace Hopper')).toBeInTheDocument();
    const sent = reportRequests(fetchMock);
    expect(sent.length).toBeGreaterThan(0);
    for (const url of sent) {
      expect(url.pathname).toBe('/api/variable-reports/report');
      expect(url.searchParams.get('name')).toBe('satisfaction');
      expect(url.searchParams.get('source')).toBe('chatbot');
    }

    // The agents sit where the courses would: the column, the filter, the header.
    expect(within(table).getByRole('columnheader', { name: /Agent/ })).toBeInTheDocument();
    expect(within(table).queryByRole('columnheader', { name: /Course/ })).not.toBeInTheDocument();
    expect(within(table).getByRole('cell', { name: 'Support desk' })).toBeInTheDocument();
    const agentFilter = screen.getByRole('combobox', { name: 'Agent' });
    expect(within(agentFilter).getByRole('option', { name: 'All agents' })).toBeInTheDocument();
    expect(screen.queryByText(/course/i)).not.toBeInTheDocument();

    expect(screen.getByRole('heading', { level: 1, name: 'Satisfaction' })).toBeInTheDocument();
    expect(screen.getByText('Captured by custom AI agents:')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Custom AI Agents' })).toHaveAttribute(
      'href',
      paths.chatbots.list.href(),
    );
    expect(screen.getByRole('link', { name: 'Onboarding buddy' })).toHaveAttribute(
      'href',
      paths.chatbots.edit.href(BUDDY),
    );
    expect(screen.getByRole('link', { name: 'Support desk' })).toHaveAttribute(
      'href',
      paths.chatbots.edit.href(SUPPORT),
    );
    // The summary of the first agent's variable; the tabs stay on the agents' report.
    expect(screen.getByRole('link', { name: 'AI summary' })).toHaveAttribute(
      'href',
      paths.variables.aiSummary.href(BUDDY_VARIABLE, 'chatbot'),
    );
    expect(screen.getByRole('link', { name: 'Leaders' })).toHaveAttribute(
      'href',
      paths.variables.chatbotReport.href('satisfaction', 'leaders'),
    );
    expect(screen.getByRole('button', { name: 'Export CSV' })).toBeInTheDocument();
  });

  it('asks to choose an agent before sharing while several agents capture the variable', async () => {
    const fetchMock = stubApi();
    renderAt(paths.variables.chatbotReport.href('satisfaction'));

    expect(await screen.findByRole('link', { name: 'AI summary' })).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Agent' })).toHaveAccessibleDescription(
      'Choose an agent to share its report',
    );
    expect(screen.queryByRole('button', { name: /Share/ })).not.toBeInTheDocument();
    expect(fetchedRequests(fetchMock).filter(({ url }) => url.includes('/share'))).toEqual([]);
  });

  it('lets an owner share the report of the agent the filter names, with a link to its public page', async () => {
    const user = userEvent.setup();
    const fetchMock = stubApi();
    renderAt(`${paths.variables.chatbotReport.href('satisfaction', 'chart')}?courseId=${SUPPORT}`);

    await user.click(await screen.findByRole('button', { name: 'Share · on' }));
    expect(screen.queryByText('Choose an agent to share its report')).not.toBeInTheDocument();
    const link = new URL(screen.getByLabelText<HTMLInputElement>('Share link').value);
    expect(link.origin).toBe(window.location.origin);
    expect(link.pathname).toBe(paths.shared.chatbotVariable.href('satisfaction', 'chart'));
    expect(Object.fromEntries(link.searchParams)).toEqual({ token: 'tok_support', courseId: SUPPORT });
    expect(screen.getByText('3 views')).toBeInTheDocument();

    await user.click(screen.getByRole('switch', { name: 'Share this agent’s variable' }));
    await waitFor(() =>
      expect(screen.getByRole('switch', { name: 'Share this agent’s variable' })).toHaveAttribute(
        'aria-checked',
        'false',
      ),
    );
    const shareRequests = fetchedRequests(fetchMock).filter(({ url }) => url.includes('/share'));
    expect(shareRequests.map(({ method, url }) => `${method} ${url}`)).toEqual([
      `GET /api/chatbot-variables/${SUPPORT_VARIABLE}/share`,
      `PUT /api/chatbot-variables/${SUPPORT_VARIABLE}/share`,
    ]);
  });

  it('shares the only agent that captures the variable without a filter', async () => {
    const fetchMock = stubApi({ onlySupport: true });
    renderAt(paths.variables.chatbotReport.href('satisfaction'));

    expect(await screen.findByRole('button', { name: 'Share · on' })).toBeInTheDocument();
    expect(screen.queryByText('Choose an agent to share its report')).not.toBeInTheDocument();
    expect(fetchedRequests(fetchMock).map(({ url }) => url)).toContain(
      `/api/chatbot-variables/${SUPPORT_VARIABLE}/share`,
    );
  });

  it('shows a member the sharing state without letting them switch it', async () => {
    const user = userEvent.setup();
    stubApi();
    const member = {
      ...me,
      organizations: me.organizations.map((organization) => ({ ...organization, role: 'team_member' })),
    };
    renderAt(`${paths.variables.chatbotReport.href('satisfaction')}?courseId=${SUPPORT}`, {
      session: member,
    });

    await user.click(await screen.findByRole('button', { name: 'Share · on' }));
    expect(screen.getByRole('switch', { name: 'Share this agent’s variable' })).toBeDisabled();
    expect(screen.getByText('Only owners can share reports and views publicly.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'New link' })).not.toBeInTheDocument();
  });

  it('opens the summary of the agent the filter names', async () => {
    stubApi();
    renderAt(`${paths.variables.chatbotReport.href('satisfaction')}?courseId=${SUPPORT}`);

    expect(await screen.findByRole('link', { name: 'AI summary' })).toHaveAttribute(
      'href',
      paths.variables.aiSummary.href(SUPPORT_VARIABLE, 'chatbot'),
    );
    expect(screen.getByRole('combobox', { name: 'Agent' })).toHaveValue(SUPPORT);
  });

  it('shows the chart of the agents’ values', async () => {
    const fetchMock = stubApi();
    renderAt(paths.variables.chatbotReport.href('satisfaction', 'chart'));

    expect(
      await screen.findByRole('figure', { name: 'Distribution of the latest values' }),
    ).toBeInTheDocument();
    expect(screen.getByRole('figure', { name: 'Values per day' })).toBeInTheDocument();
    const sent = reportRequests(fetchMock);
    expect(sent.map(({ pathname }) => pathname)).toContain('/api/variable-reports/chart');
    for (const url of sent) expect(url.searchParams.get('source')).toBe('chatbot');
  });

  it('ranks the learners with the agent that captured each value', async () => {
    const fetchMock = stubApi();
    renderAt(paths.variables.chatbotReport.href('satisfaction', 'leaders'));

    const table = await screen.findByRole('table', { name: 'Leaders' });
    expect(await within(table).findByText('Grace Hopper')).toBeInTheDocument();
    expect(within(table).getByRole('columnheader', { name: 'Agent' })).toBeInTheDocument();
    expect(within(table).getByRole('cell', { name: 'Support desk' })).toBeInTheDocument();
    const sent = reportRequests(fetchMock);
    expect(sent.map(({ pathname }) => pathname)).toContain('/api/variable-reports/leaders');
    for (const url of sent) expect(url.searchParams.get('source')).toBe('chatbot');
  });

  it('says a name no agent captures is not found, and leads back to the agents', async () => {
    stubApi();
    renderAt(paths.variables.chatbotReport.href('nope'));

    expect(await screen.findByRole('heading', { level: 1, name: 'Variable not found' })).toBeInTheDocument();
    expect(
      screen.getByText('No custom AI agent of your organization captures a variable named “nope”.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to agents' })).toHaveAttribute(
      'href',
      paths.chatbots.list.href(),
    );
  });
});

describe('the AI summary of a variable custom AI agents capture', () => {
  it('opens the summary page of the first agent’s variable', async () => {
    stubApi();
    const router = renderAt(paths.variables.chatbotAiSummary.href('satisfaction'));

    expect(await screen.findByTestId('location')).toHaveTextContent(
      paths.variables.aiSummary.href(BUDDY_VARIABLE, 'chatbot'),
    );
    // Replaced, so going back does not bounce through the redirect again.
    expect(router.state.historyAction).toBe('REPLACE');
  });

  it('opens the summary of the agent `courseId` names', async () => {
    stubApi();
    renderAt(`${paths.variables.chatbotAiSummary.href('satisfaction')}?courseId=${SUPPORT}`);

    expect(await screen.findByTestId('location')).toHaveTextContent(
      paths.variables.aiSummary.href(SUPPORT_VARIABLE, 'chatbot'),
    );
  });

  it('says a name no agent captures is not found', async () => {
    stubApi();
    renderAt(paths.variables.chatbotAiSummary.href('nope'));

    expect(await screen.findByRole('heading', { level: 1, name: 'Variable not found' })).toBeInTheDocument();
    expect(screen.queryByTestId('location')).not.toBeInTheDocument();
  });
});

const SHARED_TOKEN = 'tok_support';

const sharedReport: VariableReportResponse & SharedViewContext = {
  ...report,
  variable: { ...variable, courseId: SUPPORT, courses: [variable.courses[1]!] },
  items: report.items.map(({ learnerEmail: _email, ...row }) => row),
  organization: { name: 'Northwind Training' },
};

/** The public API: Support desk's `satisfaction` is shared with {@link SHARED_TOKEN}, nothing else is. */
function stubSharedApi() {
  return stubFetch((url) => {
    const { pathname, searchParams } = new URL(url, 'http://x');
    const isShared =
      searchParams.get('token') === SHARED_TOKEN &&
      searchParams.get('courseId') === SUPPORT &&
      searchParams.get('name') === 'satisfaction';
    if (isShared && pathname === '/api/shared/chatbot-variables/report')
      return jsonResponse(200, sharedReport);
    return jsonResponse(404, { error: 'This view is not shared', code: 'NOT_FOUND' });
  });
}

const sharedRoutes = (queryClient: QueryClient) => sharedVariableReportRoutes(queryClient);

describe('the shared report of an agent’s variable', () => {
  it('reads the agent’s shared report by token, agent and name, and names the organization sharing it', async () => {
    const fetchMock = stubSharedApi();
    renderAt(
      `${paths.shared.chatbotVariable.href('satisfaction')}?token=${SHARED_TOKEN}&courseId=${SUPPORT}`,
      { session: null, routes: sharedRoutes },
    );

    const table = await screen.findByRole('table', { name: 'Latest value of each learner' });
    expect(await within(table).findByText('Grace Hopper')).toBeInTheDocument();
    expect(screen.getByTestId('shared-by')).toHaveTextContent('Shared by Northwind Training');
    const sent = fetchedRequests(fetchMock).map(({ url }) => new URL(url, 'http://x'));
    expect(sent.length).toBeGreaterThan(0);
    for (const url of sent) {
      expect(url.pathname).toBe('/api/shared/chatbot-variables/report');
      expect(url.searchParams.get('token')).toBe(SHARED_TOKEN);
      expect(url.searchParams.get('courseId')).toBe(SUPPORT);
      expect(url.searchParams.get('name')).toBe('satisfaction');
    }

    // Worded for an agent, which a visitor cannot open; no member controls.
    expect(screen.getByText('Captured by custom AI agent:')).toBeInTheDocument();
    expect(screen.getByText('Support desk', { selector: 'span' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Support desk' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Share|Export/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /AI summary|Custom AI Agents/ })).not.toBeInTheDocument();
    // The tabs stay on the shared pages, with the token and the agent.
    const chartTab = new URL(screen.getByRole('link', { name: 'Chart' }).getAttribute('href')!, 'http://x');
    expect(chartTab.pathname).toBe(paths.shared.chatbotVariable.href('satisfaction', 'chart'));
    expect(Object.fromEntries(chartTab.searchParams)).toEqual({ token: SHARED_TOKEN, courseId: SUPPORT });
  });

  it('keeps the agent in the link when the visitor clears the filters', async () => {
    const user = userEvent.setup();
    stubSharedApi();
    const router = renderAt(
      `${paths.shared.chatbotVariable.href('satisfaction')}?token=${SHARED_TOKEN}&courseId=${SUPPORT}&from=2026-03-01`,
      { session: null, routes: sharedRoutes },
    );

    await screen.findByTestId('shared-by');
    await user.click(screen.getByRole('button', { name: 'Clear' }));
    await waitFor(() => expect(router.state.location.search).not.toContain('from='));
    expect(new URLSearchParams(router.state.location.search).get('courseId')).toBe(SUPPORT);
    expect(
      screen.queryByRole('heading', { level: 1, name: 'This view is not shared' }),
    ).not.toBeInTheDocument();
  });

  it('says "This view is not shared" when the server refuses the link', async () => {
    stubSharedApi();
    renderAt(
      `${paths.shared.chatbotVariable.href('satisfaction', 'report')}?token=gone&courseId=${SUPPORT}`,
      {
        session: null,
        routes: sharedRoutes,
      },
    );

    expect(
      await screen.findByRole('heading', { level: 1, name: 'This view is not shared' }),
    ).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  it('says so without asking when the link names no agent', async () => {
    const fetchMock = stubSharedApi();
    renderAt(`${paths.shared.chatbotVariable.href('satisfaction', 'leaders')}?token=${SHARED_TOKEN}`, {
      session: null,
      routes: sharedRoutes,
    });

    expect(
      await screen.findByRole('heading', { level: 1, name: 'This view is not shared' }),
    ).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
