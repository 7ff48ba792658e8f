import type { Paginated, PipelineRunDetail, PipelineRunSummary } from '@courselens/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { RouterProvider, createMemoryRouter } from 'react-router';
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

import { RunsTab } from './runs-tab';

vi.mock('@/lib/toast', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));

const me = {
  user: { id: 'u1', name: 'Ada Lovelace', email: 'ada@example.com' },
  organizations: [{ id: 'o1', name: 'Acme', subdomain: 'acme', role: 'owner', isPrimary: true }],
};

const PIPELINE = '44444444-4444-4444-8444-444444444444';
const RUN = '55555555-5555-4555-8555-555555555555';

const summary: PipelineRunSummary = {
  id: RUN,
  pipelineId: PIPELINE,
  version: 3,
  status: 'failed',
  trigger: 'event',
  eventId: 'e1',
  eventType: 'course.completed',
  learnerEmail: 'sam@example.com',
  startedAt: '2026-03-01T10:00:00.000Z',
  finishedAt: '2026-03-01T10:00:01.200Z',
  durationMs: 1200,
  error: 'The webhook answered 500',
};

const detail: PipelineRunDetail = {
  ...summary,
  steps: [
    {
      nodeId: 'course-1',
      nodeType: 'course',
      nodeName: 'Safety completed',
      status: 'succeeded',
      attempts: 1,
      input: { type: 'course.completed' },
      output: { learner: 'sam@example.com' },
      error: null,
      startedAt: '2026-03-01T10:00:00.000Z',
      finishedAt: '2026-03-01T10:00:00.010Z',
      durationMs: 10,
      resumeAt: null,
    },
    {
      nodeId: 'action-1',
      nodeType: 'action',
      nodeName: 'Tell the LMS',
      status: 'failed',
      attempts: 3,
      input: { url: 'https://lms.test/in' },
      output: { status: 500, body: '<script>alert(1)</script>' },
      error: 'The webhook answered 500',
      startedAt: '2026-03-01T10:00:00.010Z',
      finishedAt: '2026-03-01T10:00:01.200Z',
      durationMs: 1190,
      resumeAt: null,
    },
  ],
};

const page = (items: PipelineRunSummary[]): Paginated<PipelineRunSummary> => ({
  items,
  total: items.length,
  page: 1,
  pageSize: 20,
});

function renderRuns(path = `/pipeline/${PIPELINE}?tab=runs`) {
  const queryClient = createTestQueryClient();
  queryClient.setQueryData(sessionQueryKey, me);
  const router = createMemoryRouter(
    [
      {
        path: '/pipeline/:id',
        element: (
          <RunsTab
            organizationId="o1"
            pipelineId={PIPELINE}
            canRunByHand={false}
            isActive={false}
            runRetentionDays={30}
          />
        ),
      },
    ],
    { initialEntries: [path] },
  );
  return renderWithQueryClient(<RouterProvider router={router} />, { queryClient });
}

beforeEach(() => {
  vi.clearAllMocks();
});

describe('RunsTab', () => {
  it('lists the runs and sends the filters to the server', async () => {
    const user = userEvent.setup();
    const fetchMock = stubFetch(() => jsonResponse(200, page([summary])));
    renderRuns();
    const row = await screen.findByRole('row', { name: /Failed/ });
    expect(within(row).getByText('Event')).toBeInTheDocument();
    expect(within(row).getByText('1.2 s')).toBeInTheDocument();
    await user.selectOptions(screen.getAllByRole('combobox', { name: /^Status/ })[0]!, 'failed');
    await user.selectOptions(screen.getAllByRole('combobox', { name: /^Trigger/ })[0]!, 'manual');
    await waitFor(() => {
      const last = fetchedRequests(fetchMock).at(-1)!.url;
      expect(last).toContain(`/api/pipelines/${PIPELINE}/runs?`);
      expect(last).toContain('status=failed');
      expect(last).toContain('trigger=manual');
    });
  });

  it('changes how long finished runs are kept', async () => {
    const user = userEvent.setup();
    const fetchMock = stubFetch((_url, init) =>
      init?.method === 'PATCH'
        ? jsonResponse(200, { runRetentionDays: 90 })
        : jsonResponse(200, page([summary])),
    );
    renderRuns();
    const retention = await screen.findByRole('combobox', { name: 'Keep finished runs for' });
    expect(retention).toHaveValue('30');
    await user.selectOptions(retention, '90');
    await waitFor(() => {
      const patch = fetchMock.mock.calls.find(([, init]) => init?.method === 'PATCH')!;
      expect(patch[0] as string).toBe(`/api/pipelines/${PIPELINE}`);
      expect(JSON.parse(patch[1]?.body as string)).toEqual({ runRetentionDays: 90 });
    });
    expect(toast.success).toHaveBeenCalledWith('Runs are now kept 90 days');
  });

  it('shows a run’s path step by step, its output as inert text, and retries from the failed step', async () => {
    const user = userEvent.setup();
    const fetchMock = stubFetch((url, init) => {
      if (init?.method === 'POST') return jsonResponse(202, { ...summary, id: 'retried', status: 'queued' });
      if (url.includes(`/runs/${RUN}`)) return jsonResponse(200, detail);
      if (url.includes('/runs/retried'))
        return jsonResponse(200, { ...detail, id: 'retried', status: 'queued', steps: [] });
      return jsonResponse(200, page([summary]));
    });
    renderRuns(`/pipeline/${PIPELINE}?tab=runs&run=${RUN}`);
    const sheet = await screen.findByRole('dialog', { name: 'Run' });
    const steps = await within(sheet).findByRole('list', { name: 'Steps' });
    const items = within(steps).getAllByRole('listitem');
    expect(items.map((item) => within(item).getByText(/Safety completed|Tell the LMS/).textContent)).toEqual([
      'Safety completed',
      'Tell the LMS',
    ]);
    expect(within(items[1]!).getByText('3 attempts')).toBeInTheDocument();
    // What a webhook answered is shown as text, never run as markup.
    expect(within(items[1]!).getByLabelText('Output').textContent).toContain('<script>alert(1)</script>');
    expect(document.querySelector('script')).toBeNull();

    expect(within(sheet).getByRole('button', { name: 'Retry whole run' })).toBeInTheDocument();
    await user.click(within(sheet).getByRole('button', { name: 'Retry from failed step' }));
    await waitFor(() => {
      const post = fetchMock.mock.calls.find(([, init]) => init?.method === 'POST')!;
      expect(post[0] as string).toBe(`/api/pipelines/${PIPELINE}/runs/${RUN}/retry`);
      expect(JSON.parse(post[1]?.body as string)).toEqual({ from: 'failed' });
    });
    // The retry is a new run: the sheet shows it.
    expect(await within(sheet).findByText('Queued')).toBeInTheDocument();
  });
});
