import type { ListVariablesResponse, VariableListItem } from '@courselens/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';

import { sessionQueryKey } from '@/lib/auth';
import { toast } from '@/lib/toast';
import { createTestQueryClient, jsonResponse, renderWithQueryClient, stubFetch } from '@/testing/test-utils';

import { applyVariableUpdate } from '../api/update-variable';

import { CourseVariablesPage } from './course-variables-page';
import { VariablesPage } from './variables-page';

vi.mock('@/lib/toast', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));

const me = {
  user: { id: 'u1', name: 'Ada Lovelace', email: 'ada@example.com' },
  organizations: [{ id: 'o1', name: 'Acme', subdomain: 'acme', role: 'owner', isPrimary: true }],
};

const COURSE_ID = '33333333-3333-4333-8333-333333333333';

const score: VariableListItem = {
  id: '11111111-1111-4111-8111-111111111111',
  name: 'final_score',
  title: 'Final score',
  description: 'Score at the end',
  dataType: 'number',
  active: true,
  courseId: COURSE_ID,
  courseTitle: 'Workplace safety',
  usageCount: 1234,
  learnerCount: 610,
  lastRecordedAt: '2026-01-03T10:00:00.000Z',
  createdAt: '2026-01-01T00:00:00.000Z',
};
const region: VariableListItem = {
  ...score,
  id: '22222222-2222-4222-8222-222222222222',
  name: 'region',
  title: null,
  description: null,
  dataType: 'text',
  active: false,
  usageCount: 0,
  learnerCount: 0,
  lastRecordedAt: null,
};

function page(items: VariableListItem[]): ListVariablesResponse {
  return { items, total: items.length, page: 1, pageSize: 25 };
}

