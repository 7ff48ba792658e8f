import type {
  QuestionAnalysisCoursesResponse,
  QuestionAnalysisResponse,
  QuestionStatistics,
} from '@courselens/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';

import { FOLLOW_UP_MS } from '@/hooks/use-follow-up-while-refreshing';
import { sessionQueryKey } from '@/lib/auth';
import { formatDateTimeWithSeconds } from '@/lib/format';
import { createTestQueryClient, jsonResponse, renderWithQueryClient, stubFetch } from '@/testing/test-utils';

import { QuestionAnalysisPage } from './questions-page';
import { sortQuestions } from './questions-table';

const me = {
  user: { id: 'u1', name: 'Ada Lovelace', email: 'ada@example.com' },
  organizations: [{ id: 'o1', name: 'Acme Learning', subdomain: 'acme', role: 'member', isPrimary: true }],
};

const safetyId = '11111111-1111-4111-8111-111111111111';
const onboardingId = '22222222-2222-4222-8222-222222222222';

const courses: QuestionAnalysisCoursesResponse = {
  courses: [
    { id: onboardingId, title: 'Onboarding', questions: 0, hasAnswers: false },
    { id: safetyId, title: 'Safety basics', questions: 2, hasAnswers: true },
  ],
  defaultCourseId: safetyId,
};

function question(overrides: Partial<QuestionStatistics>): QuestionStatistics {
  return {
    questionId: 'q',
    interactionId: 'q',
    slideNumber: 1,
    questionNumber: 1,
    text: 'A question?',
    correctAnswer: 'B',
    attempts: 312,
    answered: 312,
    maxMark: 1,
    meanMark: 0.5,
    facility: 0.5,
    standardDeviation: 0.5,
    randomGuessScore: null,
    randomGuessBasis: null,
    intendedWeight: 0.5,
    effectiveWeight: 0.5,
    discriminationIndex: 0.4,
    discriminativeEfficiency: 0.6,
    flags: [],
    notes: [],
    options: [],
    otherOptions: { distinct: 0, count: 0 },
    ...overrides,
  };
}

const helmet = question({
  questionId: 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa',
  interactionId: 'q-helmet',
  slideNumber: 3,
  text: 'Which helmet protects best?',
  facility: 0.625,
  discriminationIndex: -0.31,
  discriminativeEfficiency: -0.5,
  randomGuessScore: 0.25,
  randomGuessBasis: 'choices_seen',
  flags: [
    { kind: 'answer_key', reason: 'Learners who did better chose “C”, marked wrong (point-biserial 0.35).' },
    { kind: 'negative_discrimination', reason: 'Discrimination −0.31: weaker learners did better.' },
  ],
  notes: ['Random guess score 1/4: assumes the 4 answers seen are all the options.'],
  options: [
    { answer: 'B', isAnswered: true, isCorrect: true, count: 195, share: 0.625, pointBiserial: -0.31 },
    { answer: 'C', isAnswered: true, isCorrect: false, count: 100, share: 0.3205, pointBiserial: 0.35 },
    { answer: null, isAnswered: false, isCorrect: false, count: 17, share: 0.0545, pointBiserial: -0.05 },
  ],
});
const exits = question({
  questionId: 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb',
  interactionId: 'q-exits',
  slideNumber: 5,
  text: 'Where are the fire exits?',
  facility: 0.95,
  discriminationIndex: 0.12,
  flags: [{ kind: 'too_easy', reason: 'Facility 95 % is 90 % or more.' }],
});

const analysis: QuestionAnalysisResponse = {
  course: { id: safetyId, title: 'Safety basics' },
  quiz: {
    attempts: 312,
    questions: 2,
    maxTotal: 2,
    mean: 1.575,
    median: 2,
    standardDeviation: 0.52,
    skewness: -0.84,
    kurtosis: 0.12,
    cronbachAlpha: 0.41,
    errorRatio: 0.768,
    standardError: 0.4,
    notes: [],
  },
  questions: [helmet, exits],
  basis: {
    timeZone: 'Europe/Berlin',
    completion: 'completed',
    excludedLearners: 3,
    computedAt: '2026-03-02T10:00:00.000Z',
    refreshing: false,
    itemAnalysisAttempts: 'first',
    learners: 312,
    runsWithoutAnswers: 0,
    hiddenQuestions: 0,
    from: null,
    to: null,
  },
};

const empty: QuestionAnalysisResponse = {
  ...analysis,
  course: { id: onboardingId, title: 'Onboarding' },
  quiz: {
    ...analysis.quiz,
    attempts: 0,
    questions: 0,
    maxTotal: 0,
    mean: null,
    median: null,
    standardDeviation: null,
    skewness: null,
    kurtosis: null,
    cronbachAlpha: null,
    errorRatio: null,
    standardError: null,
    notes: ['No finished attempts with answers to analyse yet.'],
  },
  questions: [],
  basis: { ...analysis.basis, learners: 0 },
};

function LocationProbe() {
  const location = useLocation();
  return <p data-testid="location">{location.search}</p>;
}

