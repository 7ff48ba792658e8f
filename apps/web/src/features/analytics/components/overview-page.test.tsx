import type { AnalyticsInsight, AnalyticsOverviewResponse, OverviewFigure } from '@courselens/contracts';
import { figureChange } from '@courselens/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';

import { sessionQueryKey } from '@/lib/auth';
import { testAnalyticsBasis } from '@/testing/analytics-basis';
import { createTestQueryClient, jsonResponse, renderWithQueryClient, stubFetch } from '@/testing/test-utils';

import { parseOverviewPeriod } from '../api/get-analytics-overview';
import { AnalyticsOverviewPage, formatChange, formatFigure } from './overview-page';

vi.mock('@/lib/toast', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));

const me = {
  user: { id: 'u1', name: 'Ada Lovelace', email: 'ada@example.com' },
  organizations: [{ id: 'o1', name: 'Acme Learning', subdomain: 'acme', role: 'owner', isPrimary: true }],
};

const figure = (value: number | null, previous: number | null, sample?: number): OverviewFigure => ({
  value,
  previous,
  change: figureChange(value, previous),
  ...(sample === undefined ? {} : { sample, previousSample: 10 }),
});

export function buildInsight(overrides: Partial<AnalyticsInsight> = {}): AnalyticsInsight {
  return {
    id: 'i1',
    kind: 'drop_off_slide',
    severity: 'warning',
    title: 'Most learners who leave Safety stop at slide 3 “Gear”',
    body: '15 unfinished runs of 24 last viewed slide 3.',
    evidence: [
      { label: 'Slide', value: '3 of 5' },
      { label: 'Stopped here', value: '15' },
    ],
    link: '/analytics/learning-paths?courseId=c1',
    linkLabel: 'See where learners exit',
    score: 219,
    courseId: 'c1',
    courseTitle: 'Safety',
    computedAt: new Date(Date.now() - 3_600_000).toISOString(),
    dismissedAt: null,
    ...overrides,
  };
}

function overview(
  from = '2026-10-26',
  to = '2026-11-24',
  overrides: Partial<AnalyticsOverviewResponse> = {},
) {
  const days = Math.round((Date.parse(to) - Date.parse(from)) / 86_400_000) + 1;
  return {
    period: { from, to, days },
    previousPeriod: { from: '2026-09-26', to: '2026-10-25', days },
    today: '2026-11-24',
    figures: {
      activeLearners: figure(1_250, 1_000),
      runsStarted: figure(3_000, 0),
      completionRate: figure(0.55, 0.5, 3_000),
      passRate: figure(0.6, 0.75, 1_200),
      averageScore: figure(72.4, 72.4, 1_200),
      answers: figure(9_000, 8_000),
      correctRate: figure(0.7, null, 8_000),
    },
    trend: Array.from({ length: days }, (_, index) => ({
      day: new Date(Date.parse(from) + index * 86_400_000).toISOString().slice(0, 10),
      activeLearners: 40 + index,
      runsStarted: 100,
      completedRuns: 55,
      gradedRuns: 40,
      passedRuns: 24,
      averageScore: 72,
      answers: 300,
      gradedAnswers: 280,
      correctAnswers: 196,
    })),
    topInsights: [
      buildInsight(),
      buildInsight({ id: 'i2', severity: 'critical', title: 'Answer key of q4 may be wrong' }),
    ],
    openInsights: 5,
    basis: testAnalyticsBasis({ timeZone: 'Europe/Berlin', excludedLearners: 2 }),
    ...overrides,
  } satisfies AnalyticsOverviewResponse;
}

function LocationProbe() {
  const location = useLocation();
  return <p data-testid="location">{`${location.pathname}${location.search}`}</p>;
}

