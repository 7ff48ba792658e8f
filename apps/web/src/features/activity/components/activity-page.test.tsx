import type { ActivityItem, ActivityListResponse } from '@courselens/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';

import { sessionQueryKey } from '@/lib/auth';
import { createTestQueryClient, jsonResponse, renderWithQueryClient, stubFetch } from '@/testing/test-utils';

import { ActivityPage } from './activity-page';

vi.mock('@/lib/toast', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));

const me = {
  user: { id: 'u1', name: 'Ada Lovelace', email: 'ada@example.com' },
  organizations: [{ id: 'o1', name: 'Acme Learning', subdomain: 'acme', role: 'owner', isPrimary: true }],
};
const ada = { id: '11111111-1111-4111-8111-111111111111', name: 'Ada Lovelace', email: 'ada@example.com' };

const items: ActivityItem[] = [
  {
    id: 'a1',
    kind: 'events.ingested',
    label: 'Events ingested',
    summary: '120 events ingested',
    subjectType: null,
    subjectId: null,
    details: { accepted: 120, duplicates: 3, rejected: [{ index: 4 }] },
    createdAt: '2026-03-04T08:00:00.000Z',
    actor: null,
  },
  {
    id: 'a2',
    kind: 'member.invited',
    label: 'Member invited',
    summary: 'Invited ann@example.com',
    subjectType: 'invitation',
    subjectId: 'i1',
    details: {},
    createdAt: '2026-03-03T08:00:00.000Z',
    actor: ada,
  },
];

function LocationProbe() {
  const location = useLocation();
  return <p data-testid="location">{location.search}</p>;
}

function renderPage(entry = '/activity') {
  const queryClient = createTestQueryClient();
  queryClient.setQueryData(sessionQueryKey, me);
  return renderWithQueryClient(
    <MemoryRouter initialEntries={[entry]}>
      <Routes>
        <Route
          path="/activity"
          element={
            <>
              <ActivityPage />
              <LocationProbe />
            </>
          }
        />
      </Routes>
    </MemoryRouter>,
    { queryClient },
  );
}

function stubApi(list: (url: URL) => ActivityListResponse | Response) {
  return stubFetch((raw) => {
    const url = new URL(raw, 'http://localhost');
    if (url.pathname === '/api/activity/actors') return jsonResponse(200, { actors: [ada] });
    const body = list(url);
    return body instanceof Response ? body : jsonResponse(200, body);
  });
}

const listCalls = (fetchMock: ReturnType<typeof stubFetch>) =>
  fetchMock.mock.calls
    .map((call) => new URL(call[0] as string, 'http://localhost'))
    .filter((url) => url.pathname === '/api/activity');

beforeEach(() => {
  vi.clearAllMocks();
});

describe('ActivityPage', () => {
  it('lists activity with its label, actor, time and ingestion figures', async () => {
    stubApi(() => ({ items, total: 2, page: 1, pageSize: 25 }));
    renderPage();
    const feed = await screen.findByRole('list', { name: 'Activity feed' });
    const rows = within(feed).getAllByRole('listitem');
    expect(rows).toHaveLength(2);
    expect(rows[0]).toHaveTextContent('Events ingested');
    expect(rows[0]).toHaveTextContent('120 accepted · 3 duplicates · 1 rejected');
    expect(rows[0]).toHaveTextContent('by the system (API key)');
    expect(rows[1]).toHaveTextContent('Member invited');
    expect(rows[1]).toHaveTextContent('by Ada Lovelace (ada@example.com)');
    expect(screen.getByText(/1–2/)).toBeInTheDocument();
  });

  it('filters by kind group, person and days, in the URL and the request', async () => {
    const fetchMock = stubApi(() => ({ items, total: 2, page: 1, pageSize: 25 }));
    renderPage();
    await screen.findByRole('list', { name: 'Activity feed' });
    const kinds = screen.getByRole('group', { name: 'Kind of activity' });
    await userEvent.click(within(kinds).getByRole('button', { name: 'API keys' }));
    await waitFor(() =>
      expect(screen.getByTestId('location')).toHaveTextContent('?kind=api_key.created%2Capi_key.revoked'),
    );
    expect(within(kinds).getByRole('button', { name: 'API keys' })).toHaveAttribute('aria-pressed', 'true');
    expect(within(kinds).getByRole('button', { name: 'All' })).toHaveAttribute('aria-pressed', 'false');
    await waitFor(() =>
      expect(listCalls(fetchMock).at(-1)?.searchParams.get('kind')).toBe('api_key.created,api_key.revoked'),
    );

    await userEvent.selectOptions(await screen.findByLabelText('Who'), 'Ada Lovelace (ada@example.com)');
    await waitFor(() => expect(listCalls(fetchMock).at(-1)?.searchParams.get('actor')).toBe(ada.id));
    await userEvent.selectOptions(screen.getByLabelText('Who'), 'System (API keys)');
    await waitFor(() => expect(listCalls(fetchMock).at(-1)?.searchParams.get('actor')).toBe('system'));

    await userEvent.type(screen.getByLabelText('From'), '2026-03-01');
    await waitFor(() => expect(listCalls(fetchMock).at(-1)?.searchParams.get('from')).toBe('2026-03-01'));

    await userEvent.click(screen.getByRole('button', { name: 'Clear filters' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^$/));
    const last = listCalls(fetchMock).at(-1);
    expect([...(last?.searchParams.keys() ?? [])].sort()).toEqual(['page', 'pageSize']);
  });

  it('pages through the feed', async () => {
    const fetchMock = stubApi((url) => ({
      items,
      total: 60,
      page: Number(url.searchParams.get('page')),
      pageSize: 25,
    }));
    renderPage();
    await screen.findByRole('list', { name: 'Activity feed' });
    await userEvent.click(screen.getByRole('button', { name: /Next/ }));
    await waitFor(() => expect(listCalls(fetchMock).at(-1)?.searchParams.get('page')).toBe('2'));
    expect(screen.getByTestId('location')).toHaveTextContent('?page=2');
  });

  it('says when nothing matches, and shows the server’s message for a bad filter', async () => {
    stubApi((url) =>
      url.searchParams.get('q') === 'bad'
        ? jsonResponse(400, {
            error: 'The start date must be on or before the end date',
            code: 'VALIDATION_ERROR',
          })
        : { items: [], total: 0, page: 1, pageSize: 25 },
    );
    renderPage('/activity?kind=report.shared');
    expect(await screen.findByText('No activity matches these filters')).toBeInTheDocument();
    renderPage('/activity?q=bad');
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The start date must be on or before the end date',
    );
  });
});