function renderPage(entry = '/analytics/questions') {
  const queryClient = createTestQueryClient();
  queryClient.setQueryData(sessionQueryKey, me);
  return renderWithQueryClient(
    <MemoryRouter initialEntries={[entry]}>
      <Routes>
        <Route
          path="/analytics/questions"
          element={
            <>
              <QuestionAnalysisPage />
              <LocationProbe />
            </>
          }
        />
      </Routes>
    </MemoryRouter>,
    { queryClient },
  );
}

function stubApi(
  byCourse: (courseId: string | null, url: URL) => Response = () => jsonResponse(200, analysis),
) {
  return stubFetch((raw) => {
    const url = new URL(raw, 'http://localhost');
    if (url.pathname === '/api/analytics/questions/courses') return jsonResponse(200, courses);
    if (url.pathname === '/api/analytics/questions') return byCourse(url.searchParams.get('courseId'), url);
    return jsonResponse(404, { error: 'Not found', code: 'NOT_FOUND' });
  });
}

const analysisCalls = (fetchMock: ReturnType<typeof stubFetch>) =>
  fetchMock.mock.calls
    .map((call) => new URL(call[0] as string, 'http://localhost'))
    .filter((url) => url.pathname === '/api/analytics/questions');

beforeEach(() => {
  vi.clearAllMocks();
});

