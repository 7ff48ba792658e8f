import type { LearnerProfile, ListLearnersResponse } from '@courselens/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';

import { sessionQueryKey } from '@/lib/auth';
import { createTestQueryClient, jsonResponse, renderWithQueryClient, stubFetch } from '@/testing/test-utils';

import { LearnerCourseVariablesPage } from './learner-course-variables-page';
import { LearnerCoursesPage } from './learner-courses-page';
import { LearnerResponsesPage } from './learner-responses-page';
import { LearnersPage } from './learners-page';

vi.mock('@/lib/toast', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));

const me = {
  user: { id: 'u1', name: 'Ada Lovelace', email: 'ada@example.com' },
  organizations: [{ id: 'o1', name: 'Acme', subdomain: 'acme', role: 'owner', isPrimary: true }],
};

const LEARNER_ID = '11111111-1111-4111-8111-111111111111';
const COURSE_ID = '22222222-2222-4222-8222-222222222222';

const learnerPage: ListLearnersResponse = {
  items: [
    {
      id: LEARNER_ID,
      name: 'Anna Zimmer',
      email: 'anna@acme.test',
      courses: 2,
      lastActivityAt: '2026-01-20T12:00:00.000Z',
      createdAt: '2026-01-01T12:00:00.000Z',
    },
    {
      id: '33333333-3333-4333-8333-333333333333',
      name: null,
      email: 'nameless@acme.test',
      courses: 0,
      lastActivityAt: null,
      createdAt: '2026-01-02T12:00:00.000Z',
    },
  ],
  total: 60,
  page: 1,
  pageSize: 25,
};

const profile: LearnerProfile = {
  id: LEARNER_ID,
  name: 'Anna Zimmer',
  email: 'anna@acme.test',
  createdAt: '2026-01-01T12:00:00.000Z',
  lastActivityAt: '2026-01-20T12:00:00.000Z',
  totals: {
    courses: 2,
    completedCourses: 1,
    runs: 3,
    variables: 3,
    responses: 4,
    correctResponses: 3,
    points: 15,
  },
};

/** Shows the current URL's search so tests can check what the list keeps there. */
function LocationProbe() {
  const location = useLocation();
  return <output data-testid="location">{`${location.pathname}${location.search}`}</output>;
}

function renderAt(path: string) {
  const queryClient = createTestQueryClient();
  queryClient.setQueryData(sessionQueryKey, me);
  return renderWithQueryClient(
    <MemoryRouter initialEntries={[path]}>
      <Routes>
        <Route path="/learners" element={<LearnersPage />} />
        <Route path="/learner/:learnerId/courses" element={<LearnerCoursesPage />} />
        <Route path="/learner/:learnerId/responses" element={<LearnerResponsesPage />} />
        <Route
          path="/learner/:learnerId/course/:courseId/variables"
          element={<LearnerCourseVariablesPage />}
        />
      </Routes>
      <LocationProbe />
    </MemoryRouter>,
    { queryClient },
  );
}

const location = () => screen.getByTestId('location').textContent ?? '';

beforeEach(() => {
  vi.clearAllMocks();
});

describe('LearnersPage', () => {
  it('lists learners with links to their pages, the e-mail for a nameless learner, and totals', async () => {
    const fetchMock = stubFetch(() => jsonResponse(200, learnerPage));
    renderAt('/learners');

    await screen.findByRole('link', { name: 'Anna Zimmer' });
    const table = screen.getByRole('table', { name: 'Learners' });
    const [, first, second] = within(table).getAllByRole('row');
    expect(within(first!).getByRole('link', { name: 'Anna Zimmer' })).toHaveAttribute(
      'href',
      `/learner/${LEARNER_ID}/courses`,
    );
    expect(within(second!).getByRole('link', { name: 'nameless@acme.test' })).toBeInTheDocument();
    expect(within(second!).getByText('Never')).toBeInTheDocument();
    expect(screen.getByRole('navigation', { name: 'Pagination' })).toHaveTextContent('1–25 of 60 learners');
    expect(fetchMock.mock.calls[0]?.[0]).toBe(
      '/api/learners?page=1&pageSize=25&sort=lastActivity&order=desc',
    );
  });

  it('keeps search, sort and page in the URL and asks the server for them', async () => {
    const fetchMock = stubFetch(() => jsonResponse(200, learnerPage));
    renderAt('/learners');
    await screen.findByRole('link', { name: 'Anna Zimmer' });

    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(location()).toBe('/learners?page=2'));

    await userEvent.click(screen.getByRole('button', { name: /Email/ }));
    await waitFor(() => expect(location()).toBe('/learners?sort=email&order=asc'));

    // Phones sort with a select (the other columns are hidden there).
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Sort by' }), 'Courses, descending');
    await waitFor(() => expect(location()).toBe('/learners?sort=courses&order=desc'));
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Sort by' }), 'Email, ascending');
    await waitFor(() => expect(location()).toBe('/learners?sort=email&order=asc'));

    await userEvent.type(screen.getByRole('searchbox', { name: 'Search learners' }), 'ann{Enter}');
    await waitFor(() => expect(location()).toBe('/learners?sort=email&order=asc&q=ann'));
    await waitFor(() =>
      expect(fetchMock.mock.calls.map(([url]) => url)).toContain(
        '/api/learners?q=ann&page=1&pageSize=25&sort=email&order=asc',
      ),
    );
  });

  it('says when no learner matches a search, and shows the server error', async () => {
    stubFetch(() => jsonResponse(200, { items: [], total: 0, page: 1, pageSize: 25 }));
    renderAt('/learners?q=zz');
    expect(await screen.findByText('No learner’s name or e-mail starts with “zz”')).toBeInTheDocument();
  });

  it('shows the error message when the list fails', async () => {
    stubFetch(() =>
      jsonResponse(400, {
        error: 'Page size must be a whole number from 1 to 100',
        code: 'VALIDATION_ERROR',
      }),
    );
    renderAt('/learners');
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Page size must be a whole number from 1 to 100',
    );
  });
});

