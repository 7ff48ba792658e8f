import {
  QUESTION_COUNT_DEFINITIONS,
  type QuestionLeadersResponse,
  type QuestionReportResponse,
} from '@courselens/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';

import { sessionQueryKey } from '@/lib/auth';
import { createTestQueryClient, jsonResponse, renderWithQueryClient, stubFetch } from '@/testing/test-utils';

import { QuestionReportPage, SharedQuestionReportPage } from './question-report-pages';

vi.mock('@/lib/toast', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));

const me = {
  user: { id: 'u1', name: 'Ada Lovelace', email: 'ada@example.com' },
  organizations: [{ id: 'o1', name: 'Acme', subdomain: 'acme', role: 'owner', isPrimary: true }],
};
const QUESTION_ID = '11111111-1111-4111-8111-111111111111';
const question = {
  id: QUESTION_ID,
  courseId: '33333333-3333-4333-8333-333333333333',
  courseTitle: 'Workplace safety',
  interactionId: 'Slide1_MultiChoice_1',
  slideNumber: 1,
  questionNumber: 1,
  questionText: 'Which PPE protects your eyes?',
  correctAnswer: 'Goggles',
};
const report: QuestionReportResponse = {
  question,
  items: [
    {
      id: 'a1',
      learnerId: 'l1',
      learnerName: 'Grace Hopper',
      learnerEmail: 'grace@example.com',
      answer: 'Gloves',
      correct: false,
      points: 0,
      answeredAt: '2026-03-02T10:00:00.000Z',
    },
  ],
  total: 1,
  page: 1,
  pageSize: 25,
  totals: {
    responses: 40,
    graded: 40,
    correct: 30,
    correctRate: 0.75,
    points: 300,
    learners: 12,
    definitions: QUESTION_COUNT_DEFINITIONS,
  },
};
const leaders: QuestionLeadersResponse = {
  question,
  limit: 10,
  definition: 'Points: each learner’s best points on the question.',
  items: [
    { rank: 1, learnerId: 'l1', learnerName: 'Grace Hopper', points: 20, responses: 2, correct: 2 },
    { rank: 1, learnerId: 'l2', learnerName: 'Alan Turing', points: 20, responses: 3, correct: 2 },
  ],
};

function renderAt(path: string, signedIn = true) {
  const queryClient = createTestQueryClient();
  queryClient.setQueryData(sessionQueryKey, signedIn ? me : null);
  return renderWithQueryClient(
    <MemoryRouter initialEntries={[path]}>
      <Routes>
        <Route path="/questions/:id/report" element={<QuestionReportPage view="report" />} />
        <Route path="/shared/questions/:id/leaders" element={<SharedQuestionReportPage view="leaders" />} />
        <Route path="/shared/questions/:id/report" element={<SharedQuestionReportPage view="report" />} />
      </Routes>
    </MemoryRouter>,
    { queryClient },
  );
}

/** The URLs fetch was called with, in order. */
function calledUrls(fetchMock: ReturnType<typeof stubFetch>): string[] {
  return fetchMock.mock.calls.map(([input]) =>
    typeof input === 'string' ? input : input instanceof URL ? input.href : input.url,
  );
}

beforeEach(() => {
  vi.clearAllMocks();
});

describe('QuestionReportPage', () => {
  it('shows the totals and the answers, and filters by result through the URL', async () => {
    const fetchMock = stubFetch((url) => {
      if (url.includes('/share')) {
        return jsonResponse(200, {
          kind: 'question',
          enabled: false,
          token: null,
          viewCount: 0,
          courseId: question.courseId,
          variableName: null,
          questionId: QUESTION_ID,
          updatedAt: null,
        });
      }
      return jsonResponse(200, report);
    });
    renderAt(`/questions/${QUESTION_ID}/report`);
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Which PPE protects your eyes?' }),
    ).toBeInTheDocument();
    const totals = screen.getByLabelText('Totals');
    expect(within(totals).getByText('75%')).toBeInTheDocument();
    const table = screen.getByRole('table', { name: 'Answers' });
    expect(within(table).getByText('grace@example.com')).toBeInTheDocument();
    expect(within(table).getByText('Incorrect')).toBeInTheDocument();
    expect(within(table).queryByText('Wrong')).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Chart' })).toHaveAttribute(
      'href',
      `/questions/${QUESTION_ID}/chart`,
    );

    await userEvent.selectOptions(screen.getByLabelText('Result'), 'false');
    await waitFor(() => {
      const last = calledUrls(fetchMock)
        .filter((url) => url.includes('/report?'))
        .at(-1);
      expect(last).toContain(`/api/questions/${QUESTION_ID}/report?`);
      expect(last).toContain('correct=false');
    });
  });
});

describe('SharedQuestionReportPage', () => {
  it('reads the shared leaders with the token, names only, without member controls', async () => {
    const fetchMock = stubFetch(() =>
      jsonResponse(200, { ...leaders, organization: { name: 'Northwind Training' } }),
    );
    renderAt(`/shared/questions/${QUESTION_ID}/leaders?token=tok_123`, false);
    const table = await screen.findByRole('table', { name: 'Leaders by points' });
    expect(await within(table).findAllByText('#1')).toHaveLength(2);
    expect(calledUrls(fetchMock)[0]).toBe(
      `/api/shared/questions/${QUESTION_ID}/leaders?token=tok_123&limit=10`,
    );
    expect(screen.getByTestId('shared-by')).toHaveTextContent('Shared by Northwind Training');
    expect(screen.queryByRole('button', { name: /Share/ })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Report' })).toHaveAttribute(
      'href',
      `/shared/questions/${QUESTION_ID}/report?token=tok_123`,
    );
  });

  it('shows the shared answers with the organization name and no search box', async () => {
    const { learnerEmail: _hidden, ...row } = report.items[0]!;
    stubFetch(() =>
      jsonResponse(200, { ...report, items: [row], organization: { name: 'Northwind Training' } }),
    );
    renderAt(`/shared/questions/${QUESTION_ID}/report?token=tok_123`, false);
    const table = await screen.findByRole('table', { name: 'Answers' });
    expect(await within(table).findByText('Grace Hopper')).toBeInTheDocument();
    expect(screen.getByTestId('shared-by')).toHaveTextContent('Shared by Northwind Training');
    expect(screen.queryByRole('searchbox')).not.toBeInTheDocument();
    expect(screen.queryByText(/e-mail/i)).not.toBeInTheDocument();
    // The result filter stays: it reveals nothing about who the learners are.
    expect(screen.getByLabelText('Result')).toBeInTheDocument();
  });

  it('says "This view is not shared" when the server does not know the link, or there is no token', async () => {
    stubFetch(() => jsonResponse(404, { error: 'This view is not shared', code: 'NOT_FOUND' }));
    renderAt(`/shared/questions/${QUESTION_ID}/leaders?token=gone`, false);
    expect(
      await screen.findByRole('heading', { level: 1, name: 'This view is not shared' }),
    ).toBeInTheDocument();
  });

  it('asks nothing of the server without a token', () => {
    const fetchMock = stubFetch(() => jsonResponse(200, leaders));
    renderAt(`/shared/questions/${QUESTION_ID}/leaders`, false);
    expect(screen.getByRole('heading', { level: 1, name: 'This view is not shared' })).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