describe('QuestionAnalysisPage', () => {
  it('opens the first course with answers and shows the quiz, the basis and the questions', async () => {
    const fetchMock = stubApi();
    renderPage();
    expect(await screen.findByTestId('question-analysis-basis')).toHaveTextContent(
      'Each learner’s first finished run · 312 attempts · 2 questions',
    );
    expect(analysisCalls(fetchMock)[0]?.searchParams.get('courseId')).toBe(safetyId);
    expect(screen.getByRole('combobox', { name: 'Course' })).toHaveValue('Safety basics');
    expect(screen.getByTestId('analytics-basis')).toHaveTextContent('Times in Europe/Berlin');
    expect(screen.getByTestId('analytics-basis')).toHaveTextContent('3 test accounts left out');

    const summary = screen.getByRole('heading', { name: 'The quiz' }).closest('section') as HTMLElement;
    const figure = (label: string) => within(summary).getByText(label).closest('div');
    expect(figure('Attempts')).toHaveTextContent('312');
    expect(figure('Mean')).toHaveTextContent('1.58');
    expect(figure('Mean')).toHaveTextContent('78.8% of 2');
    expect(figure('Cronbach’s alpha')).toHaveTextContent('0.41');
    expect(figure('Skewness')).toHaveTextContent('−0.84');
    expect(figure('Error ratio')).toHaveTextContent('76.8%');
    // Every statistic says what it means.
    expect(
      within(summary).getByRole('button', { name: 'What Cronbach’s alpha means' }),
    ).toHaveAccessibleDescription(/Internal consistency/);

    const table = screen.getByRole('table', { name: 'Questions with their item statistics' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toHaveTextContent('Slide 3 · Q1');
    expect(rows[0]).toHaveTextContent('Which helmet protects best?');
    expect(rows[0]).toHaveTextContent('62.5%');
    expect(rows[0]).toHaveTextContent('−0.31');
    expect(rows[0]).toHaveTextContent('Answer key may be wrong');
    expect(
      within(rows[0] as HTMLElement).getByRole('button', { name: 'Why “Answer key may be wrong”' }),
    ).toHaveAccessibleDescription(/marked wrong/);
    expect(rows[1]).toHaveTextContent('Too easy');
  });

  it('dates figures of a moment ago while newer ones are computed, reads them again and shows the new ones', async () => {
    const meanwhile: QuestionAnalysisResponse = {
      ...analysis,
      basis: { ...analysis.basis, computedAt: '2026-03-02T09:59:58.000Z', refreshing: true },
    };
    const current: QuestionAnalysisResponse = {
      ...analysis,
      quiz: { ...analysis.quiz, attempts: 313 },
      basis: { ...analysis.basis, learners: 313 },
    };
    let reads = 0;
    const fetchMock = stubApi(() => jsonResponse(200, ++reads === 1 ? meanwhile : current));
    renderPage();
    expect(await screen.findByText('New learning data arrived; updating…')).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent(
      `Figures as of ${formatDateTimeWithSeconds('2026-03-02T09:59:58.000Z')}`,
    );
    const summary = screen.getByRole('heading', { name: 'The quiz' }).closest('section') as HTMLElement;
    expect(within(summary).getByText('Attempts').closest('div')).toHaveTextContent('312');

    await waitFor(
      () => expect(within(summary).getByText('Attempts').closest('div')).toHaveTextContent('313'),
      { timeout: FOLLOW_UP_MS + 2_000 },
    );
    // Current figures need no date, and are not read again.
    expect(screen.queryByText(/Figures as of/)).not.toBeInTheDocument();
    await new Promise((resolve) => setTimeout(resolve, FOLLOW_UP_MS + 300));
    expect(analysisCalls(fetchMock)).toHaveLength(2);
  });

  it('opens a question on its answers with share and point-biserial, and links to its report', async () => {
    stubApi();
    renderPage();
    const toggle = await screen.findByRole('button', { name: /Which helmet protects best\?/ });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await userEvent.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    const answers = screen.getByRole('table', { name: 'Answers to Which helmet protects best?' });
    const rows = within(answers).getAllByRole('row').slice(1);
    expect(rows.map((row) => row.textContent)).toEqual([
      'BRight19562.5%−0.31',
      'CWrong10032.1%0.35',
      'Not answeredWrong175.5%−0.05',
    ]);
    expect(screen.getByText(/Random guess score 1\/4/)).toBeInTheDocument();
    expect(screen.getByText('25% (choices seen)')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Open the question’s report' })).toHaveAttribute(
      'href',
      `/questions/${helmet.questionId}/report`,
    );
    await userEvent.click(toggle);
    expect(screen.queryByRole('table', { name: /Answers to/ })).not.toBeInTheDocument();
  });

  it('opens the question an insight links to', async () => {
    stubApi();
    renderPage(`/analytics/questions?courseId=${safetyId}&questionId=${exits.questionId}`);
    expect(
      await screen.findByRole('table', { name: 'Answers to Where are the fire exits?' }),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /Where are the fire exits\?/ })).toHaveAttribute(
      'aria-expanded',
      'true',
    );
    expect(screen.getByRole('button', { name: /Which helmet protects best\?/ })).toHaveAttribute(
      'aria-expanded',
      'false',
    );
  });

  it('sorts by facility, discrimination and flags, in the URL', async () => {
    stubApi();
    renderPage();
    const table = await screen.findByRole('table', { name: 'Questions with their item statistics' });
    const firstRow = () => within(table).getAllByRole('row')[1];
    await userEvent.click(within(table).getByRole('button', { name: 'Discrimination' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('?sort=discrimination'));
    expect(firstRow()).toHaveTextContent('Which helmet');
    await userEvent.click(within(table).getByRole('button', { name: 'Discrimination' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('order=desc'));
    expect(firstRow()).toHaveTextContent('Where are the fire exits?');
    await userEvent.click(within(table).getByRole('button', { name: 'Flags' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('?sort=flags&order=desc'));
    expect(firstRow()).toHaveTextContent('Which helmet');
    expect(within(table).getAllByRole('columnheader')[5]).toHaveAttribute('aria-sort', 'descending');
  });

  it('switches course from the picker and says when it has no finished runs', async () => {
    const fetchMock = stubApi((courseId) => jsonResponse(200, courseId === onboardingId ? empty : analysis));
    renderPage();
    await screen.findByTestId('question-analysis-basis');
    await userEvent.click(screen.getByRole('combobox', { name: 'Course' }));
    await userEvent.click(await screen.findByRole('option', { name: /Onboarding/ }));
    await waitFor(() =>
      expect(screen.getByTestId('location')).toHaveTextContent(`?courseId=${onboardingId}`),
    );
    expect(await screen.findByText('No finished runs of Onboarding to analyse')).toBeInTheDocument();
    expect(analysisCalls(fetchMock).at(-1)?.searchParams.get('courseId')).toBe(onboardingId);
    expect(screen.getByRole('link', { name: 'Check what counts as finished' })).toHaveAttribute(
      'href',
      '/analytics/settings',
    );
  });

  it('filters by the period of run starts', async () => {
    const fetchMock = stubApi();
    renderPage(`/analytics/questions?courseId=${safetyId}`);
    await screen.findByTestId('question-analysis-basis');
    await userEvent.type(screen.getByLabelText('Runs started from'), '2026-03-01');
    await userEvent.type(screen.getByLabelText('to'), '2026-03-31');
    await userEvent.click(screen.getByRole('button', { name: 'Apply' }));
    await waitFor(() => {
      const last = analysisCalls(fetchMock).at(-1);
      expect(last?.searchParams.get('from')).toBe('2026-03-01');
      expect(last?.searchParams.get('to')).toBe('2026-03-31');
    });
  });

  it('shows the server’s words when the analysis fails, with a retry', async () => {
    stubApi(() => jsonResponse(404, { error: 'Course not found', code: 'NOT_FOUND' }));
    renderPage(`/analytics/questions?courseId=${safetyId}`);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The question analysis could not be loaded.');
    expect(alert).toHaveTextContent('Course not found');
    expect(within(alert).getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });

  it('says what to do when the organization has no course', async () => {
    stubFetch(() => jsonResponse(200, { courses: [], defaultCourseId: null }));
    renderPage();
    expect(await screen.findByText('No courses yet')).toBeInTheDocument();
  });
});

describe('sortQuestions', () => {
  it('puts a missing figure last in either direction', () => {
    const none = question({ questionId: 'n', discriminationIndex: null });
    const ids = (order: 'asc' | 'desc') =>
      sortQuestions([none, helmet, exits], { sort: 'discrimination', order }).map((q) => q.questionId);
    expect(ids('asc')).toEqual([helmet.questionId, exits.questionId, 'n']);
    expect(ids('desc')).toEqual([exits.questionId, helmet.questionId, 'n']);
  });
});