describe('learner pages', () => {
  it('show the learner’s name, e-mail and totals with tabs, and link courses to their variables', async () => {
    stubFetch((url) => {
      if (url === `/api/learners/${LEARNER_ID}`) return jsonResponse(200, profile);
      return jsonResponse(200, {
        items: [
          {
            courseId: COURSE_ID,
            courseTitle: 'Algebra',
            externalCourseId: 'alg-1',
            runs: 2,
            firstAccessAt: '2026-01-05T12:00:00.000Z',
            lastAccessAt: '2026-01-09T12:00:00.000Z',
            completed: true,
            completedAt: '2026-01-06T12:00:00.000Z',
          },
        ],
        total: 1,
        page: 1,
        pageSize: 25,
      });
    });
    renderAt(`/learner/${LEARNER_ID}/courses`);

    expect(await screen.findByRole('heading', { level: 1, name: 'Anna Zimmer' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'anna@acme.test' })).toHaveAttribute(
      'href',
      'mailto:anna@acme.test',
    );
    expect(screen.getByText('Correct').nextSibling).toHaveTextContent('75%');
    const tabs = screen.getByRole('navigation', { name: 'Learner sections' });
    expect(within(tabs).getByRole('link', { name: 'Courses' })).toHaveAttribute('aria-current', 'page');
    expect(within(tabs).getByRole('link', { name: 'Responses' })).toHaveAttribute(
      'href',
      `/learner/${LEARNER_ID}/responses`,
    );
    expect(await screen.findByRole('link', { name: 'Algebra' })).toHaveAttribute(
      'href',
      `/learner/${LEARNER_ID}/course/${COURSE_ID}/variables`,
    );
    const table = screen.getByRole('table', { name: 'Courses of this learner' });
    const [, row] = within(table).getAllByRole('row');
    // Once in its column, once under the title for phones (CSS shows one of them).
    expect(within(row!).getAllByText('Completed')).toHaveLength(2);
    expect(within(row!).getByText('alg-1')).toBeInTheDocument();
  });

  it('show "Learner not found" for a learner of another organization', async () => {
    stubFetch(() => jsonResponse(404, { error: 'Learner not found', code: 'NOT_FOUND' }));
    renderAt(`/learner/${LEARNER_ID}/responses`);
    expect(await screen.findByRole('heading', { level: 1, name: 'Learner not found' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to learners' })).toHaveAttribute('href', '/learners');
  });

  it('show answers with their result and the expected answer when wrong', async () => {
    stubFetch((url) => {
      if (url === `/api/learners/${LEARNER_ID}`) return jsonResponse(200, profile);
      return jsonResponse(200, {
        items: [
          {
            id: 'r1',
            questionId: 'q1',
            questionText: 'What is 2 + 2?',
            slideNumber: 3,
            questionNumber: 1,
            courseId: COURSE_ID,
            courseTitle: 'Algebra',
            answer: '5',
            correct: false,
            correctAnswer: '4',
            points: 0,
            answeredAt: '2026-01-05T12:00:00.000Z',
          },
        ],
        total: 1,
        page: 1,
        pageSize: 25,
      });
    });
    renderAt(`/learner/${LEARNER_ID}/responses`);
    expect(await screen.findByText('Slide 3 · Q1 · Algebra')).toBeInTheDocument();
    const table = screen.getByRole('table', { name: 'Answers of this learner' });
    expect(within(table).getAllByText('Incorrect')).toHaveLength(2);
    expect(within(table).getByText('Expected: 4')).toBeInTheDocument();
  });

  it('show one course’s variables with a breadcrumb, or "Course not found"', async () => {
    stubFetch((url) => {
      if (url === `/api/learners/${LEARNER_ID}`) return jsonResponse(200, profile);
      return jsonResponse(404, { error: 'Course not found', code: 'NOT_FOUND' });
    });
    renderAt(`/learner/${LEARNER_ID}/course/${COURSE_ID}/variables`);
    expect(
      await screen.findByText('The course was deleted or belongs to another organization.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to the learner’s courses' })).toHaveAttribute(
      'href',
      `/learner/${LEARNER_ID}/courses`,
    );
  });
});
