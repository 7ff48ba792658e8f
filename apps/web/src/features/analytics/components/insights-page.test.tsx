import type { AnalyticsInsight, AnalyticsInsightsResponse } from '@courselens/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';

import { sessionQueryKey } from '@/lib/auth';
import { toast } from '@/lib/toast';
import { testAnalyticsBasis } from '@/testing/analytics-basis';
import {
  createTestQueryClient,
  fetchedRequests,
  jsonResponse,
  renderWithQueryClient,
  stubFetch,
} from '@/testing/test-utils';

import { InsightsPage } from './insights-page';

vi.mock('@/lib/toast', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));

const me = {
  user: { id: 'u1', name: 'Ada Lovelace', email: 'ada@example.com' },
  organizations: [
    { id: 'o1', name: 'Acme Learning', subdomain: 'acme', role: 'team_member', isPrimary: true },
  ],
};

const insight = (overrides: Partial<AnalyticsInsight> = {}): AnalyticsInsight => ({
  id: 'i1',
  kind: 'answer_key',
  severity: 'critical',
  title: 'The answer key of “Which helmet?” in Safety may be wrong',
  body: 'Stronger learners get it wrong more often than weaker ones.',
  evidence: [
    { label: 'Attempts', value: '120' },
    { label: 'Discrimination', value: '−0.31' },
  ],
  link: '/analytics/questions?courseId=c1&questionId=q1',
  linkLabel: 'Open question analysis',
  score: 331,
  courseId: 'c1',
  courseTitle: 'Safety',
  computedAt: new Date(Date.now() - 2 * 3_600_000).toISOString(),
  dismissedAt: null,
  ...overrides,
});

const response = (overrides: Partial<AnalyticsInsightsResponse> = {}): AnalyticsInsightsResponse => ({
  status: 'open',
  insights: [
    insight(),
    insight({
      id: 'i2',
      kind: 'inactive_rising',
      severity: 'info',
      title: '40 learners inactive',
      courseId: null,
      courseTitle: null,
      link: '/learners',
      linkLabel: 'See learners',
    }),
  ],
  counts: { open: 2, dismissed: 1 },
  lastComputedAt: new Date(Date.now() - 2 * 3_600_000).toISOString(),
  digest: { isEmailConfigured: false, schedule: 'Mondays at 08:00 UTC' },
  basis: testAnalyticsBasis(),
  ...overrides,
});

function LocationProbe() {
  const location = useLocation();
  return <p data-testid="location">{`${location.pathname}${location.search}`}</p>;
}

function renderPage(entry = '/analytics/insights') {
  const queryClient = createTestQueryClient();
  queryClient.setQueryData(sessionQueryKey, me);
  return renderWithQueryClient(
    <MemoryRouter initialEntries={[entry]}>
      <Routes>
        <Route
          path="/analytics/insights"
          element={
            <>
              <InsightsPage />
              <LocationProbe />
            </>
          }
        />
      </Routes>
    </MemoryRouter>,
    { queryClient },
  );
}

beforeEach(() => {
  vi.clearAllMocks();
});

describe('InsightsPage', () => {
  it('lists the findings with their evidence and links, and says no digest is sent without SMTP', async () => {
    stubFetch(() => jsonResponse(200, response()));
    renderPage();
    const list = await screen.findByRole('list', { name: 'Open insights' });
    const cards = within(list).getAllByTestId('insight-card');
    expect(cards).toHaveLength(2);
    const first = cards[0]!;
    expect(within(first).getByRole('heading', { level: 2 })).toHaveTextContent('may be wrong');
    expect(first).toHaveTextContent('Critical');
    expect(first).toHaveTextContent('Answer key may be wrong');
    expect(within(first).getByText('Discrimination').nextElementSibling).toHaveTextContent('−0.31');
    expect(within(first).getByRole('link', { name: 'Open question analysis' })).toHaveAttribute(
      'href',
      '/analytics/questions?courseId=c1&questionId=q1',
    );
    const status = screen.getByRole('group', { name: 'Which insights' });
    expect(within(status).getByRole('button', { name: /Open 2/ })).toHaveAttribute('aria-pressed', 'true');
    expect(within(status).getByRole('button', { name: /Dismissed 1/ })).toHaveAttribute(
      'aria-pressed',
      'false',
    );
    expect(screen.getByText('Last checked', { exact: false })).toHaveTextContent('2 hours ago');
    expect(screen.getByTestId('insights-digest')).toHaveTextContent('e-mail is not set up on this server');
  });

  it('dismisses a finding and refetches the lists', async () => {
    const fetchMock = stubFetch((url, init) => {
      if (init?.method === 'POST')
        return jsonResponse(200, insight({ dismissedAt: new Date().toISOString() }));
      return jsonResponse(
        200,
        response({ digest: { isEmailConfigured: true, schedule: 'Mondays at 08:00 UTC' } }),
      );
    });
    renderPage();
    await screen.findByRole('list', { name: 'Open insights' });
    expect(screen.getByTestId('insights-digest')).toHaveTextContent('every week (Mondays at 08:00 UTC)');
    await userEvent.click(screen.getByRole('button', { name: /^Dismiss: The answer key/ }));
    await waitFor(() => expect(toast.success).toHaveBeenCalled());
    const requests = fetchedRequests(fetchMock);
    expect(requests).toContainEqual({ method: 'POST', url: '/api/analytics/insights/i1/dismiss' });
    expect(requests.filter((request) => request.url === '/api/analytics/insights?status=open').length).toBe(
      2,
    );
  });

  it('shows the dismissed findings from the URL, with restore', async () => {
    const fetchMock = stubFetch(() =>
      jsonResponse(
        200,
        response({
          status: 'dismissed',
          insights: [insight({ dismissedAt: new Date(Date.now() - 86_400_000).toISOString() })],
        }),
      ),
    );
    renderPage('/analytics/insights?status=dismissed');
    const list = await screen.findByRole('list', { name: 'Dismissed insights' });
    expect(within(list).getByRole('button', { name: /^Restore: / })).toBeInTheDocument();
    expect(list).toHaveTextContent('Dismissed yesterday');
    expect(fetchMock.mock.calls[0]?.[0]).toBe('/api/analytics/insights?status=dismissed');
    await userEvent.click(screen.getByRole('button', { name: /^Open/ }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/analytics\/insights$/));
  });

  it('refreshes now, and says when the limit is reached', async () => {
    let refreshes = 0;
    stubFetch((url, init) => {
      if (init?.method === 'POST') {
        refreshes += 1;
        return refreshes === 1
          ? jsonResponse(200, response({ insights: [], counts: { open: 0, dismissed: 0 } }))
          : jsonResponse(429, {
              error: 'Too many insight refreshes. Try again in 40 minutes.',
              code: 'RATE_LIMITED',
            });
      }
      return jsonResponse(
        200,
        response({ insights: [], counts: { open: 0, dismissed: 0 }, lastComputedAt: null }),
      );
    });
    renderPage();
    expect(await screen.findByText('No insights yet')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Refresh now' }));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Insights refreshed: nothing stands out'));
    await userEvent.click(screen.getByRole('button', { name: 'Refresh now' }));
    await waitFor(() =>
      expect(toast.error).toHaveBeenCalledWith('Too many insight refreshes. Try again in 40 minutes.'),
    );
  });
});
