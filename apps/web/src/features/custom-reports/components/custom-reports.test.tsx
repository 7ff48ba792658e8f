import {
  METRIC_DEFINITIONS,
  type ListCustomReportsResponse,
  type PublicReportResponse,
} from '@courselens/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';

import { sessionQueryKey } from '@/lib/auth';
import { createTestQueryClient, jsonResponse, renderWithQueryClient, stubFetch } from '@/testing/test-utils';

import { CustomReportsPage } from './custom-reports-page';
import { PublicReportPage } from './public-report-page';
import { itemData, result, row } from './report-fixtures';
import { SharePanel } from './share-panel';

vi.mock('@/lib/toast', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));

const me = {
  user: { id: 'u1', name: 'Ada Lovelace', email: 'ada@example.com' },
  organizations: [{ id: 'o1', name: 'Acme', subdomain: 'acme', role: 'owner', isPrimary: true }],
};

const REPORT = '11111111-1111-4111-8111-111111111111';

beforeEach(() => {
  vi.clearAllMocks();
});

describe('CustomReportsPage', () => {
  function renderList() {
    const queryClient = createTestQueryClient();
    queryClient.setQueryData(sessionQueryKey, me);
    return renderWithQueryClient(
      <MemoryRouter initialEntries={['/custom-reports']}>
        <Routes>
          <Route path="/custom-reports" element={<CustomReportsPage />} />
        </Routes>
      </MemoryRouter>,
      { queryClient },
    );
  }

  it('offers to build or generate a report when there is none', async () => {
    const empty: ListCustomReportsResponse = { items: [], total: 0, page: 1, pageSize: 20 };
    stubFetch(() => jsonResponse(200, empty));
    renderList();
    expect(await screen.findByText('No reports yet')).toBeInTheDocument();
    expect(screen.getAllByRole('link', { name: 'New report' }).length).toBeGreaterThan(0);
    expect(screen.getAllByRole('link', { name: 'Generate from text' }).length).toBeGreaterThan(0);
  });

  it('deletes a report only after the confirmation', async () => {
    const user = userEvent.setup();
    const list: ListCustomReportsResponse = {
      items: [
        {
          id: REPORT,
          name: 'Safety overview',
          description: null,
          reportType: 'bar',
          isPublic: true,
          viewCount: 3,
          itemCount: 2,
          createdByName: 'Ada Lovelace',
          createdAt: '2026-01-01T00:00:00.000Z',
          updatedAt: '2026-01-01T00:00:00.000Z',
        },
      ],
      total: 1,
      page: 1,
      pageSize: 20,
    };
    const deleted: string[] = [];
    stubFetch((url, init) => {
      if (init?.method !== 'DELETE') return jsonResponse(200, list);
      deleted.push(url);
      return new Response(null, { status: 204 });
    });
    renderList();
    expect(await screen.findByText('Public · 3 views')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Delete Safety overview' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete this report?' });
    expect(within(dialog).getByText('Its public link stops working.')).toBeInTheDocument();
    expect(deleted).toEqual([]);
    await user.click(within(dialog).getByRole('button', { name: 'Delete report' }));
    await waitFor(() => expect(deleted).toEqual([`/api/custom-reports/${REPORT}`]));
  });
});

describe('PublicReportPage', () => {
  function renderPublic(token = 'a'.repeat(43)) {
    return renderWithQueryClient(
      <MemoryRouter initialEntries={[`/public-reports/${token}`]}>
        <Routes>
          <Route path="/public-reports/:token" element={<PublicReportPage />} />
        </Routes>
      </MemoryRouter>,
    );
  }

  it('says a link that cannot be a token is not available, without asking the server', async () => {
    const fetchMock = stubFetch(() => jsonResponse(500, {}));
    renderPublic('abc123');
    expect(await screen.findByRole('heading', { name: 'This report is not available' })).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('says the report is not available on a 404', async () => {
    stubFetch(() => jsonResponse(404, { error: 'This report is not available', code: 'NOT_FOUND' }));
    renderPublic();
    expect(await screen.findByRole('heading', { name: 'This report is not available' })).toBeInTheDocument();
  });

  it('shows the shared report with its numbers and what each count means', async () => {
    const body: PublicReportResponse = {
      organization: { name: 'Northwind Training' },
      report: {
        name: 'Shared scores',
        description: 'For the team',
        reportType: 'table',
        config: { periodDays: null, limit: null },
        items: [{ id: 'i1', title: 'Score', chart: 'table' }],
        updatedAt: '2026-01-01T00:00:00.000Z',
      },
      data: {
        generatedAt: '2026-01-02T00:00:00.000Z',
        refreshing: false,
        since: null,
        items: [
          itemData({
            itemId: 'i1',
            title: 'Score',
            chart: 'table',
            result: result(
              'average',
              { kind: 'learner', variableName: null },
              [
                row({ key: 'l1', label: 'Ann', value: 90, detail: '90' }),
                row({ key: 'l2', label: 'Bob', value: 70, detail: '70' }),
              ],
              { total: { value: 80, learners: 2, count: 2 } },
            ),
          }),
        ],
      },
    };
    stubFetch(() => jsonResponse(200, body));
    renderPublic();
    expect(await screen.findByRole('heading', { name: 'Shared scores' })).toBeInTheDocument();
    expect(screen.getByTestId('shared-by')).toHaveTextContent('Shared by Northwind Training');
    const table = screen.getByRole('table', { name: /Score/ });
    expect(within(table).getByRole('rowheader', { name: 'Ann' })).toBeInTheDocument();
    // Header, two learners, the total.
    expect(within(table).getAllByRole('row')).toHaveLength(4);
    expect(screen.getByTestId('fact-measure')).toHaveTextContent('80');
    expect(screen.getAllByRole('button', { name: 'What Learners means' })[0]).toHaveAccessibleDescription(
      METRIC_DEFINITIONS.learners,
    );
  });
});

describe('SharePanel', () => {
  const report = {
    id: '55555555-5555-4555-8555-555555555555',
    name: 'Safety results',
    isPublic: true,
    publicShareToken: 'a'.repeat(43),
    viewCount: 2,
  };

  function renderPanel(role: 'owner' | 'team_member') {
    const queryClient = createTestQueryClient();
    queryClient.setQueryData(sessionQueryKey, {
      ...me,
      organizations: me.organizations.map((organization) => ({ ...organization, role })),
    });
    return renderWithQueryClient(<SharePanel report={report} organizationId="o1" />, { queryClient });
  }

  it('lets an owner switch the link off and replace it', () => {
    stubFetch(() => jsonResponse(200, {}));
    renderPanel('owner');
    expect(screen.getByRole('switch', { name: 'Public link' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Replace link' })).toBeInTheDocument();
  });

  it('shows a team member the link to copy, with the switch disabled and the reason', async () => {
    const fetchMock = stubFetch(() => jsonResponse(200, {}));
    renderPanel('team_member');
    const toggle = screen.getByRole('switch', { name: 'Public link' });
    expect(toggle).toBeDisabled();
    expect(toggle).toHaveAccessibleDescription('Only owners can share reports and views publicly.');
    await userEvent.click(toggle);
    expect(fetchMock).not.toHaveBeenCalled();
    expect(screen.getByRole('textbox', { name: 'Public link' })).toHaveValue(
      `${window.location.origin}/public-reports/${report.publicShareToken}`,
    );
    expect(screen.queryByRole('button', { name: 'Replace link' })).not.toBeInTheDocument();
  });
});
