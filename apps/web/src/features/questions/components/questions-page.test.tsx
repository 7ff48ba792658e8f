import type { ListQuestionsResponse, QuestionListItem } from '@courselens/contracts';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';

import { sessionQueryKey } from '@/lib/auth';
import { toast } from '@/lib/toast';
import { createTestQueryClient, jsonResponse, renderWithQueryClient, stubFetch } from '@/testing/test-utils';

import { CorrectRateBar, rateTone } from './correct-rate-bar';
import { CourseQuestionsPage } from './course-questions-page';
import { QuestionsPage } from './questions-page';
import { questionPosition } from './questions-list-view';

vi.mock('@/lib/toast', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));

const me = {
  user: { id: 'u1', name: 'Ada Lovelace', email: 'ada@example.com' },
  organizations: [{ id: 'o1', name: 'Acme', subdomain: 'acme', role: 'owner', isPrimary: true }],
};
const COURSE_ID = '33333333-3333-4333-8333-333333333333';

const ppe: QuestionListItem = {
  id: '11111111-1111-4111-8111-111111111111',
  courseId: COURSE_ID,
  courseTitle: 'Workplace safety',
  interactionId: 'Slide1_MultiChoice_1',
  slideNumber: 1,
  questionNumber: 1,
  questionText: 'Which PPE protects your eyes?',
  correctAnswer: 'Goggles',
  active: true,
  totalResponses: 1200,
  correctResponses: 300,
  uniqueLearnersCount: 900,
  correctRate: 0.25,
  createdAt: '2026-01-01T00:00:00.000Z',
};
const unanswered: QuestionListItem = {
  ...ppe,
  id: '22222222-2222-4222-8222-222222222222',
  interactionId: 'Slide4_TrueFalse_2',
  slideNumber: 4,
  questionNumber: null,
  questionText: 'Is a lead a customer?',
  totalResponses: 0,
  correctResponses: 0,
  uniqueLearnersCount: 0,
  correctRate: null,
};

function listOf(items: QuestionListItem[]): ListQuestionsResponse {
  return {
    items,
    total: items.length,
    page: 1,
    pageSize: 25,
    totals: {
      questions: items.length,
      totalResponses: 1200,
      correctResponses: 300,
      averageLearnersPerQuestion: 450,
      correctRate: 0.25,
    },
  };
}

