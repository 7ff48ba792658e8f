import type { FailedJob } from '@courselens/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';

import { sessionQueryKey } from '@/lib/auth';
import { toast } from '@/lib/toast';
import { createTestQueryClient, jsonResponse, renderWithQueryClient, stubFetch } from '@/testing/test-utils';

import { FailedJobsPanel } from './failed-jobs-panel';

vi.mock('@/lib/toast', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));

const meAs = (role: 'owner' | 'team_member') => ({
  user: { id: 'u1', name: 'Ada Lovelace', email: 'ada@example.com' },
  organizations: [{ id: 'o1', name: 'Acme', subdomain: 'acme', role, isPrimary: true }],
});

const failed: FailedJob = {
  id: '33333333-3333-4333-8333-333333333333',
  queue: 'learning-events.maintain',
  error: 'could not drop learning_events_2024_01',
  attempts: 4,
  createdAt: '2026-11-20T08:00:00.000Z',
  failedAt: '2026-11-20T08:05:00.000Z',
};

function renderPanel(role: 'owner' | 'team_member' = 'owner') {
  const queryClient = createTestQueryClient();
  queryClient.setQueryData(sessionQueryKey, meAs(role));
  return renderWithQueryClient(<FailedJobsPanel />, { queryClient });
}

beforeEach(() => {
  vi.clearAllMocks();
});

describe('FailedJobsPanel', () => {
  it('lists failed jobs with their error and attempts, and queues one again', async () => {
    let jobs = [failed];
    const fetchMock = stubFetch((url) => {
      if (url === '/api/jobs/retry') {
        jobs = [];
        return jsonResponse(200, { message: 'The job was queued again' });
      }
      return jsonResponse(200, { jobs });
    });
    renderPanel();
    const list = await screen.findByRole('list', { name: 'Failed jobs' });
    const item = within(list).getByRole('listitem');
    expect(item).toHaveTextContent('Learning-event log upkeep (partitions and retention)');
    expect(item).toHaveTextContent('could not drop learning_events_2024_01');
    expect(item).toHaveTextContent('4 attempts');

    await userEvent.click(
      within(item).getByRole('button', {
        name: 'Retry Learning-event log upkeep (partitions and retention)',
      }),
    );
    await waitFor(() =>
      expect(toast.success).toHaveBeenCalledWith(
        'Learning-event log upkeep (partitions and retention): queued again',
      ),
    );
    const retryCall = fetchMock.mock.calls.find(([url]) => url === '/api/jobs/retry');
    expect(JSON.parse(retryCall?.[1]?.body as string)).toEqual({ queue: failed.queue, id: failed.id });
    expect(await screen.findByText('No failed jobs')).toBeInTheDocument();
  });

  it('says so when nothing failed', async () => {
    stubFetch(() => jsonResponse(200, { jobs: [] }));
    renderPanel();
    expect(await screen.findByText('No failed jobs')).toBeInTheDocument();
  });

  it('tells a team member that only owners see background jobs, and asks the server nothing', () => {
    const fetchMock = stubFetch(() => jsonResponse(200, { jobs: [failed] }));
    renderPanel('team_member');
    expect(screen.getByText('Only owners can change the organization settings')).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
