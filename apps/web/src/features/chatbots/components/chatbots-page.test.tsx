import type { ChatbotListItem, ListChatbotsResponse } from '@courselens/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';

import { sessionQueryKey } from '@/lib/auth';
import {
  createTestQueryClient,
  fetchedRequests,
  jsonResponse,
  renderWithQueryClient,
  stubFetch,
} from '@/testing/test-utils';

import { ChatbotsPage } from './chatbots-page';

vi.mock('@/lib/toast', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));

const me = {
  user: { id: 'u1', name: 'Ada Lovelace', email: 'ada@example.com' },
  organizations: [{ id: 'o1', name: 'Acme', subdomain: 'acme', role: 'team_member', isPrimary: true }],
};

const COACH = '11111111-1111-4111-8111-111111111111';
const QUIET = '22222222-2222-4222-8222-222222222222';

const coach: ChatbotListItem = {
  id: COACH,
  name: 'Onboarding coach',
  description: 'Plans the first week with new learners',
  color: '#0e7490',
  avatar: '🧭',
  active: true,
  variables: 3,
  conversations: 42,
  learners: 37,
  captureRate: 0.625,
  lastMessageAt: new Date(Date.now() - 2 * 3600 * 1000).toISOString(),
  createdAt: '2026-01-01T00:00:00.000Z',
};

const quiet: ChatbotListItem = {
  ...coach,
  id: QUIET,
  name: 'Quiet agent',
  description: null,
  avatar: null,
  active: false,
  variables: 0,
  conversations: 0,
  learners: 0,
  captureRate: null,
  lastMessageAt: null,
};

const page = (items: ChatbotListItem[]): ListChatbotsResponse => ({
  items,
  total: items.length,
  page: 1,
  pageSize: 20,
});

function renderList(path = '/chatbots') {
  const queryClient = createTestQueryClient();
  queryClient.setQueryData(sessionQueryKey, me);
  return renderWithQueryClient(
    <MemoryRouter initialEntries={[path]}>
      <Routes>
        <Route path="/chatbots" element={<ChatbotsPage />} />
        <Route path="/chatbots/create" element={<h1>Create agent</h1>} />
      </Routes>
    </MemoryRouter>,
    { queryClient },
  );
}

beforeEach(() => {
  vi.clearAllMocks();
});

describe('ChatbotsPage', () => {
  it('lists each agent with its bubble, state, figures and actions', async () => {
    stubFetch(() => jsonResponse(200, page([coach, quiet])));
    renderList();

    expect(await screen.findByRole('heading', { level: 1, name: 'Custom AI Agents' })).toBeInTheDocument();
    const table = await screen.findByRole('table', { name: 'Custom AI agents' });
    const [, first, second] = within(table).getAllByRole('row');

    expect(within(first!).getByRole('link', { name: 'Onboarding coach' })).toHaveAttribute(
      'href',
      `/chatbots/edit/${COACH}`,
    );
    expect(within(first!).getByText('🧭')).toHaveStyle({ backgroundColor: '#0e7490' });
    expect(within(first!).getByText('Plans the first week with new learners')).toBeInTheDocument();
    expect(within(first!).getByText('Active')).toBeInTheDocument();
    const cells = within(first!)
      .getAllByRole('cell')
      .map((cell) => cell.textContent);
    expect(cells).toEqual(expect.arrayContaining(['3', '42', '37', '63%', '2 hours ago']));
    expect(within(first!).getByRole('link', { name: /Open the chat of Onboarding coach/ })).toHaveAttribute(
      'href',
      `/chat/${COACH}`,
    );
    expect(within(first!).getByRole('link', { name: /Open the chat/ })).toHaveAttribute('target', '_blank');
    expect(within(first!).getByRole('link', { name: 'Edit Onboarding coach' })).toBeInTheDocument();

    // No conversation yet: no rate and no last message rather than 0 %.
    expect(within(second!).getByText('Inactive')).toBeInTheDocument();
    expect(within(second!).getByText('Q')).toBeInTheDocument();
    const quietCells = within(second!)
      .getAllByRole('cell')
      .map((cell) => cell.textContent);
    expect(quietCells).toEqual(expect.arrayContaining(['—', 'Never']));
    expect(quietCells).not.toContain('0%');
  });

  it('offers to create the first agent when there is none', async () => {
    const user = userEvent.setup();
    stubFetch(() => jsonResponse(200, page([])));
    renderList();
    expect(await screen.findByText('No agents yet')).toBeInTheDocument();
    const calls = screen.getAllByRole('link', { name: 'Create an agent' });
    expect(calls).toHaveLength(2);
    await user.click(calls[1]!);
    expect(await screen.findByRole('heading', { name: 'Create agent' })).toBeInTheDocument();
  });

  it('shows the skeleton while loading and the server’s message when the list fails', async () => {
    let answer: (response: Response) => void = () => {};
    stubFetch(() => new Promise<Response>((resolve) => (answer = resolve)));
    renderList();
    expect(screen.getByRole('status', { name: 'Loading agents' })).toBeInTheDocument();
    answer(jsonResponse(500, { error: 'The database is asleep', code: 'INTERNAL_ERROR' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The database is asleep');
  });

  it('sends the search and the sort to the server', async () => {
    const user = userEvent.setup();
    const fetchMock = stubFetch(() => jsonResponse(200, page([coach])));
    renderList();
    const table = await screen.findByRole('table', { name: 'Custom AI agents' });
    await user.click(within(table).getByRole('button', { name: /Conversations/ }));
    await waitFor(() => {
      const last = fetchedRequests(fetchMock).at(-1)?.url ?? '';
      expect(last).toContain('sort=conversations');
      expect(last).toContain('order=asc');
    });
    await user.selectOptions(screen.getByRole('combobox', { name: 'Sort by' }), 'createdAt:asc');
    await user.type(screen.getByRole('searchbox', { name: 'Search agents' }), 'coach{Enter}');
    await waitFor(() => {
      const last = fetchedRequests(fetchMock).at(-1)?.url ?? '';
      expect(last).toContain('q=coach');
      expect(last).toContain('sort=createdAt');
    });
  });

  it('deletes an agent after asking', async () => {
    const user = userEvent.setup();
    const fetchMock = stubFetch((_url, init) =>
      init?.method === 'DELETE' ? new Response(null, { status: 204 }) : jsonResponse(200, page([coach])),
    );
    renderList();
    await user.click(await screen.findByRole('button', { name: 'Delete Onboarding coach' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete this agent?' });
    expect(dialog).toHaveTextContent('with its 42 conversations');
    await user.click(within(dialog).getByRole('button', { name: 'Delete agent' }));
    await waitFor(() =>
      expect(fetchedRequests(fetchMock)).toContainEqual({ method: 'DELETE', url: `/api/chatbots/${COACH}` }),
    );
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });
});
