import type { DashboardResponse } from '@courselens/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';

import { sessionQueryKey } from '@/lib/auth';
import { testAnalyticsBasis } from '@/testing/analytics-basis';
import { createTestQueryClient, jsonResponse, renderWithQueryClient, stubFetch } from '@/testing/test-utils';

import { DashboardPage } from './dashboard-page';
import { parsePeriod } from './parse-period';
import { testEventCommand, trackerSnippet } from './getting-started';

vi.mock('@/lib/toast', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));

const me = {
  user: { id: 'u1', name: 'Ada Lovelace', email: 'ada@example.com' },
  organizations: [{ id: 'o1', name: 'Acme Learning', subdomain: 'acme', role: 'owner', isPrimary: true }],
};

function dashboard(days: number, overrides: Partial<DashboardResponse> = {}): DashboardResponse {
  return {
    period: { days, from: '2026-03-04', to: '2026-03-10' },
    totals: {
      learners: 12_345,
      courses: 5,
      courseRuns: 34_567,
      responses: 120_000,
      activeLearners7d: 321,
      activeLearners30d: 2_345,
    },
    inPeriod: { newLearners: 42, courseRuns: 700 + days, responses: 900 },
    runsOverTime: Array.from({ length: days }, (_, index) => ({
      date: `2026-02-${String(index + 1).padStart(2, '0')}`,
      runs: index,
    })).slice(0, Math.min(days, 28)),
    topCourses: [
      { id: 'c1', title: 'Workplace Safety', externalCourseId: 'safety', runs: 500, learners: 320 },
      { id: 'c2', title: 'Data Privacy', externalCourseId: 'privacy', runs: 250, learners: 200 },
    ],
    hardestQuestions: [
      {
        id: 'q1',
        courseId: 'c1',
        courseTitle: 'Workplace Safety',
        questionText: 'Which extinguisher for electrical fires?',
        interactionId: 'Slide3_MultiChoice_1',
        slideNumber: 3,
        questionNumber: 1,
        responses: 40,
        correctResponses: 13,
        correctRate: 0.325,
      },
    ],
    minResponses: 5,
    recentActivity: [
      {
        id: 'a1',
        kind: 'api_key.created',
        label: 'API key created',
        summary: 'API key “Course player” created',
        subjectType: 'api_key',
        subjectId: 'k1',
        details: {},
        createdAt: new Date(Date.now() - 3 * 3_600_000).toISOString(),
        actor: { id: 'u1', name: 'Ada Lovelace', email: 'ada@example.com' },
      },
    ],
    isEmpty: false,
    pendingFacts: 0,
    basis: testAnalyticsBasis(),
    ...overrides,
  };
}

function LocationProbe() {
  const location = useLocation();
  return <p data-testid="location">{`${location.pathname}${location.search}`}</p>;
}

