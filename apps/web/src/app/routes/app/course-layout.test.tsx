import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router';
import { describe, expect, it, vi } from 'vitest';

import { paths } from '@/config/paths';
import { BroadcastsPage } from '@/features/courses/components/broadcasts-page';
import { CourseLearnersPage } from '@/features/courses/components/course-learners-page';
import { CourseQuestionsPage } from '@/features/questions/components/course-questions-page';
import { CourseVariablesPage } from '@/features/variables/components/course-variables-page';
import { sessionQueryKey } from '@/lib/auth';
import { createTestQueryClient, jsonResponse, renderWithQueryClient, stubFetch } from '@/testing/test-utils';

import { CourseLayout } from './course-layout';

vi.mock('@/lib/toast', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));

const me = {
  user: { id: 'u1', name: 'Ada Lovelace', email: 'ada@example.com' },
  organizations: [{ id: 'o1', name: 'Acme', subdomain: 'acme', role: 'owner', isPrimary: true }],
};
const COURSE_ID = '33333333-3333-4333-8333-333333333333';
const course = {
  id: COURSE_ID,
  courseTitle: 'Stored title',
  externalCourseId: 'ext-1',
  description: null,
  broadcastMessage: null,
  learners: 3,
  views: 4,
  lastActivityAt: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
};
const emptyPage = { items: [], total: 0, page: 1, pageSize: 25 };
const heading = { id: COURSE_ID, courseTitle: 'Stored title', externalCourseId: 'ext-1', description: null };

function stubServer({ isCourseMissing = false } = {}) {
  return stubFetch((url) => {
    const path = new URL(url, 'http://x').pathname;
    if (isCourseMissing) return jsonResponse(404, { error: 'Course not found', code: 'NOT_FOUND' });
    if (path === `/api/courses/${COURSE_ID}`) return jsonResponse(200, course);
    if (path.endsWith('/learners')) return jsonResponse(200, emptyPage);
    if (path.endsWith('/variables')) return jsonResponse(200, { ...emptyPage, course: heading });
    if (path.endsWith('/questions')) {
      return jsonResponse(200, {
        ...emptyPage,
        course: heading,
        totals: {
          questions: 0,
          totalResponses: 0,
          correctResponses: 0,
          averageLearnersPerQuestion: 0,
          correctRate: null,
        },
      });
    }
    if (path.endsWith('/broadcasts')) {
      return jsonResponse(200, { currentMessage: null, items: [], total: 0, page: 1, pageSize: 10 });
    }
    return jsonResponse(404, { error: 'Not found', code: 'NOT_FOUND' });
  });
}

function renderAt(path: string) {
  const queryClient = createTestQueryClient();
  queryClient.setQueryData(sessionQueryKey, me);
  return renderWithQueryClient(
    <MemoryRouter initialEntries={[path]}>
      <Routes>
        <Route element={<CourseLayout />}>
          <Route path={paths.courses.learners.path} element={<CourseLearnersPage />} />
          <Route path={paths.courses.variables.path} element={<CourseVariablesPage />} />
          <Route path={paths.courses.questions.path} element={<CourseQuestionsPage />} />
          <Route path={paths.courses.broadcasts.path} element={<BroadcastsPage />} />
        </Route>
      </Routes>
    </MemoryRouter>,
    { queryClient },
  );
}

const sections = () => screen.getByRole('navigation', { name: 'Course sections' });

describe('CourseLayout', () => {
  it.each([
    ['Learners', paths.courses.learners.href(COURSE_ID), true],
    ['Variables', paths.courses.variables.href(COURSE_ID), true],
    ['Questions', paths.courses.questions.href(COURSE_ID), true],
    ['Broadcasts', paths.courses.broadcasts.href(COURSE_ID), false],
  ])('the %s page has the one course header: same tabs, same width', async (label, path, hasExport) => {
    stubServer();
    renderAt(path);

    expect(await screen.findByRole('heading', { level: 1, name: 'Stored title' })).toBeInTheDocument();
    expect(screen.getByText('ext-1')).toBeInTheDocument();
    const tabs = within(sections()).getAllByRole('link');
    expect(tabs.map((tab) => tab.textContent)).toEqual(['Learners', 'Variables', 'Questions', 'Broadcasts']);
    expect(within(sections()).getByRole('link', { name: label })).toHaveAttribute('aria-current', 'page');
    expect(
      within(sections())
        .getAllByRole('link')
        .filter((tab) => tab.hasAttribute('aria-current')),
    ).toHaveLength(1);
    expect(screen.getByTestId('course-page')).toHaveClass('max-w-7xl');
    await waitFor(() => expect(document.title).toBe(`Stored title · ${label} · CourseLens`));

    // The page's export sits in the header, beside the title.
    const header = screen.getByRole('banner');
    if (hasExport) {
      expect(await within(header).findByRole('button', { name: 'Export CSV' })).toBeInTheDocument();
    } else {
      expect(within(header).queryByRole('button', { name: 'Export CSV' })).not.toBeInTheDocument();
    }
  });

  it('keeps the header while the tabs switch', async () => {
    stubServer();
    renderAt(paths.courses.learners.href(COURSE_ID));
    const title = await screen.findByRole('heading', { level: 1, name: 'Stored title' });
    await userEvent.click(within(sections()).getByRole('link', { name: 'Questions' }));
    expect(await screen.findByRole('table', { name: 'Questions' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: 'Stored title' })).toBe(title);
    expect(within(sections()).getByRole('link', { name: 'Questions' })).toHaveAttribute(
      'aria-current',
      'page',
    );
  });

  it('the broadcasts page shows the title its link carries (spec section 2)', async () => {
    stubServer();
    renderAt(paths.courses.broadcasts.href(COURSE_ID, 'Title From The Link'));
    expect(screen.getByRole('heading', { level: 1, name: 'Title From The Link' })).toBeInTheDocument();
    expect(await screen.findByTestId('current-broadcast')).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: 'Title From The Link' })).toBeInTheDocument();
  });

  it('says "Course not found" once, in place of the whole page', async () => {
    stubServer({ isCourseMissing: true });
    renderAt(paths.courses.variables.href(COURSE_ID));
    expect(await screen.findByRole('heading', { level: 1, name: 'Course not found' })).toBeInTheDocument();
    expect(screen.queryByRole('navigation', { name: 'Course sections' })).not.toBeInTheDocument();
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1);
  });
});
