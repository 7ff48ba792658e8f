import { PIPELINE_MESSAGES, type PipelineListResponse, type PipelineSummary } from '@courselens/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { RouterProvider, createMemoryRouter, useLocation } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';

import { sessionQueryKey } from '@/lib/auth';
import { toast } from '@/lib/toast';
import {
  createTestQueryClient,
  fetchedRequests,
  jsonResponse,
  renderWithQueryClient,
  stubFetch,
} from '@/testing/test-utils';

import { PipelinesPage } from './pipelines-page';

vi.mock('@/lib/toast', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));

const me = {
  user: { id: 'u1', name: 'Ada Lovelace', email: 'ada@example.com' },
  organizations: [{ id: 'o1', name: 'Acme', subdomain: 'acme', role: 'team_member', isPrimary: true }],
};

const PIPELINE = '44444444-4444-4444-8444-444444444444';

const summary: PipelineSummary = {
  id: PIPELINE,
  name: 'Completions to the LMS',
  description: 'Every completion, signed',
  active: true,
  status: 'active',
  version: 3,
  sources: ['course', 'schedule'],
  nodeCount: 3,
  lastRunAt: new Date(Date.now() - 2 * 3600_000).toISOString(),
  lastRunStatus: 'succeeded',
  runs: { total: 14, succeeded: 12, failed: 2, running: 0 },
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-02T00:00:00.000Z',
};

const page = (items: PipelineSummary[]): PipelineListResponse => ({
  items,
  total: items.length,
  page: 1,
  pageSize: 20,
});

function EditorProbe() {
  const location = useLocation();
  return (
    <p>
      Editor of {location.pathname} {JSON.stringify(location.state)}
    </p>
  );
}

function renderList(path = '/pipelines') {
  const queryClient = createTestQueryClient();
  queryClient.setQueryData(sessionQueryKey, me);
  const router = createMemoryRouter(
    [
      { path: '/pipelines', element: <PipelinesPage /> },
      { path: '/pipeline/:id', element: <EditorProbe /> },
    ],
    { initialEntries: [path] },
  );
  return renderWithQueryClient(<RouterProvider router={router} />, { queryClient });
}

beforeEach(() => {
  vi.clearAllMocks();
});