function renderPage(entry = '/dashboard', role: 'owner' | 'team_member' = 'owner') {
  const queryClient = createTestQueryClient();
  queryClient.setQueryData(sessionQueryKey, {
    ...me,
    organizations: me.organizations.map((organization) => ({ ...organization, role })),
  });
  return renderWithQueryClient(
    <MemoryRouter initialEntries={[entry]}>
      <Routes>
        <Route
          path="/dashboard"
          element={
            <>
              <DashboardPage />
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

describe('DashboardPage', () => {
  it('shows the figures, the chart, top courses, hardest questions and recent activity', async () => {
    const fetchMock = stubFetch((url) =>
      jsonResponse(200, dashboard(Number(new URL(url, 'http://x').searchParams.get('days')))),
    );
    renderPage();
    expect(await screen.findByTestId('stat-learners')).toHaveTextContent('12,345');
    expect(screen.getByTestId('stat-learners')).toHaveTextContent('42 new in the last 30 days');
    expect(screen.getByTestId('stat-course-runs')).toHaveTextContent('34,567');
    expect(screen.getByTestId('stat-active-7')).toHaveTextContent('321');
    expect(screen.getByTestId('stat-active-30')).toHaveTextContent('2,345');
    expect(screen.getByRole('img', { name: /Course runs per day: 28 bars/ })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Workplace Safety' })).toHaveAttribute(
      'href',
      '/course/c1/learners',
    );
    expect(screen.getByText('Which extinguisher for electrical fires?')).toBeInTheDocument();
    expect(screen.getByText('33%')).toBeInTheDocument();
    expect(screen.getByText('API key “Course player” created').nextElementSibling).toHaveTextContent(
      'API key created · Ada Lovelace · 3 hours ago',
    );
    expect(fetchMock.mock.calls[0]?.[0]).toBe('/api/dashboard?days=30');
    expect(screen.queryByText(/new records: these figures update/)).not.toBeInTheDocument();
  });

  it('says when new records are still being counted, and nothing when the figures are current', async () => {
    stubFetch(() => jsonResponse(200, dashboard(30, { pendingFacts: 1234 })));
    renderPage();
    expect(
      await screen.findByText('Processing 1,234 new records: these figures update in a few seconds.'),
    ).toBeInTheDocument();
  });

  it('switches the period in the URL and asks for it', async () => {
    const fetchMock = stubFetch((url) =>
      jsonResponse(200, dashboard(Number(new URL(url, 'http://x').searchParams.get('days')))),
    );
    renderPage();
    const period = await screen.findByRole('group', { name: 'Period' });
    expect(within(period).getByRole('button', { name: '30 days' })).toHaveAttribute('aria-pressed', 'true');
    await userEvent.click(within(period).getByRole('button', { name: '7 days' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/dashboard?days=7'));
    await waitFor(() => expect(screen.getByTestId('stat-learners')).toHaveTextContent('in the last 7 days'));
    expect(fetchMock.mock.calls.map((call) => call[0])).toContain('/api/dashboard?days=7');
    expect(within(period).getByRole('button', { name: '7 days' })).toHaveAttribute('aria-pressed', 'true');
    await userEvent.click(within(period).getByRole('button', { name: '30 days' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/dashboard$/));
  });

  it('reads the period from the URL', async () => {
    const fetchMock = stubFetch(() => jsonResponse(200, dashboard(90)));
    renderPage('/dashboard?days=90');
    await screen.findByTestId('stat-learners');
    expect(fetchMock.mock.calls[0]?.[0]).toBe('/api/dashboard?days=90');
    expect(parsePeriod('7')).toBe(7);
    expect(parsePeriod('14')).toBe(30);
    expect(parsePeriod(null)).toBe(30);
  });

  it('shows an empty organization how to get started', async () => {
    stubFetch(() => jsonResponse(200, dashboard(30, { isEmpty: true })));
    renderPage();
    const panel = await screen.findByTestId('getting-started');
    expect(within(panel).getByRole('link', { name: 'Create an API key' })).toHaveAttribute(
      'href',
      '/organization/settings?tab=api-keys',
    );
    expect(within(panel).getByLabelText('Tracker snippet')).toHaveTextContent(
      `<script src="${window.location.origin}/tracker.js"></script>`,
    );
    expect(within(panel).getByLabelText('Test event command')).toHaveTextContent(
      `curl -X POST ${window.location.origin}/api/v1/events`,
    );
    expect(within(panel).getByRole('button', { name: 'Copy tracker snippet' })).toBeInTheDocument();
    expect(screen.queryByRole('group', { name: 'Period' })).not.toBeInTheDocument();
    expect(screen.queryByTestId('stat-learners')).not.toBeInTheDocument();
  });

  it('tells a team member of an empty organization to ask an owner for a key', async () => {
    stubFetch(() => jsonResponse(200, dashboard(30, { isEmpty: true })));
    renderPage('/dashboard', 'team_member');
    const panel = await screen.findByTestId('getting-started');
    expect(within(panel).getByText(/^Only owners can manage API keys: ask an owner/)).toBeInTheDocument();
    expect(within(panel).queryByRole('link', { name: 'Create an API key' })).not.toBeInTheDocument();
    expect(within(panel).getByLabelText('Tracker snippet')).toBeInTheDocument();
  });

  it('shows the error the server sent', async () => {
    stubFetch(() => jsonResponse(500, { error: 'Internal server error', code: 'INTERNAL_ERROR' }));
    renderPage();
    expect(await screen.findByRole('alert')).toHaveTextContent('Internal server error');
  });
});

describe('getting-started snippets', () => {
  it('builds the tracker snippet and a valid JSON body for the test event', () => {
    expect(trackerSnippet('https://app.example.com')).toContain(
      "CourseLens.init({\n    endpoint: 'https://app.example.com',",
    );
    const command = testEventCommand('https://app.example.com', 'test-1');
    const body = /-d '(.*)'$/m.exec(command)?.[1] ?? '';
    expect(JSON.parse(body)).toEqual({
      events: [
        {
          id: 'test-1',
          type: 'course.started',
          course: { externalCourseId: 'onboarding-101', title: 'Onboarding 101' },
          learner: { email: 'learner@example.com', name: 'Ada Learner' },
        },
      ],
    });
  });
});
