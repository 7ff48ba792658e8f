import type { CourseBody, CourseListResponse } from '@courselens/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';

import { sessionQueryKey } from '@/lib/auth';
import { createTestQueryClient, jsonResponse, renderWithQueryClient, stubFetch } from '@/testing/test-utils';

import { CoursesPage } from './courses-page';

vi.mock('@/lib/toast', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));

const me = {
  user: { id: 'u1', name: 'Ada Lovelace', email: 'ada@example.com' },
  organizations: [{ id: 'o1', name: 'Acme', subdomain: 'acme', role: 'owner', isPrimary: true }],
};

const safety: CourseBody = {
  id: '11111111-1111-4111-8111-111111111111',
  courseTitle: 'Fire Safety',
  externalCourseId: 'fire-safety',
  description: null,
  broadcastMessage: null,
  learners: 1200,
  views: 3400,
  lastActivityAt: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
};

function page(items: CourseBody[], total = items.length): CourseListResponse {
  return { items, total, page: 1, pageSize: 25 };
}

function LocationProbe() {
  const location = useLocation();
  return <output data-testid="location">{`${location.pathname}${location.search}`}</output>;
}

function renderPage(initialEntry = '/courses', role: 'owner' | 'team_member' = 'owner') {
  const queryClient = createTestQueryClient();
  queryClient.setQueryData(sessionQueryKey, {
    ...me,
    organizations: me.organizations.map((organization) => ({ ...organization, role })),
  });
  return renderWithQueryClient(
    <MemoryRouter initialEntries={[initialEntry]}>
      <Routes>
        <Route
          path="*"
          element={
            <>
              <CoursesPage />
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

describe('CoursesPage', () => {
  it('shows title, external id, learners, views and last activity; sorting goes to the URL and the server', async () => {
    const fetchMock = stubFetch(() => jsonResponse(200, page([safety])));
    renderPage();

    const table = await screen.findByRole('table', { name: 'Courses' });
    await within(table).findByText('Fire Safety');
    const row = within(table).getAllByRole('row')[1]!;
    expect(within(row).getByRole('link', { name: 'Fire Safety' })).toHaveAttribute(
      'href',
      `/course/${safety.id}/learners`,
    );
    expect(within(row).getAllByText('fire-safety').length).toBeGreaterThan(0);
    expect(within(row).getByText('1,200')).toBeInTheDocument();
    expect(within(row).getByText('3,400')).toBeInTheDocument();
    expect(within(row).getByText('No activity yet')).toBeInTheDocument();
    expect(fetchMock.mock.calls[0]![0]).toBe('/api/courses?page=1&sort=title&order=asc');

    await userEvent.click(within(table).getByRole('button', { name: /Learners/ }));
    await waitFor(() =>
      expect(screen.getByTestId('location')).toHaveTextContent('/courses?sort=learners&order=asc'),
    );
    await waitFor(() =>
      expect(fetchMock.mock.calls.at(-1)![0]).toBe('/api/courses?page=1&sort=learners&order=asc'),
    );
  });

  it('says when a search matches nothing', async () => {
    stubFetch(() => jsonResponse(200, page([])));
    renderPage('/courses?q=nothing');
    expect(await screen.findByText('No courses match your search')).toBeInTheDocument();
  });

  it('opens the row menu with the course links, edit and delete', async () => {
    stubFetch(() => jsonResponse(200, page([safety])));
    renderPage();
    await userEvent.click(await screen.findByRole('button', { name: 'Actions for Fire Safety' }));
    const menu = screen.getByRole('menu', { name: 'Actions for Fire Safety' });
    const hrefs = within(menu)
      .getAllByRole('menuitem')
      .map((item) => [item.textContent, item.getAttribute('href')]);
    expect(hrefs).toEqual([
      ['Learners', `/course/${safety.id}/learners`],
      ['Variables', `/course/${safety.id}/variables`],
      ['Questions', `/course/${safety.id}/questions`],
      ['Broadcasts', `/courses/${safety.id}/broadcasts?title=Fire%20Safety`],
      ['Edit', null],
      ['Delete', null],
    ]);
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Actions for Fire Safety' }));
    await userEvent.click(screen.getByRole('menuitem', { name: 'Delete' }));
    expect(screen.getByRole('dialog', { name: 'Delete course' })).toBeInTheDocument();
  });

  it('shows a team member Delete disabled, with the reason, and opens no dialog', async () => {
    stubFetch(() => jsonResponse(200, page([safety])));
    renderPage('/courses', 'team_member');
    await userEvent.click(await screen.findByRole('button', { name: 'Actions for Fire Safety' }));
    const item = screen.getByRole('menuitem', { name: 'Delete' });
    expect(item).toHaveAttribute('aria-disabled', 'true');
    expect(item).toHaveAccessibleDescription('Only owners can delete courses');
    await userEvent.click(item);
    expect(screen.queryByRole('dialog', { name: 'Delete course' })).not.toBeInTheDocument();
    // Editing stays open to members.
    expect(screen.getByRole('menuitem', { name: 'Edit' })).not.toHaveAttribute('aria-disabled');
  });

  it('creates a course: the title is required, and a taken external id shows under its field', async () => {
    const fetchMock = stubFetch((url, init) => {
      if (init?.method === 'POST') {
        return jsonResponse(409, {
          error: 'A course with external ID "fire-safety" already exists',
          code: 'CONFLICT',
        });
      }
      return jsonResponse(200, page([safety]));
    });
    renderPage();
    await userEvent.click(await screen.findByRole('button', { name: 'New course' }));
    const dialog = screen.getByRole('dialog', { name: 'Create a course' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create course' }));
    expect(await within(dialog).findByText('Course title is required')).toBeInTheDocument();
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'POST')).toBe(false);

    await userEvent.type(within(dialog).getByLabelText('Title'), 'Fire Safety 2');
    await userEvent.type(within(dialog).getByLabelText(/External course ID/), 'fire-safety');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create course' }));
    expect(
      await within(dialog).findByText('A course with external ID "fire-safety" already exists'),
    ).toBeInTheDocument();
    const post = fetchMock.mock.calls.find(([, init]) => init?.method === 'POST');
    expect(JSON.parse(post![1]!.body as string)).toEqual({
      courseTitle: 'Fire Safety 2',
      externalCourseId: 'fire-safety',
      description: null,
    });
  });

  it('edits a course with its current values filled in', async () => {
    const fetchMock = stubFetch((url, init) =>
      init?.method === 'PATCH'
        ? jsonResponse(200, { ...safety, courseTitle: 'Fire Safety (2026)' })
        : jsonResponse(200, page([safety])),
    );
    renderPage();
    await userEvent.click(await screen.findByRole('button', { name: 'Actions for Fire Safety' }));
    await userEvent.click(screen.getByRole('menuitem', { name: 'Edit' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit course' });
    const title = within(dialog).getByLabelText('Title');
    expect(title).toHaveValue('Fire Safety');
    await userEvent.clear(title);
    await userEvent.type(title, 'Fire Safety (2026)');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const patch = fetchMock.mock.calls.find(([, init]) => init?.method === 'PATCH');
    expect(patch![0]).toBe(`/api/courses/${safety.id}`);
    expect(JSON.parse(patch![1]!.body as string)).toMatchObject({ courseTitle: 'Fire Safety (2026)' });
  });
});