describe('PipelinesPage', () => {
  it('offers a new pipeline, the generator and the actions when there is none', async () => {
    stubFetch(() => jsonResponse(200, page([])));
    renderList();
    expect(await screen.findByText('No pipelines yet')).toBeInTheDocument();
    expect(screen.getAllByRole('button', { name: 'New pipeline' })).toHaveLength(2);
    for (const link of screen.getAllByRole('link', { name: 'Describe it in words' })) {
      expect(link).toHaveAttribute('href', '/pipelines/ai-generator');
    }
    expect(screen.getByRole('link', { name: 'Manage actions' })).toHaveAttribute('href', '/actions');
  });

  it('lists each pipeline with its status, trigger, last run and runs of 30 days, and sends the filters', async () => {
    const user = userEvent.setup();
    const fetchMock = stubFetch(() =>
      jsonResponse(
        200,
        page([
          summary,
          {
            ...summary,
            id: 'p2',
            name: 'Broken',
            status: 'invalid',
            active: false,
            lastRunAt: null,
            lastRunStatus: null,
            runs: { total: 0, succeeded: 0, failed: 0, running: 0 },
          },
        ]),
      ),
    );
    renderList();
    await screen.findByRole('link', { name: 'Completions to the LMS' });
    const table = screen.getByRole('table', { name: 'Pipelines' });
    const [, first, second] = within(table).getAllByRole('row');
    expect(within(first!).getByRole('link', { name: 'Completions to the LMS' })).toHaveAttribute(
      'href',
      `/pipeline/${PIPELINE}`,
    );
    expect(within(first!).getAllByText('Course events, Schedule')[0]).toBeInTheDocument();
    expect(within(first!).getByText('2 hours ago')).toBeInTheDocument();
    expect(within(first!).getByText('Succeeded')).toBeInTheDocument();
    expect(within(first!).getByText('12 succeeded')).toBeInTheDocument();
    expect(within(first!).getByText('2 failed')).toBeInTheDocument();
    expect(within(first!).getByRole('switch', { name: 'Active: Completions to the LMS' })).toHaveAttribute(
      'aria-checked',
      'true',
    );
    // A pipeline that cannot run says why, on hover and spelled out for phones.
    const badge = within(second!).getAllByText('Cannot run')[0]!;
    expect(badge).toHaveAttribute('title', expect.stringContaining('problems to fix'));
    expect(within(second!).getByText('Never')).toBeInTheDocument();

    await user.type(screen.getByRole('searchbox', { name: 'Search pipelines' }), 'lms');
    await user.selectOptions(screen.getAllByRole('combobox', { name: /^Status/ })[0]!, 'failing');
    await user.click(within(table).getByRole('button', { name: /Last run/ }));
    await waitFor(() => {
      const last = fetchedRequests(fetchMock).at(-1)!.url;
      expect(last).toContain('q=lms');
      expect(last).toContain('status=failing');
      expect(last).toContain('sort=lastRunAt');
    });
  });

  it('turns a pipeline off from the list', async () => {
    const user = userEvent.setup();
    const fetchMock = stubFetch((url, init) =>
      init?.method === 'PATCH'
        ? jsonResponse(200, { ...summary, active: false })
        : jsonResponse(200, page([summary])),
    );
    renderList();
    await user.click(await screen.findByRole('switch', { name: 'Active: Completions to the LMS' }));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('“Completions to the LMS” is off'));
    const patch = fetchMock.mock.calls.find(([, init]) => init?.method === 'PATCH')!;
    expect(patch[0] as string).toBe(`/api/pipelines/${PIPELINE}`);
    expect(JSON.parse(patch[1]?.body as string)).toEqual({ active: false });
  });

  it('opens the editor on its problems when turning a pipeline on is refused', async () => {
    const user = userEvent.setup();
    const broken = { ...summary, active: false, status: 'invalid' as const };
    stubFetch((_, init) =>
      init?.method === 'PATCH'
        ? jsonResponse(400, { error: PIPELINE_MESSAGES.cannotActivate, code: 'VALIDATION_ERROR' })
        : jsonResponse(200, page([broken])),
    );
    renderList();
    await user.click(await screen.findByRole('switch', { name: 'Active: Completions to the LMS' }));
    expect(
      await screen.findByText(`Editor of /pipeline/${PIPELINE} {"showProblems":true}`),
    ).toBeInTheDocument();
    expect(toast.error).toHaveBeenCalledWith(PIPELINE_MESSAGES.cannotActivate);
  });

  it('creates an empty pipeline by name and opens it', async () => {
    const user = userEvent.setup();
    const fetchMock = stubFetch((_, init) =>
      init?.method === 'POST' ? jsonResponse(201, { ...summary, id: 'new-id' }) : jsonResponse(200, page([])),
    );
    renderList();
    await user.click((await screen.findAllByRole('button', { name: 'New pipeline' }))[0]!);
    const dialog = screen.getByRole('dialog', { name: 'New pipeline' });
    await user.click(within(dialog).getByRole('button', { name: 'Create and open' }));
    expect(within(dialog).getByText(PIPELINE_MESSAGES.nameRequired)).toBeInTheDocument();
    await user.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'Alert managers');
    await user.click(within(dialog).getByRole('button', { name: 'Create and open' }));
    expect(await screen.findByText(/Editor of \/pipeline\/new-id/)).toBeInTheDocument();
    const post = fetchMock.mock.calls.find(([, init]) => init?.method === 'POST')!;
    expect(JSON.parse(post[1]?.body as string)).toEqual({ name: 'Alert managers', nodes: [], edges: [] });
  });
});