function renderAt(path: string) {
  const queryClient = createTestQueryClient();
  queryClient.setQueryData(sessionQueryKey, me);
  return renderWithQueryClient(
    <MemoryRouter initialEntries={[path]}>
      <Routes>
        <Route path="/variables" element={<VariablesPage />} />
        <Route path="/course/:courseId/variables" element={<CourseVariablesPage />} />
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

describe('applyVariableUpdate', () => {
  it('changes only the named row, trims the description and clears an empty one', () => {
    const data = page([score, region]);
    expect(applyVariableUpdate(data, { variableId: region.id, active: true }).items).toEqual([
      score,
      { ...region, active: true },
    ]);
    expect(
      applyVariableUpdate(data, { variableId: score.id, name: 'final_score', description: '  New  ' })
        .items[0],
    ).toEqual({ ...score, description: 'New' });
    expect(
      applyVariableUpdate(data, { variableId: score.id, name: 'final_score', description: '' }).items[0]
        ?.description,
    ).toBeNull();
  });
});

describe('VariablesPage', () => {
  it('lists variables with course, type, usage and active state, and asks the server with the URL filters', async () => {
    const fetchMock = stubFetch((url) =>
      url.startsWith('/api/variables/courses')
        ? jsonResponse(200, { courses: [{ id: COURSE_ID, courseTitle: 'Workplace safety', variables: 2 }] })
        : jsonResponse(200, page([score, region])),
    );
    renderAt(`/variables?q=score&course=${COURSE_ID}&status=active&sort=usageCount&order=desc`);

    await screen.findByText('final_score');
    const table = screen.getByRole('table', { name: 'Variables' });
    const [, first, second] = within(table).getAllByRole('row');
    expect(within(first!).getByText('final_score')).toBeInTheDocument();
    expect(within(first!).getByText('1,234')).toBeInTheDocument();
    expect(within(first!).getByRole('link', { name: 'Workplace safety' })).toHaveAttribute(
      'href',
      `/course/${COURSE_ID}/variables`,
    );
    expect(within(first!).getByRole('switch', { name: 'Active: final_score' })).toHaveAttribute(
      'aria-checked',
      'true',
    );
    expect(within(second!).getByRole('switch', { name: 'Active: region' })).toHaveAttribute(
      'aria-checked',
      'false',
    );
    expect(within(second!).getByText('No description')).toBeInTheDocument();

    const listCall = calledUrls(fetchMock).find((url) => url.startsWith('/api/variables?'));
    const query = new URL(listCall!, 'http://x').searchParams;
    expect(Object.fromEntries(query)).toEqual({
      q: 'score',
      sort: 'usageCount',
      order: 'desc',
      courseId: COURSE_ID,
      active: 'true',
      page: '1',
      pageSize: '25',
    });
    expect(await screen.findByRole('option', { name: 'Workplace safety (2)' })).toBeInTheDocument();
  });

  it('turns a variable off at once and back on when the server refuses', async () => {
    let release: (response: Response) => void = () => {};
    const fetchMock = stubFetch((url, init) => {
      if (init?.method === 'PATCH') return new Promise<Response>((resolve) => (release = resolve));
      if (url.startsWith('/api/variables/courses')) return jsonResponse(200, { courses: [] });
      return jsonResponse(200, page([score, region]));
    });
    renderAt('/variables');

    const toggle = await screen.findByRole('switch', { name: 'Active: final_score' });
    await userEvent.click(toggle);
    // Optimistic: off before the server answered.
    expect(screen.getByRole('switch', { name: 'Active: final_score' })).toHaveAttribute(
      'aria-checked',
      'false',
    );
    const patchCall = fetchMock.mock.calls.find(([, init]) => init?.method === 'PATCH');
    expect(patchCall?.[0]).toBe(`/api/variables/${score.id}`);
    expect(JSON.parse(patchCall?.[1]?.body as string)).toEqual({ active: false });

    release(jsonResponse(500, { error: 'Internal server error', code: 'INTERNAL_ERROR' }));
    await waitFor(() =>
      expect(screen.getByRole('switch', { name: 'Active: final_score' })).toHaveAttribute(
        'aria-checked',
        'true',
      ),
    );
    expect(toast.error).toHaveBeenCalledWith('Internal server error');
  });

  it('edits a description by id and name and keeps the dialog open with the server message on a conflict', async () => {
    const fetchMock = stubFetch((url, init) => {
      if (init?.method === 'PATCH') {
        return jsonResponse(409, {
          error: 'The variable was changed elsewhere. Reload and try again.',
          code: 'CONFLICT',
        });
      }
      if (url.startsWith('/api/variables/courses')) return jsonResponse(200, { courses: [] });
      return jsonResponse(200, page([score]));
    });
    renderAt('/variables');

    await userEvent.click(await screen.findByRole('button', { name: 'Edit description of final_score' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit description' });
    const field = within(dialog).getByLabelText('Description');
    expect(field).toHaveValue('Score at the end');
    await userEvent.clear(field);
    await userEvent.type(field, 'The final quiz score');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save description' }));

    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'The variable was changed elsewhere. Reload and try again.',
    );
    const patchCall = fetchMock.mock.calls.find(([, init]) => init?.method === 'PATCH');
    expect(JSON.parse(patchCall?.[1]?.body as string)).toEqual({
      name: 'final_score',
      description: 'The final quiz score',
    });
    expect(toast.success).not.toHaveBeenCalled();
  });

  it('refuses a description over 2000 characters before sending', async () => {
    const fetchMock = stubFetch((url) =>
      url.startsWith('/api/variables/courses')
        ? jsonResponse(200, { courses: [] })
        : jsonResponse(200, page([region])),
    );
    renderAt('/variables');
    await userEvent.click(await screen.findByRole('button', { name: 'Edit description of region' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit description' });
    const field = within(dialog).getByLabelText('Description');
    await userEvent.click(field);
    await userEvent.paste('x'.repeat(2001));
    expect(
      within(dialog).getByText('Description must be at most 2000 characters long (2001 now)'),
    ).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Save description' })).toBeDisabled();
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'PATCH')).toBe(false);
  });

  it('shows the empty state with no variables', async () => {
    stubFetch((url) =>
      url.startsWith('/api/variables/courses')
        ? jsonResponse(200, { courses: [] })
        : jsonResponse(200, page([])),
    );
    renderAt('/variables');
    expect(await screen.findByText('No variables yet')).toBeInTheDocument();
  });
});

describe('CourseVariablesPage', () => {
  // The header (title, tabs, "Course not found") is the course layout's:
  // see app/routes/app/course-layout.test.tsx.
  it('lists the course variables without the course column, with the export in place', async () => {
    const fetchMock = stubFetch(() =>
      jsonResponse(200, {
        ...page([score]),
        course: {
          id: COURSE_ID,
          courseTitle: 'Workplace safety',
          externalCourseId: 'safety-101',
          description: null,
        },
      }),
    );
    renderAt(`/course/${COURSE_ID}/variables`);

    const table = await screen.findByRole('table', { name: 'Variables' });
    await within(table).findByRole('link', { name: 'final_score' });
    expect(within(table).queryByRole('columnheader', { name: /Course/ })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Export CSV' })).toBeInTheDocument();
    expect(calledUrls(fetchMock)[0]).toMatch(new RegExp(`^/api/courses/${COURSE_ID}/variables\\?`));
  });
});
