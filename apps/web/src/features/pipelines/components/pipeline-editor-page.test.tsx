import { PIPELINE_MESSAGES, type PipelineDetail } from '@courselens/contracts';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { RouterProvider, createMemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { sessionQueryKey } from '@/lib/auth';
import { toast } from '@/lib/toast';
import {
  createTestQueryClient,
  fetchedRequests,
  jsonResponse,
  renderWithQueryClient,
  stubFetch,
} from '@/testing/test-utils';

import { EDITOR_MESSAGES } from './editor/graph-model';
import { PipelineEditorPage } from './pipeline-editor-page';

vi.mock('@/lib/toast', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));

const me = {
  user: { id: 'u1', name: 'Ada Lovelace', email: 'ada@example.com' },
  organizations: [{ id: 'o1', name: 'Acme', subdomain: 'acme', role: 'team_member', isPrimary: true }],
};

const PIPELINE = '44444444-4444-4444-8444-444444444444';
const COURSE = '11111111-1111-4111-8111-111111111111';
const ACTION = '22222222-2222-4222-8222-222222222222';
const AGENT = '55555555-5555-4555-8555-555555555555';

const detail: PipelineDetail = {
  id: PIPELINE,
  name: 'Completions to the LMS',
  description: null,
  active: false,
  status: 'inactive',
  version: 1,
  sources: ['course'],
  nodeCount: 1,
  lastRunAt: null,
  lastRunStatus: null,
  runs: { total: 0, succeeded: 0, failed: 0, running: 0 },
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  createdByName: 'Ada Lovelace',
  runRetentionDays: 30,
  problems: [],
  nodes: [
    {
      id: 'course-1',
      type: 'course',
      position: { x: 0, y: 0 },
      data: { courseId: COURSE, events: ['course.completed'] },
    },
  ],
  edges: [],
};

// React Flow measures its nodes; jsdom has no layout, so these give it sizes to work with.
class ResizeObserverStub {
  private readonly callback: ResizeObserverCallback;
  constructor(callback: ResizeObserverCallback) {
    this.callback = callback;
  }
  observe(target: Element) {
    this.callback([{ target } as ResizeObserverEntry], this);
  }
  unobserve() {}
  disconnect() {}
}
class DOMMatrixReadOnlyStub {
  m22 = 1;
}

beforeEach(() => {
  vi.clearAllMocks();
  vi.stubGlobal('ResizeObserver', ResizeObserverStub);
  vi.stubGlobal('DOMMatrixReadOnly', DOMMatrixReadOnlyStub);
  // A wide screen: palette, canvas and side panel side by side.
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: query.includes('min-width'),
    media: query,
    addEventListener: () => {},
    removeEventListener: () => {},
  }));
});

afterEach(() => {
  vi.unstubAllGlobals();
});

function serve(overrides: Partial<PipelineDetail> = {}) {
  return stubFetch((url, init) => {
    if (url.startsWith('/api/courses'))
      return jsonResponse(200, {
        items: [{ id: COURSE, courseTitle: 'Fire safety', externalCourseId: null }],
        total: 1,
        page: 1,
        pageSize: 100,
      });
    if (url.startsWith('/api/variables'))
      return jsonResponse(200, { items: [], total: 0, page: 1, pageSize: 100 });
    if (url.startsWith('/api/chatbots'))
      return jsonResponse(200, {
        items: [
          {
            id: AGENT,
            name: 'Onboarding guide',
            description: null,
            color: '#4f46e5',
            avatar: null,
            active: true,
            variables: 2,
            conversations: 0,
            learners: 0,
            captureRate: null,
            lastMessageAt: null,
            createdAt: '2026-01-01T00:00:00.000Z',
          },
        ],
        total: 1,
        page: 1,
        pageSize: 100,
      });
    if (url.startsWith('/api/actions')) {
      return jsonResponse(200, {
        items: [
          {
            id: ACTION,
            name: 'Tell the LMS',
            type: 'webhook',
            active: true,
            target: 'POST https://lms.test/in',
          },
        ],
        total: 1,
        page: 1,
        pageSize: 100,
      });
    }
    if (init?.method === 'PATCH') {
      const body = JSON.parse(init.body as string) as Partial<PipelineDetail>;
      return jsonResponse(200, { ...detail, ...overrides, ...body, version: 2 });
    }
    return jsonResponse(200, { ...detail, ...overrides });
  });
}

