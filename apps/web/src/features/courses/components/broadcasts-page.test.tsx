import type { BroadcastListResponse } from '@courselens/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';

import { paths } from '@/config/paths';
import { sessionQueryKey } from '@/lib/auth';
import { createTestQueryClient, jsonResponse, renderWithQueryClient, stubFetch } from '@/testing/test-utils';

import { BroadcastsPage } from './broadcasts-page';

vi.mock('@/lib/toast', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));

const me = {
  user: { id: 'u1', name: 'Ada Lovelace', email: 'ada@example.com' },
  organizations: [{ id: 'o1', name: 'Acme', subdomain: 'acme', role: 'owner', isPrimary: true }],
};
const courseId = '11111111-1111-4111-8111-111111111111';

function renderPage(title = 'Title From The Link') {
  const queryClient = createTestQueryClient();
  queryClient.setQueryData(sessionQueryKey, me);
  return renderWithQueryClient(
    <MemoryRouter initialEntries={[paths.courses.broadcasts.href(courseId, title)]}>
      <Routes>
        <Route path={paths.courses.broadcasts.path} element={<BroadcastsPage />} />
      </Routes>
    </MemoryRouter>,
    { queryClient },
  );
}

let history: BroadcastListResponse;

beforeEach(() => {
  vi.clearAllMocks();
  history = {
    currentMessage: 'Exam on Friday',
    items: [
      {
        id: 'b1',
        message: 'Exam on Friday',
        authorName: 'Ada Lovelace',
        createdAt: '2026-01-02T00:00:00.000Z',
      },
      { id: 'b0', message: null, authorName: null, createdAt: '2026-01-01T00:00:00.000Z' },
    ],
    total: 2,
    page: 1,
    pageSize: 10,
  };
});

function stubServer() {
  return stubFetch((url, init) => {
    if (init?.method === 'PUT') {
      const { message } = JSON.parse(init.body as string) as { message: string | null };
      history = { ...history, currentMessage: message };
      return jsonResponse(200, { currentMessage: message, broadcast: { ...history.items[0], message } });
    }
    if (url.includes('/broadcasts')) return jsonResponse(200, history);
    // The course itself (the layout's header).
    return jsonResponse(200, {
      id: courseId,
      courseTitle: 'Stored title',
      externalCourseId: 'ext-1',
      description: null,
      broadcastMessage: history.currentMessage,
      learners: 3,
      views: 4,
      lastActivityAt: null,
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-01T00:00:00.000Z',
    });
  });
}

describe('BroadcastsPage', () => {
  // The heading (the title query parameter) is the course layout's: see app/routes/app/course-layout.test.tsx.
  it('shows the current message and the history with authors', async () => {
    stubServer();
    renderPage();
    expect(await screen.findByTestId('current-broadcast')).toHaveTextContent('Exam on Friday');
    const list = await screen.findByRole('list', { name: 'Past broadcasts' });
    const items = within(list).getAllByRole('listitem');
    expect(items[0]).toHaveTextContent('Exam on Friday');
    expect(items[0]).toHaveTextContent('Ada Lovelace');
    expect(items[1]).toHaveTextContent('Message cleared');
  });

  it('refuses an empty message without calling the server, sends a message and clears it', async () => {
    const fetchMock = stubServer();
    renderPage();
    await screen.findByTestId('current-broadcast');

    await userEvent.click(screen.getByRole('button', { name: 'Send broadcast' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Write a message, or clear the broadcast instead',
    );
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'PUT')).toBe(false);

    await userEvent.type(screen.getByLabelText('New message'), 'Quiz closes at 5');
    await userEvent.click(screen.getByRole('button', { name: 'Send broadcast' }));
    await waitFor(() =>
      expect(screen.getByTestId('current-broadcast')).toHaveTextContent('Quiz closes at 5'),
    );
    const put = fetchMock.mock.calls.find(([, init]) => init?.method === 'PUT');
    expect(put![0]).toBe(`/api/courses/${courseId}/broadcast`);
    expect(JSON.parse(put![1]!.body as string)).toEqual({ message: 'Quiz closes at 5' });
    expect(screen.getByLabelText('New message')).toHaveValue('');

    await userEvent.click(screen.getByRole('button', { name: 'Clear message' }));
    await waitFor(() =>
      expect(screen.getByTestId('current-broadcast')).toHaveTextContent('No message is showing right now.'),
    );
    const puts = fetchMock.mock.calls.filter(([, init]) => init?.method === 'PUT');
    expect(JSON.parse(puts.at(-1)![1]!.body as string)).toEqual({ message: null });
    expect(screen.getByRole('button', { name: 'Clear message' })).toBeDisabled();
  });
});