function renderAt(path: string) {
  const queryClient = createTestQueryClient();
  queryClient.setQueryData(sessionQueryKey, me);
  return renderWithQueryClient(
    <MemoryRouter initialEntries={[path]}>
      <Routes>
        <Route path="/questions" element={<QuestionsPage />} />
        <Route path="/course/:courseId/questions" element={<CourseQuestionsPage />} />
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

describe('CorrectRateBar', () => {
  it('shows the rate as a percentage and a meter, toned by difficulty', () => {
    render(<CorrectRateBar rate={0.256} />);
    const meter = screen.getByRole('meter', { name: 'Correct rate' });
    expect(meter).toHaveAttribute('aria-valuenow', '26');
    expect(screen.getByText('26%')).toBeInTheDocument();
    expect(meter.firstElementChild).toHaveStyle({ width: '26%' });
    expect([rateTone(0), rateTone(0.49), rateTone(0.5), rateTone(0.74), rateTone(0.75), rateTone(1)]).toEqual(
      ['low', 'low', 'medium', 'medium', 'high', 'high'],
    );
  });

  it('says so when nobody answered yet', () => {
    render(<CorrectRateBar rate={null} />);
    expect(screen.getByText('No answers')).toBeInTheDocument();
    expect(screen.queryByRole('meter')).not.toBeInTheDocument();
  });
});

describe('questionPosition', () => {
  it('names the slide and question number it knows', () => {
    expect(questionPosition({ slideNumber: 3, questionNumber: 1 })).toBe('Slide 3 · Q1');
    expect(questionPosition({ slideNumber: 4, questionNumber: null })).toBe('Slide 4');
    expect(questionPosition({ slideNumber: null, questionNumber: null })).toBe('—');
  });
});

describe('QuestionsPage', () => {
  it('shows the totals and each question with responses and correct rate', async () => {
    const fetchMock = stubFetch((url) =>
      url.startsWith('/api/questions/courses')
        ? jsonResponse(200, { courses: [{ id: COURSE_ID, courseTitle: 'Workplace safety', questions: 2 }] })
        : jsonResponse(200, listOf([ppe, unanswered])),
    );
    renderAt('/questions?sort=correctRate&order=asc');

    await screen.findByText('Which PPE protects your eyes?');
    const totals = screen.getByRole('region', { name: 'Totals' });
    expect(within(totals).getByText('Responses').nextSibling).toHaveTextContent('1,200');
    expect(within(totals).getByText('Learners per question').nextSibling).toHaveTextContent('450');
    const table = screen.getByRole('table', { name: 'Questions' });
    const [, first, second] = within(table).getAllByRole('row');
    expect(within(first!).getByText('1,200')).toBeInTheDocument();
    expect(within(first!).getByRole('meter', { name: 'Correct rate' })).toHaveAttribute(
      'aria-valuenow',
      '25',
    );
    expect(within(first!).getByText('Slide 1 · Q1')).toBeInTheDocument();
    expect(within(second!).getByText('No answers')).toBeInTheDocument();

    const listCall = calledUrls(fetchMock).find((url) => url.startsWith('/api/questions?'));
    expect(Object.fromEntries(new URL(listCall!, 'http://x').searchParams)).toEqual({
      sort: 'correctRate',
      order: 'asc',
      page: '1',
      pageSize: '25',
    });
  });

  it('asks for the hidden questions when the filter says so', async () => {
    const fetchMock = stubFetch((url) =>
      url.startsWith('/api/questions/courses')
        ? jsonResponse(200, { courses: [] })
        : jsonResponse(200, listOf([])),
    );
    renderAt('/questions');
    await screen.findByText('No questions yet');
    await userEvent.selectOptions(screen.getByLabelText('Show'), 'Hidden questions');
    expect(await screen.findByText('No hidden questions')).toBeInTheDocument();
    expect(
      calledUrls(fetchMock).some((url) => url.startsWith('/api/questions?') && url.includes('active=false')),
    ).toBe(true);
  });

  it('turns a question off at once and back on when the server refuses', async () => {
    let release: (response: Response) => void = () => {};
    stubFetch((url, init) => {
      if (init?.method === 'PATCH') return new Promise<Response>((resolve) => (release = resolve));
      if (url.startsWith('/api/questions/courses')) return jsonResponse(200, { courses: [] });
      return jsonResponse(200, listOf([ppe]));
    });
    renderAt('/questions');
    const name = 'Active: Which PPE protects your eyes?';
    await userEvent.click(await screen.findByRole('switch', { name }));
    expect(screen.getByRole('switch', { name })).toHaveAttribute('aria-checked', 'false');
    release(jsonResponse(404, { error: 'Question not found', code: 'NOT_FOUND' }));
    await waitFor(() => expect(screen.getByRole('switch', { name })).toHaveAttribute('aria-checked', 'true'));
    expect(toast.error).toHaveBeenCalledWith('Question not found');
  });
});

describe('CourseQuestionsPage', () => {
  // The header (title, tabs) is the course layout's: see app/routes/app/course-layout.test.tsx.
  it("lists the course's questions in slide order, with the export in place", async () => {
    const fetchMock = stubFetch(() =>
      jsonResponse(200, {
        ...listOf([ppe]),
        course: { id: COURSE_ID, courseTitle: 'Workplace safety', externalCourseId: null, description: null },
      }),
    );
    renderAt(`/course/${COURSE_ID}/questions`);
    expect(await screen.findByRole('table', { name: 'Questions' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Export CSV' })).toBeInTheDocument();
    const url = calledUrls(fetchMock)[0]!;
    expect(url).toMatch(new RegExp(`^/api/courses/${COURSE_ID}/questions\\?`));
    expect(new URL(url, 'http://x').searchParams.get('sort')).toBe('slide');
  });
});