function renderPage(entry = '/analytics') {
  const queryClient = createTestQueryClient();
  queryClient.setQueryData(sessionQueryKey, me);
  return renderWithQueryClient(
    <MemoryRouter initialEntries={[entry]}>
      <Routes>
        <Route
          path="/analytics"
          element={
            <>
              <AnalyticsOverviewPage />
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

describe('AnalyticsOverviewPage', () => {
  it('shows each key figure with its change, the top insights and the sections', async () => {
    const fetchMock = stubFetch(() => jsonResponse(200, overview()));
    renderPage();
    const active = await screen.findByTestId('overview-figure-activeLearners');
    expect(active).toHaveTextContent('1,250');
    expect(active).toHaveTextContent('+250 (+25.0%)');
    expect(within(active).getByText(/up \+250 \(\+25\.0%\) from 1,000/)).toHaveClass('sr-only');
    // From nothing: the absolute change, and n/a for the percentage.
    expect(screen.getByTestId('overview-figure-runsStarted')).toHaveTextContent('+3,000 (n/a)');
    expect(screen.getByTestId('overview-figure-completionRate')).toHaveTextContent('55%');
    expect(screen.getByTestId('overview-figure-completionRate')).toHaveTextContent('+5.0 pts (+10.0%)');
    expect(screen.getByTestId('overview-figure-passRate')).toHaveTextContent('−15.0 pts (−20.0%)');
    expect(screen.getByTestId('overview-figure-averageScore')).toHaveTextContent('±0.0 (±0.0%)');
    expect(screen.getByTestId('overview-figure-correctRate')).toHaveTextContent('n/a');
    expect(screen.getByTestId('overview-figure-correctRate')).toHaveTextContent(
      'no previous value to compare with',
    );

    const insights = screen.getByRole('region', { name: 'Top insights' });
    expect(within(insights).getAllByTestId('insight-card')).toHaveLength(2);
    expect(within(insights).getAllByRole('link', { name: 'See where learners exit' })[0]).toHaveAttribute(
      'href',
      '/analytics/learning-paths?courseId=c1',
    );
    expect(within(insights).getByRole('link', { name: /See all insights \(5\)/ })).toHaveAttribute(
      'href',
      '/analytics/insights',
    );
    const sections = screen.getByRole('navigation', { name: 'Explore analytics' });
    expect(within(sections).getByRole('link', { name: /Funnels/ })).toHaveAttribute(
      'href',
      '/analytics/funnels',
    );
    expect(screen.getByTestId('analytics-basis')).toHaveTextContent('Times in Europe/Berlin');
    expect(screen.getByTestId('analytics-basis')).toHaveTextContent('2 test accounts left out');
    expect(fetchMock.mock.calls[0]?.[0]).toBe('/api/analytics/overview');
  });

  it('switches the period in the URL: presets from the organization’s today, or custom days', async () => {
    const fetchMock = stubFetch((url) => {
      const params = new URL(url, 'http://x').searchParams;
      return jsonResponse(200, overview(params.get('from') ?? undefined, params.get('to') ?? undefined));
    });
    renderPage();
    const period = await screen.findByRole('group', { name: 'Period' });
    expect(within(period).getByRole('button', { name: '30 days' })).toHaveAttribute('aria-pressed', 'true');
    await userEvent.click(within(period).getByRole('button', { name: '7 days' }));
    await waitFor(() =>
      expect(screen.getByTestId('location')).toHaveTextContent('/analytics?from=2026-11-18&to=2026-11-24'),
    );
    expect(fetchMock.mock.calls.map((call) => call[0])).toContain(
      '/api/analytics/overview?from=2026-11-18&to=2026-11-24',
    );

    await userEvent.click(within(period).getByRole('button', { name: 'Custom' }));
    const from = screen.getByLabelText('From');
    const to = screen.getByLabelText('To');
    await userEvent.clear(from);
    await userEvent.type(from, '2026-11-10');
    await userEvent.clear(to);
    await userEvent.type(to, '2026-11-01');
    await userEvent.click(screen.getByRole('button', { name: 'Apply' }));
    expect(screen.getByRole('alert')).toHaveTextContent('The start date must be on or before the end date');
    await userEvent.clear(to);
    await userEvent.type(to, '2026-11-12');
    await userEvent.click(screen.getByRole('button', { name: 'Apply' }));
    await waitFor(() =>
      expect(screen.getByTestId('location')).toHaveTextContent('/analytics?from=2026-11-10&to=2026-11-12'),
    );
  });

  it('says so when there is nothing to show yet, and when loading fails', async () => {
    stubFetch(() => jsonResponse(200, overview(undefined, undefined, { topInsights: [], openInsights: 0 })));
    const { unmount } = renderPage();
    expect(await screen.findByText(/Nothing stands out right now/)).toBeInTheDocument();
    unmount();
    stubFetch(() =>
      jsonResponse(400, { error: 'Choose a period of at most 366 days', code: 'VALIDATION_ERROR' }),
    );
    renderPage('/analytics?from=2020-01-01&to=2026-01-01');
    expect(await screen.findByRole('alert')).toHaveTextContent('Choose a period of at most 366 days');
    await userEvent.click(screen.getByRole('button', { name: 'Show the last 30 days' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/analytics$/));
  });
});

describe('overview formatting', () => {
  it('reads the period from the URL, ignoring malformed days', () => {
    expect(parseOverviewPeriod(new URLSearchParams('from=2026-01-01&to=2026-01-31'))).toEqual({
      from: '2026-01-01',
      to: '2026-01-31',
    });
    expect(parseOverviewPeriod(new URLSearchParams('from=yesterday'))).toEqual({});
  });

  it('formats values and changes in each figure’s unit', () => {
    expect(formatFigure('answers', 12_345)).toBe('12,345');
    expect(formatFigure('passRate', 0.456)).toBe('46%');
    expect(formatFigure('averageScore', 71.25)).toBe('71.3');
    expect(formatFigure('correctRate', null)).toBe('—');
    expect(formatChange('passRate', figure(0.5, 0.4))).toEqual({ absolute: '+10.0 pts', percent: '+25.0%' });
    expect(formatChange('answers', figure(0, 10))).toEqual({ absolute: '−10', percent: '−100.0%' });
    expect(formatChange('answers', figure(5, 0))).toEqual({ absolute: '+5', percent: 'n/a' });
  });
});