function renderEditor() {
  const queryClient = createTestQueryClient();
  queryClient.setQueryData(sessionQueryKey, me);
  const router = createMemoryRouter(
    [
      { path: '/pipeline/:id', element: <PipelineEditorPage /> },
      { path: '/pipelines', element: <h1>Pipelines list</h1> },
    ],
    { initialEntries: [`/pipeline/${PIPELINE}`] },
  );
  return { router, ...renderWithQueryClient(<RouterProvider router={router} />, { queryClient }) };
}

const problems = () => document.getElementById('pipeline-problems')!;
const press = (key: string, options: Partial<KeyboardEventInit> = {}) =>
  act(() => {
    fireEvent.keyDown(document.body, { key, ...options });
  });

describe('PipelineEditorPage', () => {
  it('shows the problems live, and undoes and redoes with the keyboard', async () => {
    const user = userEvent.setup();
    serve();
    renderEditor();
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Completions to the LMS' }),
    ).toBeInTheDocument();
    expect(within(problems()).getByText(PIPELINE_MESSAGES.noAction)).toBeInTheDocument();
    expect(screen.queryByText('Unsaved changes')).not.toBeInTheDocument();

    // Nothing selected: the action is added apart, and the editor says it must be connected.
    await user.click(screen.getByRole('button', { name: 'Add Action' }));
    expect(within(problems()).getByText('Action action-1: Choose an action')).toBeInTheDocument();
    expect(
      within(problems()).getByText(PIPELINE_MESSAGES.unconnected('Action action-1')),
    ).toBeInTheDocument();
    expect(screen.getByText('Unsaved changes')).toBeInTheDocument();

    press('z', { ctrlKey: true });
    expect(
      within(problems()).queryByText(PIPELINE_MESSAGES.unconnected('Action action-1')),
    ).not.toBeInTheDocument();
    expect(screen.queryByText('Unsaved changes')).not.toBeInTheDocument();
    press('z', { ctrlKey: true, shiftKey: true });
    expect(
      within(problems()).getByText(PIPELINE_MESSAGES.unconnected('Action action-1')),
    ).toBeInTheDocument();
  });

  it('will not save unfinished forms, then saves with Ctrl+S once they are filled in and connected', async () => {
    const user = userEvent.setup();
    const fetchMock = serve();
    renderEditor();
    await screen.findByRole('heading', { level: 1, name: 'Completions to the LMS' });

    // The course is selected: the action is added after it, already connected.
    await user.click(screen.getByRole('button', { name: 'List view' }));
    await user.click(screen.getByRole('button', { name: /Edit Course events course-1/ }));
    await user.click(screen.getByRole('button', { name: 'Add Action' }));
    expect(screen.getByRole('heading', { name: 'Connections (1)' })).toBeInTheDocument();

    press('s', { ctrlKey: true });
    expect(toast.error).toHaveBeenCalledWith(EDITOR_MESSAGES.cannotSave);
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'PATCH')).toBe(false);

    await user.click(screen.getByRole('combobox', { name: 'Action' }));
    await user.click(screen.getByRole('option', { name: /Tell the LMS/ }));
    expect(within(problems()).getByRole('heading', { name: 'No problems' })).toBeInTheDocument();

    press('s', { metaKey: true });
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Saved as version 2'));
    const patch = fetchMock.mock.calls.find(([, init]) => init?.method === 'PATCH')!;
    const body = JSON.parse(patch[1]?.body as string) as {
      nodes: { id: string; data: unknown }[];
      edges: unknown[];
    };
    expect(body.nodes.map((node) => node.id)).toEqual(['course-1', 'action-1']);
    expect(body.nodes[1]?.data).toEqual({ actionId: ACTION });
    expect(body.edges).toEqual([
      { id: 'course-1->action-1', source: 'course-1', target: 'action-1', sourceHandle: null },
    ]);
    expect(screen.queryByText('Unsaved changes')).not.toBeInTheDocument();
  });

  it('adds a chatbot source, picks its agent and shows the agent’s name on the node', async () => {
    const user = userEvent.setup();
    const fetchMock = serve();
    renderEditor();
    await screen.findByRole('heading', { level: 1, name: 'Completions to the LMS' });
    await user.click(screen.getByRole('button', { name: 'List view' }));
    await user.click(screen.getByRole('button', { name: 'Add Chatbot events' }));
    expect(screen.getByRole('heading', { name: 'Nodes (2)' })).toBeInTheDocument();
    expect(within(problems()).getByText('Chatbot events chatbot-1: Choose a chatbot')).toBeInTheDocument();

    await user.click(screen.getByRole('combobox', { name: 'Agent' }));
    await user.click(await screen.findByRole('option', { name: 'Onboarding guide' }));
    expect(screen.getByText('Onboarding guide · Every event')).toBeInTheDocument();
    expect(
      within(problems()).queryByText('Chatbot events chatbot-1: Choose a chatbot'),
    ).not.toBeInTheDocument();
    expect(fetchedRequests(fetchMock).map((request) => request.url)).toContain(
      '/api/chatbots?sort=name&order=asc&pageSize=100',
    );
  });

  it('shows on the node that its agent no longer exists, as the server found at the last save', async () => {
    const user = userEvent.setup();
    const gone = '77777777-7777-4777-8777-777777777777';
    const message = PIPELINE_MESSAGES.unknownChatbot('Chatbot events chatbot-1');
    serve({
      nodes: [
        {
          id: 'chatbot-1',
          type: 'chatbot',
          position: { x: 0, y: 0 },
          data: { chatbotId: gone, events: ['chat.ended'] },
        },
      ],
      problems: [{ nodeId: 'chatbot-1', message }],
    });
    renderEditor();
    await screen.findByRole('heading', { level: 1, name: 'Completions to the LMS' });
    await user.click(screen.getByRole('button', { name: 'List view' }));
    const item = screen.getByText('Chatbot events chatbot-1', { selector: 'p' }).closest('li')!;
    expect(within(item).getByText(message)).toBeInTheDocument();
    expect(within(item).getByText('Choose an agent · Has given every required value')).toBeInTheDocument();
    expect(
      within(problems()).getByRole('button', { name: (name) => name.startsWith(message) }),
    ).toBeInTheDocument();

    await user.click(within(item).getByRole('button', { name: /Edit Chatbot events chatbot-1/ }));
    expect(await screen.findByText('This agent no longer exists: choose another')).toBeInTheDocument();
  });

  it('removes the selected node and its connections with Delete, as one undo step', async () => {
    const user = userEvent.setup();
    serve({
      nodes: [
        ...detail.nodes,
        { id: 'action-1', type: 'action', position: { x: 300, y: 0 }, data: { actionId: ACTION } },
      ],
      edges: [{ id: 'course-1->action-1', source: 'course-1', target: 'action-1', sourceHandle: null }],
    });
    renderEditor();
    await screen.findByRole('heading', { level: 1, name: 'Completions to the LMS' });
    await user.click(screen.getByRole('button', { name: 'List view' }));
    expect(screen.getByRole('heading', { name: 'Connections (1)' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: /Edit Action action-1/ }));
    (document.activeElement as HTMLElement | null)?.blur();
    press('Delete');
    expect(screen.getByRole('heading', { name: 'Nodes (1)' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Connections (0)' })).toBeInTheDocument();
    press('z', { ctrlKey: true });
    expect(screen.getByRole('heading', { name: 'Nodes (2)' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Connections (1)' })).toBeInTheDocument();
  });

  it('will not turn on a pipeline with problems, and says why', async () => {
    const user = userEvent.setup();
    const fetchMock = serve();
    renderEditor();
    await user.click(await screen.findByRole('switch', { name: 'Active' }));
    expect(toast.error).toHaveBeenCalledWith(PIPELINE_MESSAGES.cannotActivate);
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'PATCH')).toBe(false);
  });

  it('asks before leaving with unsaved changes', async () => {
    const user = userEvent.setup();
    serve();
    const { router } = renderEditor();
    await screen.findByRole('heading', { level: 1, name: 'Completions to the LMS' });
    await user.click(screen.getByRole('button', { name: 'Add Delay' }));
    await act(() => router.navigate('/pipelines'));
    const dialog = screen.getByRole('dialog', { name: 'Leave without saving?' });
    await user.click(within(dialog).getByRole('button', { name: 'Stay' }));
    expect(screen.getByRole('heading', { level: 1, name: 'Completions to the LMS' })).toBeInTheDocument();
    await act(() => router.navigate('/pipelines'));
    await user.click(screen.getByRole('button', { name: 'Leave without saving' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Pipelines list' })).toBeInTheDocument();
  });
});
