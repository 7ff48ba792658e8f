import {
  ACTION_MESSAGES,
  TEMPLATE_MESSAGES,
  type ActionBody,
  type ActionTestResult,
  type ListActionsResponse,
} from '@courselens/contracts';
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

import { CreateActionPage, EditActionPage } from './action-editor-page';
import { ActionsPage } from './actions-page';
import { statusVariant, TestResultView } from './test-panel';

vi.mock('@/lib/toast', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));

const me = {
  user: { id: 'u1', name: 'Ada Lovelace', email: 'ada@example.com' },
  organizations: [{ id: 'o1', name: 'Acme', subdomain: 'acme', role: 'team_member', isPrimary: true }],
};

const ACTION = '11111111-1111-4111-8111-111111111111';

const webhook: ActionBody = {
  id: ACTION,
  name: 'Tell the LMS',
  description: 'Completions go to the LMS',
  type: 'webhook',
  active: true,
  target: 'POST https://hooks.example.com/in',
  usedByPipelines: 0,
  createdByName: 'Ada Lovelace',
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  secretHint: 'whsec_AbCd…',
  config: {
    type: 'webhook',
    url: 'https://hooks.example.com/in',
    method: 'POST',
    headers: [{ name: 'Authorization', value: null, secret: true }],
    bodyTemplate: null,
  },
};

function renderAt(path: string, initial = path) {
  const queryClient = createTestQueryClient();
  queryClient.setQueryData(sessionQueryKey, me);
  return renderWithQueryClient(
    <MemoryRouter initialEntries={[initial]}>
      <Routes>
        <Route path="/actions" element={<ActionsPage />} />
        <Route path="/actions/create" element={<CreateActionPage />} />
        <Route path="/actions/edit/:id" element={<EditActionPage />} />
      </Routes>
    </MemoryRouter>,
    { queryClient },
  );
}

beforeEach(() => {
  vi.clearAllMocks();
});

describe('ActionsPage', () => {
  it('offers to create the first action when there is none', async () => {
    const empty: ListActionsResponse = { items: [], total: 0, page: 1, pageSize: 20 };
    stubFetch(() => jsonResponse(200, empty));
    renderAt('/actions');
    expect(await screen.findByText('No actions yet')).toBeInTheDocument();
    expect(screen.getAllByRole('link', { name: 'New action' }).length).toBeGreaterThan(0);
  });

  it('lists actions with their type and target, and sends the search, type and sort to the server', async () => {
    const user = userEvent.setup();
    const list: ListActionsResponse = {
      items: [{ ...webhook, usedByPipelines: 2 }],
      total: 1,
      page: 1,
      pageSize: 20,
    };
    const fetchMock = stubFetch(() => jsonResponse(200, list));
    renderAt('/actions');
    await screen.findByRole('link', { name: 'Tell the LMS' });
    const table = screen.getByRole('table', { name: 'Actions' });
    const [, row] = within(table).getAllByRole('row');
    expect(within(row!).getByRole('link', { name: 'Tell the LMS' })).toHaveAttribute(
      'href',
      `/actions/edit/${ACTION}`,
    );
    expect(within(row!).getAllByText('Webhook').length).toBeGreaterThan(0);
    expect(within(row!).getAllByText('POST https://hooks.example.com/in').length).toBeGreaterThan(0);
    expect(within(row!).getByText('2 pipelines')).toBeInTheDocument();

    await user.selectOptions(screen.getAllByRole('combobox', { name: /^Type/ })[0]!, 'email');
    await user.click(within(table).getByRole('button', { name: /Name/ }));
    await waitFor(() => {
      const [last = ''] = fetchedRequests(fetchMock)
        .map((request) => request.url)
        .slice(-1);
      expect(last).toContain('type=email');
      expect(last).toContain('sort=name');
      expect(last).toContain('order=asc');
    });
  });
});

