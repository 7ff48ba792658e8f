import type {
  CustomReportDraft,
  ListCustomReportsResponse,
  PublicReportResponse,
  ReportCatalog,
} from '@courselens/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';

import { sessionQueryKey } from '@/lib/auth';
import { createTestQueryClient, jsonResponse, renderWithQueryClient, stubFetch } from '@/testing/test-utils';

import { CustomReportsPage } from './custom-reports-page';
import { PublicReportPage } from './public-report-page';
import { formValuesFromDraft, ReportBuilder } from './report-builder';
import { SharePanel } from './share-panel';

vi.mock('@/lib/toast', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));

const me = {
  user: { id: 'u1', name: 'Ada Lovelace', email: 'ada@example.com' },
  organizations: [{ id: 'o1', name: 'Acme', subdomain: 'acme', role: 'owner', isPrimary: true }],
};

const SAFETY = '33333333-3333-4333-8333-333333333333';
const SCORE = '11111111-1111-4111-8111-111111111111';
const PASSED = '22222222-2222-4222-8222-222222222222';
const Q3 = '44444444-4444-4444-8444-444444444444';

const catalog: ReportCatalog = {
  courses: [{ id: SAFETY, courseTitle: 'Workplace Safety' }],
  variables: [
    {
      id: SCORE,
      name: 'final_score',
      title: 'Final score',
      dataType: 'number',
      courseId: SAFETY,
      courseTitle: 'Workplace Safety',
    },
    {
      id: PASSED,
      name: 'passed',
      title: 'Passed',
      dataType: 'boolean',
      courseId: SAFETY,
      courseTitle: 'Workplace Safety',
    },
  ],
  questions: [
    {
      id: Q3,
      courseId: SAFETY,
      courseTitle: 'Workplace Safety',
      slideNumber: 6,
      questionNumber: 3,
      questionText: 'Breaks?',
    },
  ],
};

beforeEach(() => {
  vi.clearAllMocks();
});

describe('ReportBuilder', () => {
  function renderBuilder(draft: CustomReportDraft | null) {
    const onSubmit = vi.fn<(values: CustomReportDraft) => Promise<void>>(() => Promise.resolve());
    renderWithQueryClient(
      <ReportBuilder
        defaultValues={formValuesFromDraft(draft)}
        catalog={catalog}
        submitLabel="Create report"
        onSubmit={onSubmit}
        onCancel={vi.fn()}
      />,
    );
    return onSubmit;
  }

  it('reorders items with the keyboard-accessible move buttons and saves that order', async () => {
    const user = userEvent.setup();
    const onSubmit = renderBuilder({
      name: 'Safety',
      description: null,
      reportType: 'bar',
      config: { periodDays: null, limit: null },
      items: [
        { kind: 'variable', variableId: SCORE, displayName: null, comparisonType: 'by_learner' },
        { kind: 'question', questionId: Q3, displayName: null, comparisonType: 'by_course' },
      ],
    });
    const rows = () => screen.getAllByTestId('report-item').map((row) => row.textContent);
    expect(rows()[0]).toContain('Final score');
    expect(screen.getByRole('button', { name: 'Move Final score up' })).toBeDisabled();

    await user.click(screen.getByRole('button', { name: 'Move Final score down' }));
    expect(rows()[0]).toContain('Slide 6 · Question 3: Breaks?');
    expect(rows()[1]).toContain('Final score');
    expect(screen.getByText(/Final score moved to position 2 of 2/)).toBeInTheDocument();

    await user.type(screen.getByRole('textbox', { name: 'Display name of Final score' }), 'Score');
    await user.click(screen.getByRole('button', { name: 'Create report' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    expect(onSubmit.mock.calls[0]?.[0].items).toEqual([
      { kind: 'question', questionId: Q3, displayName: null, comparisonType: 'by_course' },
      { kind: 'variable', variableId: SCORE, displayName: 'Score', comparisonType: 'by_learner' },
    ]);
  });

  it('adds a variable and a question by identifier, and refuses an empty name', async () => {
    const user = userEvent.setup();
    const onSubmit = renderBuilder(null);
    await user.selectOptions(screen.getByRole('combobox', { name: 'Variable to add' }), PASSED);
    await user.click(screen.getByRole('button', { name: 'Add variable' }));
    await user.click(screen.getByRole('radio', { name: 'By course, slide and number' }));
    await user.selectOptions(screen.getByRole('combobox', { name: 'Course of the question' }), SAFETY);
    await user.click(screen.getByRole('button', { name: 'Add question' }));
    expect(screen.getByRole('alert')).toHaveTextContent(
      'Give a slide number, a question number or the question text',
    );
    await user.type(screen.getByRole('textbox', { name: 'Question number' }), '3');
    await user.click(screen.getByRole('button', { name: 'Add question' }));
    expect(screen.getAllByTestId('report-item')).toHaveLength(2);

    await user.click(screen.getByRole('button', { name: 'Create report' }));
    expect(await screen.findByText('Report name is required')).toBeInTheDocument();
    expect(onSubmit).not.toHaveBeenCalled();

    await user.type(screen.getByRole('textbox', { name: 'Name' }), 'Pass rates');
    await user.click(screen.getByRole('button', { name: 'Create report' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    expect(onSubmit.mock.calls[0]?.[0]).toMatchObject({
      name: 'Pass rates',
      items: [
        { kind: 'variable', variableId: PASSED },
        { kind: 'identifier', courseId: SAFETY, slideNumber: null, questionNumber: 3, questionText: null },
      ],
    });
  });
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
          id: SCORE,
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
    await waitFor(() => expect(deleted).toEqual([`/api/custom-reports/${SCORE}`]));
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

  it('shows the shared report with its numbers as a table', async () => {
    const body: PublicReportResponse = {
      report: {
        name: 'Shared scores',
        description: 'For the team',
        reportType: 'table',
        config: { periodDays: null, limit: null },
        items: [{ id: 'i1', kind: 'variable', title: 'Score', comparisonType: 'by_learner' }],
        updatedAt: '2026-01-01T00:00:00.000Z',
      },
      data: {
        generatedAt: '2026-01-02T00:00:00.000Z',
        since: null,
        items: [
          {
            itemId: 'i1',
            kind: 'variable',
            title: 'Score',
            comparisonType: 'by_learner',
            courseTitle: 'Workplace Safety',
            dataType: 'number',
            available: true,
            totals: { count: 2, learners: 2, mean: 80, min: 70, max: 90, rate: null, points: null },
            rows: [
              {
                key: 'l1',
                label: 'Ann',
                count: 1,
                learners: 1,
                mean: 90,
                min: 90,
                max: 90,
                rate: null,
                points: null,
                value: '90',
              },
              {
                key: 'l2',
                label: 'Bob',
                count: 1,
                learners: 1,
                mean: 70,
                min: 70,
                max: 70,
                rate: null,
                points: null,
                value: '70',
              },
            ],
            truncated: false,
          },
        ],
      },
    };
    stubFetch(() => jsonResponse(200, body));
    renderPublic();
    expect(await screen.findByRole('heading', { name: 'Shared scores' })).toBeInTheDocument();
    const table = screen.getByRole('table', { name: /Score/ });
    expect(within(table).getByRole('rowheader', { name: 'Ann' })).toBeInTheDocument();
    expect(within(table).getAllByRole('row')).toHaveLength(3);
    expect(screen.getByTestId('total-Mean')).toHaveTextContent('80');
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
