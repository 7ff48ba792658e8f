import type { CustomReport, PublicReportResponse, ReportData } from '@courselens/contracts';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';

import { sessionQueryKey } from '@/lib/auth';
import {
  createTestQueryClient,
  fetchedRequests,
  jsonResponse,
  renderWithQueryClient,
  stubFetch,
} from '@/testing/test-utils';

import { FOLLOW_UP_MS } from '@/hooks/use-follow-up-while-refreshing';

import { PublicReportPage } from './public-report-page';
import { itemData, result, row } from './report-fixtures';
import { ReportViewPage } from './report-view-page';

vi.mock('@/lib/toast', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));

const REPORT = '11111111-1111-4111-8111-111111111111';
const TOKEN = 'a'.repeat(43);
const EARLIER = '2026-01-02T09:00:00.000Z';
const LATER = '2026-01-02T09:05:00.000Z';

/** Report data whose one item counts `learners`, computed at `generatedAt`. */
function figures(generatedAt: string, learners: number, refreshing: boolean): ReportData {
  return {
    generatedAt,
    refreshing,
    since: null,
    items: [
      itemData({
        itemId: 'i1',
        title: 'Learners',
        chart: 'table',
        result: result('learners', { kind: 'course', variableName: null }, [
          row({ key: 'c1', label: 'Safety', value: learners, learners }),
        ]),
      }),
    ],
  };
}

function publicBody(data: ReportData): PublicReportResponse {
  return {
    organization: { name: 'Northwind Training' },
    report: {
      name: 'Learners per course',
      description: null,
      reportType: 'table',
      config: { periodDays: null, limit: null },
      items: [{ id: 'i1', title: 'Learners', chart: 'table' }],
      updatedAt: EARLIER,
    },
    data,
  };
}

const asOf = (iso: string) =>
  new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'medium' }).format(new Date(iso));

beforeEach(() => {
  vi.clearAllMocks();
});

describe('a report whose newer figures are being computed', () => {
  it('on a shared link, says so, reads the report again once as the same visit, and shows the new figures', async () => {
    const answers = [
      publicBody(figures(EARLIER, 3, true)),
      publicBody(figures(LATER, 4, true)),
      publicBody(figures(LATER, 5, false)),
    ];
    const fetchMock = stubFetch(() => jsonResponse(200, answers.shift()));
    renderWithQueryClient(
      <MemoryRouter initialEntries={[`/public-reports/${TOKEN}`]}>
        <Routes>
          <Route path="/public-reports/:token" element={<PublicReportPage />} />
        </Routes>
      </MemoryRouter>,
    );
    expect(await screen.findByText('New learning data arrived; updating…')).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent(`Figures as of ${asOf(EARLIER)}`);
    // Once newer figures are shown it stops, although even newer ones are on their way.
    expect(
      await screen.findByText(`${asOf(LATER)}`, {}, { timeout: FOLLOW_UP_MS + 2_000 }),
    ).toBeInTheDocument();
    await new Promise((resolve) => setTimeout(resolve, FOLLOW_UP_MS + 500));
    expect(fetchedRequests(fetchMock).map((request) => request.url)).toEqual([
      `/api/public-reports/${TOKEN}`,
      `/api/public-reports/${TOKEN}?followUp=true`,
    ]);
    expect(screen.queryByRole('button', { name: 'Refresh' })).not.toBeInTheDocument();
  }, 15_000);

  it('in the app, Refresh waits for the current figures and shows them', async () => {
    const user = userEvent.setup();
    const queryClient = createTestQueryClient();
    queryClient.setQueryData(sessionQueryKey, {
      user: { id: 'u1', name: 'Ada Lovelace', email: 'ada@example.com' },
      organizations: [{ id: 'o1', name: 'Acme', subdomain: 'acme', role: 'owner', isPrimary: true }],
    });
    const report: CustomReport = {
      id: REPORT,
      name: 'Learners per course',
      description: null,
      reportType: 'table',
      isPublic: false,
      viewCount: 0,
      itemCount: 1,
      createdByName: null,
      createdAt: EARLIER,
      updatedAt: EARLIER,
      config: { periodDays: null, limit: null },
      publicShareToken: null,
      items: [],
    };
    const fetchMock = stubFetch((url) => {
      if (url.endsWith('/data?fresh=true')) return jsonResponse(200, { data: figures(LATER, 7, false) });
      if (url.endsWith('/data')) return jsonResponse(200, { data: figures(EARLIER, 3, false) });
      return jsonResponse(200, report);
    });
    renderWithQueryClient(
      <MemoryRouter initialEntries={[`/custom-reports/view/${REPORT}`]}>
        <Routes>
          <Route path="/custom-reports/view/:id" element={<ReportViewPage />} />
        </Routes>
      </MemoryRouter>,
      { queryClient },
    );
    expect(await screen.findByText(asOf(EARLIER))).toBeInTheDocument();
    expect(screen.queryByText('New learning data arrived; updating…')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Refresh' }));
    expect(await screen.findByText(asOf(LATER))).toBeInTheDocument();
    await waitFor(() =>
      expect(fetchedRequests(fetchMock).map((request) => request.url)).toContain(
        `/api/custom-reports/${REPORT}/data?fresh=true`,
      ),
    );
  });
});
