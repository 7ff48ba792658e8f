import type { ShareSettings, SharedViewContext, VariableReportResponse } from '@courselens/contracts';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router';
import { describe, expect, it } from 'vitest';

import { paths } from '@/config/paths';
import { sessionQueryKey } from '@/lib/auth';
import {
  createTestQueryClient,
  fetchedRequests,
  jsonResponse,
  renderWithQueryClient,
  stubFetch,
} from '@/testing/test-utils';

import { CourseVariableReportPage, SharedVariableReportPage } from './variable-report-pages';

const COURSE_ID = '33333333-3333-4333-8333-333333333333';

const sharedReport: VariableReportResponse & SharedViewContext = {
  variable: {
    name: 'final_score',
    title: null,
    dataType: 'number',
    courseId: COURSE_ID,
    courses: [{ id: COURSE_ID, courseTitle: 'Fire safety', variableId: 'v1' }],
  },
  items: [
    {
      learnerId: 'l1',
      learnerName: 'Grace Hopper',
      courseId: COURSE_ID,
      courseTitle: 'Fire safety',
      variableId: 'v1',
      value: '90',
      valueNumber: 90,
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
    definitions: { learners: 'Different learners with a value', values: 'Latest values, one per learner' },
    count: 1,
    distinct: 1,
    mean: 90,
    median: 90,
    min: 90,
    max: 90,
    stddev: null,
    topValues: [],
    trueCount: null,
    falseCount: null,
    trueRate: null,
    earliest: null,
    latest: null,
  },
  organization: { name: 'Northwind Training' },
};

function renderShared() {
  const queryClient = createTestQueryClient();
  queryClient.setQueryData(sessionQueryKey, null);
  return renderWithQueryClient(
    <MemoryRouter
      initialEntries={[`${paths.shared.courseVariable.href(COURSE_ID, 'final_score')}?token=tok_123`]}
    >
      <Routes>
        <Route
          path={paths.shared.courseVariable.path.replace(':view', 'report')}
          element={<SharedVariableReportPage view="report" />}
        />
      </Routes>
    </MemoryRouter>,
    { queryClient },
  );
}

describe('SharedVariableReportPage', () => {
  it('names the organization sharing it and offers no learner search', async () => {
    const fetchMock = stubFetch(() => jsonResponse(200, sharedReport));
    renderShared();

    const table = await screen.findByRole('table', { name: 'Latest value of each learner' });
    expect(await within(table).findByText('Grace Hopper')).toBeInTheDocument();
    expect(screen.getByTestId('shared-by')).toHaveTextContent('Shared by Northwind Training');
    expect(screen.queryByRole('searchbox')).not.toBeInTheDocument();
    expect(screen.queryByText(/e-mail/i)).not.toBeInTheDocument();
    // Nor member controls: history, share, export, AI summary.
    expect(screen.queryByRole('button', { name: /History|Share|Export/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /AI summary/ })).not.toBeInTheDocument();

    const [url] = fetchMock.mock.calls[0]!;
    expect(typeof url).toBe('string');
    const sent = new URL(url as string, 'http://x');
    expect(sent.pathname).toBe('/api/shared/course-variables/report');
    expect(sent.searchParams.has('q')).toBe(false);
  });
});

describe('CourseVariableReportPage', () => {
  it('shares the course’s variable through its own share settings, linking to the shared course page', async () => {
    const user = userEvent.setup();
    const settings: ShareSettings = {
      kind: 'variable',
      enabled: true,
      token: 'tok_course',
      viewCount: 0,
      courseId: COURSE_ID,
      variableName: 'final_score',
      questionId: null,
      updatedAt: null,
    };
    const { organization: _organization, ...report } = sharedReport;
    const fetchMock = stubFetch((url) =>
      jsonResponse(200, new URL(url, 'http://x').pathname.endsWith('/share') ? settings : report),
    );
    const queryClient = createTestQueryClient();
    queryClient.setQueryData(sessionQueryKey, {
      user: { id: 'u1', name: 'Ada Lovelace', email: 'ada@example.com' },
      organizations: [{ id: 'o1', name: 'Acme', subdomain: 'acme', role: 'owner', isPrimary: true }],
    });
    renderWithQueryClient(
      <MemoryRouter initialEntries={[paths.variables.courseReport.href(COURSE_ID, 'final_score', 'report')]}>
        <Routes>
          <Route
            path={paths.variables.courseReport.path.replace(':view', 'report')}
            element={<CourseVariableReportPage view="report" />}
          />
        </Routes>
      </MemoryRouter>,
      { queryClient },
    );

    await user.click(await screen.findByRole('button', { name: 'Share · on' }));
    expect(screen.getByLabelText('Share link')).toHaveValue(
      `${window.location.origin}${paths.shared.courseVariable.href(COURSE_ID, 'final_score', 'report')}?token=tok_course`,
    );
    expect(fetchedRequests(fetchMock).map(({ url }) => url)).toContain('/api/variables/v1/share');
  });
});