describe('CreateActionPage', () => {
  it('checks the form with the contract’s words and previews templates with the sample event', async () => {
    const user = userEvent.setup();
    const fetchMock = stubFetch(() => jsonResponse(200, { items: [], total: 0, page: 1, pageSize: 100 }));
    renderAt('/actions/create');
    await user.click(await screen.findByRole('radio', { name: /Notify the team/ }));
    const message = screen.getByRole('textbox', { name: 'Message' });
    await user.clear(message);
    await user.type(message, 'Done: {{{{learner.name}} finished');
    expect(await screen.findByText('Done: Sam Learner finished')).toBeInTheDocument();
    await user.type(message, ' {{{{learner.phone}}');
    expect(await screen.findByText(TEMPLATE_MESSAGES.unknownField('learner.phone'))).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Create action' }));
    expect(await screen.findByText(ACTION_MESSAGES.nameRequired)).toBeInTheDocument();
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'POST')).toBe(false);
  });

  it('shows a webhook’s secret once after creating it', async () => {
    const user = userEvent.setup();
    const created = { ...webhook, secret: 'whsec_c2VjcmV0LXNlY3JldC1zZWNyZXQtc2VjcmV0LXNlY3JldA==' };
    const posted: unknown[] = [];
    stubFetch((url, init) => {
      if (init?.method === 'POST') {
        posted.push(JSON.parse(init.body as string));
        return jsonResponse(201, created);
      }
      if (url.includes('/actions/')) return jsonResponse(200, webhook);
      return jsonResponse(200, { items: [], total: 0, page: 1, pageSize: 100 });
    });
    renderAt('/actions/create');
    await user.type(await screen.findByRole('textbox', { name: 'Name' }), 'Tell the LMS');
    await user.type(screen.getByRole('textbox', { name: 'URL' }), 'https://hooks.example.com/in');
    await user.click(screen.getByRole('button', { name: 'Create action' }));
    const dialog = await screen.findByRole('dialog', { name: 'Copy the signing secret' });
    expect(within(dialog).getByTestId('action-secret')).toHaveValue(created.secret);
    expect(posted).toEqual([
      {
        name: 'Tell the LMS',
        description: null,
        active: true,
        config: {
          type: 'webhook',
          url: 'https://hooks.example.com/in',
          method: 'POST',
          headers: [],
          bodyTemplate: null,
        },
      },
    ]);
    await user.click(within(dialog).getByRole('button', { name: 'I have stored it' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Tell the LMS' })).toBeInTheDocument();
    expect(screen.queryByDisplayValue(created.secret)).not.toBeInTheDocument();
  });
});

describe('EditActionPage', () => {
  it('shows a stored secret header as stored, and the test’s request and response', async () => {
    const user = userEvent.setup();
    const result: ActionTestResult = {
      ok: true,
      channel: 'http',
      request: {
        method: 'POST',
        url: 'https://hooks.example.com/in',
        headers: [
          { name: 'Authorization', value: '••••••••' },
          { name: 'webhook-signature', value: 'v1,abc=' },
        ],
        body: '{"type":"course.completed"}',
      },
      response: {
        status: 200,
        statusText: 'OK',
        headers: [{ name: 'x-receiver', value: 'lms' }],
        body: '{"received":true}',
        bodyTruncated: false,
        retryAfterSeconds: null,
      },
      durationMs: 42,
      error: null,
      note: 'The sample event was sent, signed with this action’s secret.',
    };
    stubFetch((url, init) => {
      if (init?.method === 'POST' && url.endsWith('/test')) return jsonResponse(200, result);
      if (url.includes(`/actions/${ACTION}`)) return jsonResponse(200, webhook);
      return jsonResponse(200, { items: [], total: 0, page: 1, pageSize: 100 });
    });
    renderAt(`/actions/edit/${ACTION}`);
    expect(await screen.findByRole('heading', { level: 1, name: 'Tell the LMS' })).toBeInTheDocument();
    expect(screen.getByPlaceholderText('Stored and encrypted: leave empty to keep')).toHaveValue('');
    expect(screen.getByText('whsec_AbCd…')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Send test' }));
    const shown = await screen.findByTestId('action-test-result');
    expect(within(shown).getByText('200 OK')).toBeInTheDocument();
    expect(within(shown).getByText('42 ms')).toBeInTheDocument();
    expect(within(shown).getByText('v1,abc=')).toBeInTheDocument();
    expect(within(shown).getByLabelText('Response body')).toHaveTextContent('"received": true');
  });
});

describe('test results', () => {
  it('colours statuses: 2xx green, 3xx and 4xx amber, 5xx and no answer red', () => {
    expect(statusVariant(204)).toBe('success');
    expect(statusVariant(302)).toBe('warning');
    expect(statusVariant(404)).toBe('warning');
    expect(statusVariant(503)).toBe('danger');
    expect(statusVariant(null)).toBe('danger');
  });

  it('says when nothing came back and why', () => {
    renderWithQueryClient(
      <TestResultView
        result={{
          ok: false,
          channel: 'http',
          request: { method: 'POST', url: 'http://10.0.0.8/hook', headers: [], body: '{}' },
          response: null,
          durationMs: 1,
          error: ACTION_MESSAGES.hostNotAllowed('10.0.0.8'),
          note: null,
        }}
      />,
    );
    expect(screen.getByText('No answer')).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent(ACTION_MESSAGES.hostNotAllowed('10.0.0.8'));
    expect(screen.getByText('Nothing came back.')).toBeInTheDocument();
  });
});
