import type {
  FunnelComputeResult,
  FunnelDroppedOffResponse,
  ListFunnelsResponse,
} from '@courselens/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';

import { sessionQueryKey } from '@/lib/auth';
import { testAnalyticsBasis } from '@/testing/analytics-basis';
import { createTestQueryClient, jsonResponse, renderWithQueryClient, stubFetch } from '@/testing/test-utils';

import { FunnelsPage } from './funnels-page';

const me = {
  user: { id: 'u1', name: 'Ada Lovelace', email: 'ada@example.com' },
  organizations: [{ id: 'o1', name: 'Acme Learning', subdomain: 'acme', role: 'member', isPrimary: true }],
};
const safety = '11111111-1111-4111-8111-111111111111';
const questionId = '33333333-3333-4333-8333-333333333333';

const list: ListFunnelsResponse = {
  items: [],
  suggestion: {
    name: 'Safety basics: start to completion',
    config: {
      definition: {
        courseId: safety,
        order: 'sequential',
        windowDays: null,
        steps: [{ kind: 'course_started' }, { kind: 'question_answered', questionId }, { kind: 'completed' }],
      },
      breakdown: { kind: 'none' },
    },
  },
};

const baseStep = {
  courseId: safety,
  courseTitle: 'Safety basics',
  questionId: null,
  medianSeconds: null,
  histogram: [],
  comparison: null,
};
const computed: FunnelComputeResult = {
  period: { from: '2026-10-26', to: '2026-11-24' },
  previousPeriod: null,
  order: 'sequential',
  windowDays: 14,
  isDefaultWindow: true,
  entered: 10,
  converted: 4,
  conversion: 0.4,
  medianSecondsToConvert: 900,
  steps: [
    {
      ...baseStep,
      index: 0,
      kind: 'course_started',
      label: 'Started the course',
      count: 10,
      conversionFromFirst: 1,
      conversionFromPrevious: 1,
      droppedOff: 0,
    },
    {
      ...baseStep,
      index: 1,
      kind: 'question_answered',
      label: 'Answered Q1 · Helmet',
      questionId,
      count: 6,
      conversionFromFirst: 0.6,
      conversionFromPrevious: 0.6,
      droppedOff: 4,
    },
    {
      ...baseStep,
      index: 2,
      kind: 'completed',
      label: 'Completed',
      count: 4,
      conversionFromFirst: 0.4,
      conversionFromPrevious: 4 / 6,
      droppedOff: 2,
    },
  ],
  comparison: null,
  breakdown: null,
  basis: testAnalyticsBasis(),
};
const dropped: FunnelDroppedOffResponse = {
  items: [
    {
      learnerId: 'l1',
      name: 'Dan Dunn',
      email: 'dan@example.com',
      lastStepIndex: 0,
      lastStepLabel: '1. Started the course',
      reachedAt: '2026-11-02T10:00:00.000Z',
    },
  ],
  total: 1,
  page: 1,
  pageSize: 25,
  period: computed.period,
  basis: computed.basis,
};

function bodyOf(init: RequestInit | undefined): unknown {
  return typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
}

function setup() {
  const requests: { url: string; method: string; body: unknown }[] = [];
  stubFetch((url, init) => {
    const method = init?.method ?? 'GET';
    requests.push({ url, method, body: bodyOf(init) });
    if (url === '/api/analytics/funnels' && method === 'GET') return jsonResponse(200, list);
    if (url === '/api/analytics/funnels' && method === 'POST') {
      const body = bodyOf(init) as { name: string; config: unknown };
      return jsonResponse(201, {
        id: 'f1',
        name: body.name,
        description: null,
        config: body.config,
        problem: null,
        createdAt: '2026-11-24T00:00:00Z',
        updatedAt: '2026-11-24T00:00:00Z',
      });
    }
    if (url === '/api/analytics/funnels/compute') return jsonResponse(200, computed);
    if (url === '/api/analytics/funnels/dropped-off') return jsonResponse(200, dropped);
    if (url === '/api/analytics/funnels/dropped-off/export') {
      return new Response('\uFEFFName,E-mail\r\nDan Dunn,dan@example.com\r\n', {
        status: 200,
        headers: { 'content-type': 'text/csv' },
      });
    }
    if (url.startsWith('/api/courses?')) {
      return jsonResponse(200, {
        items: [{ id: safety, courseTitle: 'Safety basics', externalCourseId: 'safety' }],
        total: 1,
        page: 1,
        pageSize: 100,
      });
    }
    if (url.startsWith(`/api/courses/${safety}/questions`)) {
      return jsonResponse(200, { items: [], total: 0, page: 1, pageSize: 100 });
    }
    return jsonResponse(404, { error: 'Not found', code: 'NOT_FOUND' });
  });
  const queryClient = createTestQueryClient();
  queryClient.setQueryData(sessionQueryKey, me);
  renderWithQueryClient(
    <MemoryRouter initialEntries={['/analytics/funnels']}>
      <FunnelsPage />
    </MemoryRouter>,
    { queryClient },
  );
  return requests;
}

describe('FunnelsPage', () => {
  it('opens on the suggested funnel, computes it and saves it under a name', async () => {
    const user = userEvent.setup();
    const requests = setup();
    expect(await screen.findByText(/A suggested funnel to start from/)).toBeInTheDocument();
    expect(await screen.findByTestId('funnel-step-2')).toHaveTextContent('Completed');
    const compute = requests.find((request) => request.url === '/api/analytics/funnels/compute');
    expect(compute?.body).toEqual({
      definition: {
        courseId: safety,
        order: 'sequential',
        windowDays: null,
        steps: [
          { kind: 'course_started', courseId: null },
          { kind: 'question_answered', courseId: null, questionId },
          { kind: 'completed', courseId: null },
        ],
      },
      period: {},
      breakdown: { kind: 'none' },
      compare: false,
    });

    await user.click(screen.getByRole('button', { name: 'Save funnel' }));
    const dialog = await screen.findByRole('dialog', { name: 'Save funnel' });
    expect(within(dialog).getByRole('textbox', { name: 'Name' })).toHaveValue(
      'Safety basics: start to completion',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(
        requests.some((request) => request.url === '/api/analytics/funnels' && request.method === 'POST'),
      ).toBe(true),
    );
    const saved = requests.find(
      (request) => request.url === '/api/analytics/funnels' && request.method === 'POST',
    );
    expect(saved?.body).toMatchObject({
      name: 'Safety basics: start to completion',
      config: list.suggestion?.config,
    });
  });

  it('lists who dropped off at a step and exports them as CSV', async () => {
    const user = userEvent.setup();
    const createObjectURL = vi.fn(() => 'blob:funnel');
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() }));
    const requests = setup();
    const step = await screen.findByTestId('funnel-step-1');
    await user.click(within(step).getByRole('button', { name: 'See who dropped off (4)' }));
    const sheet = await screen.findByRole('dialog', { name: 'Dropped off before step 2' });
    expect(await within(sheet).findByRole('rowheader', { name: 'Dan Dunn' })).toBeInTheDocument();
    expect(
      requests.find((request) => request.url === '/api/analytics/funnels/dropped-off')?.body,
    ).toMatchObject({
      stepIndex: 1,
      page: 1,
    });
    await user.click(within(sheet).getByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(createObjectURL).toHaveBeenCalled());
    expect(
      requests.find((request) => request.url === '/api/analytics/funnels/dropped-off/export')?.body,
    ).toMatchObject({
      stepIndex: 1,
    });
  });
});
