import {
  CHATBOT_MESSAGES,
  type Chatbot,
  type ChatbotInsights,
  type ChatSessionDetail,
  type ListChatSessionsResponse,
  type ListVariablesResponse,
  type VariableListItem,
} from '@courselens/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';

import { sessionQueryKey } from '@/lib/auth';
import { downloadText } from '@/lib/download';
import { toast } from '@/lib/toast';
import {
  createTestQueryClient,
  fetchedRequests,
  jsonResponse,
  renderWithQueryClient,
  stubFetch,
} from '@/testing/test-utils';

import { CreateChatbotPage, EditChatbotPage } from './chatbot-editor-page';

vi.mock('@/lib/toast', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));
vi.mock('@/lib/download', () => ({ downloadText: vi.fn() }));

const me = {
  user: { id: 'u1', name: 'Ada Lovelace', email: 'ada@example.com' },
  organizations: [{ id: 'o1', name: 'Acme', subdomain: 'acme', role: 'team_member', isPrimary: true }],
};

const ID = '11111111-1111-4111-8111-111111111111';
const SESSION = '22222222-2222-4222-8222-222222222222';
const LEARNER = '33333333-3333-4333-8333-333333333333';
const SCORE = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
const TEAM = 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb';
const MANAGER = 'cccccccc-cccc-4ccc-8ccc-cccccccccccc';
const PICKER = 'Also store in course variables';

const courseVariable = (overrides: Partial<VariableListItem>): VariableListItem => ({
  id: SCORE,
  name: 'score',
  title: null,
  description: null,
  dataType: 'number',
  active: true,
  courseId: 'c1',
  courseTitle: 'Safety training',
  usageCount: 0,
  learnerCount: 0,
  lastRecordedAt: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  ...overrides,
});

/** The organization's course variables, as `GET /api/variables` pages them. */
const courseVariables = [
  courseVariable({ id: SCORE, name: 'final_score', title: 'Final score', courseTitle: 'Safety training' }),
  courseVariable({ id: TEAM, name: 'team_size', courseTitle: 'Onboarding', courseId: 'c2' }),
  courseVariable({
    id: MANAGER,
    name: 'has_manager',
    title: 'Has a manager',
    dataType: 'boolean',
    courseTitle: 'Onboarding',
    courseId: 'c2',
  }),
];

const variablesPage = (items: VariableListItem[]): ListVariablesResponse => ({
  items,
  total: items.length,
  page: 1,
  pageSize: 100,
});

const variable = (overrides: Partial<Chatbot['variables'][number]>): Chatbot['variables'][number] => ({
  id: 'v',
  name: 'x',
  title: 'X',
  type: 'text',
  question: 'What?',
  description: null,
  required: true,
  options: [],
  validation: null,
  destinationVariableIds: [],
  ...overrides,
});

const coach: Chatbot = {
  id: ID,
  name: 'Onboarding coach',
  description: 'Plans the first week',
  instructions: 'You are a friendly coach.',
  welcomeMessage: 'Hello there!',
  knowledge: '## Opening hours\nWeekdays 9 to 5.',
  documents: [],
  variables: [
    variable({
      id: 'v1',
      name: 'team_size',
      title: 'Team size',
      type: 'number',
      destinationVariableIds: [TEAM, SCORE],
    }),
    variable({ id: 'v2', name: 'has_manager', title: 'Has a manager', type: 'boolean' }),
    variable({ id: 'v3', name: 'start_date', title: 'Start date', type: 'date', required: false }),
  ],
  color: '#0e7490',
  avatar: null,
  active: true,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-02T00:00:00.000Z',
};

const sessions: ListChatSessionsResponse = {
  items: [
    {
      id: SESSION,
      learnerId: LEARNER,
      learnerEmail: 'anna@acme.test',
      learnerName: 'Anna Zimmer',
      messages: 6,
      captured: { team_size: 12, has_manager: false, start_date: '2026-03-01' },
      done: true,
      lastMessage: 'Thanks, that helps!',
      lastMessageAt: '2026-01-20T12:00:00.000Z',
      createdAt: '2026-01-20T11:50:00.000Z',
    },
    {
      id: '44444444-4444-4444-8444-444444444444',
      learnerId: null,
      learnerEmail: 'ben@acme.test',
      learnerName: null,
      messages: 2,
      captured: {},
      done: false,
      lastMessage: 'When is the help desk open?',
      lastMessageAt: '2026-01-21T12:00:00.000Z',
      createdAt: '2026-01-21T11:59:00.000Z',
    },
  ],
  total: 2,
  page: 1,
  pageSize: 20,
};

const detail: ChatSessionDetail = {
  ...sessions.items[0]!,
  transcript: [
    {
      id: 'm1',
      role: 'assistant',
      content: 'Hello there! How big is your **team**?',
      engine: 'builtin',
      citation: null,
      createdAt: '2026-01-20T11:50:00.000Z',
    },
    {
      id: 'm2',
      role: 'user',
      content: 'We are twelve. <b>When</b> is the desk open?',
      engine: null,
      citation: null,
      createdAt: '2026-01-20T11:51:00.000Z',
    },
    {
      id: 'm3',
      role: 'assistant',
      content: 'Weekdays 9 to 5.',
      engine: 'llm',
      citation: { document: 'Knowledge', title: 'Opening hours', quote: 'Weekdays 9 to 5.' },
      createdAt: '2026-01-20T11:52:00.000Z',
    },
  ],
};

const insights: ChatbotInsights = {
  conversations: 10,
  learners: 9,
  completed: 4,
  variables: [
    { name: 'team_size', title: 'Team size', required: true, asked: 10, captured: 8, rate: 0.8 },
    { name: 'has_manager', title: 'Has a manager', required: true, asked: 8, captured: 4, rate: 0.5 },
    { name: 'start_date', title: 'Start date', required: false, asked: 0, captured: 0, rate: null },
  ],
  knowledgeGaps: [
    { question: 'Is there parking?', count: 1, lastAskedAt: '2026-01-20T12:00:00.000Z' },
    { question: 'Can I bring my dog?', count: 3, lastAskedAt: '2026-01-21T12:00:00.000Z' },
  ],
};

function renderAt(path: string) {
  const queryClient = createTestQueryClient();
  queryClient.setQueryData(sessionQueryKey, me);
  return renderWithQueryClient(
    <MemoryRouter initialEntries={[path]}>
      <Routes>
        <Route path="/chatbots" element={<h1>Agents list</h1>} />
        <Route path="/chatbots/create" element={<CreateChatbotPage />} />
        <Route path="/chatbots/edit/:id" element={<EditChatbotPage />} />
      </Routes>
    </MemoryRouter>,
    { queryClient },
  );
}

type StubOptions = {
  /** Answers a save of the agent (`PUT`). */
  put?: (body: unknown) => Response;
  /** The organization's course variables. */
  variables?: VariableListItem[];
};

/** Answers the agent's own endpoints and the course variables; `post` handles a create. */
function stubAgentApi(
  post?: (body: unknown) => Response,
  { put, variables = courseVariables }: StubOptions = {},
) {
  return stubFetch((url, init) => {
    if (init?.method === 'POST' && url === '/api/chatbots') return post!(JSON.parse(init.body as string));
    if (init?.method === 'PUT' && url === `/api/chatbots/${ID}`) return put!(JSON.parse(init.body as string));
    if (url.startsWith('/api/variables?')) return jsonResponse(200, variablesPage(variables));
    if (url.endsWith('/results/export')) {
      return new Response('email,team_size\r\nanna@acme.test,12', {
        headers: { 'content-type': 'text/csv' },
      });
    }
    if (url.includes(`/sessions/${SESSION}`)) return jsonResponse(200, detail);
    if (url.includes('/sessions')) return jsonResponse(200, sessions);
    if (url.endsWith('/insights')) return jsonResponse(200, insights);
    if (url.startsWith(`/api/chatbots/${ID}`)) return jsonResponse(200, coach);
    return jsonResponse(404, { error: 'Not found', code: 'NOT_FOUND' });
  });
}

async function addVariable(user: ReturnType<typeof userEvent.setup>, name: string) {
  const buttons = screen.getAllByRole('button', { name: 'Add variable' });
  await user.click(buttons[0]!);
  const names = screen.getAllByRole('textbox', { name: 'Name' });
  // The first "Name" is the agent's; each variable adds its own.
  await user.type(names[names.length - 1]!, name);
}

beforeEach(() => {
  vi.clearAllMocks();
});

describe('CreateChatbotPage', () => {
  it('refuses two variables with the same name, in the contract’s words, without sending anything', async () => {
    const user = userEvent.setup();
    const fetchMock = stubAgentApi();
    renderAt('/chatbots/create');
    await user.type(await screen.findByRole('textbox', { name: 'Name' }), 'Coach');
    await addVariable(user, 'team_size');
    await addVariable(user, 'Team_Size');
    await user.click(screen.getByRole('button', { name: 'Create agent' }));
    expect(await screen.findByText(CHATBOT_MESSAGES.duplicateVariable('Team_Size'))).toBeInTheDocument();
    const names = screen.getAllByRole('textbox', { name: 'Name' });
    expect(names[2]).toHaveAttribute('aria-invalid', 'true');
    expect(names[1]).not.toHaveAttribute('aria-invalid');
    expect(fetchedRequests(fetchMock).some((request) => request.method === 'POST')).toBe(false);
  });

  it('asks for a second option of a choice and checks the other fields of each type', async () => {
    const user = userEvent.setup();
    stubAgentApi();
    renderAt('/chatbots/create');
    await user.type(await screen.findByRole('textbox', { name: 'Name' }), 'Coach');
    await addVariable(user, 'plan');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Type' }), 'choice');
    await user.click(screen.getByRole('button', { name: 'Add option' }));
    await user.type(screen.getByRole('textbox', { name: 'Option 1' }), 'Pro');
    await addVariable(user, 'seats');
    await user.selectOptions(screen.getAllByRole('combobox', { name: 'Type' })[1]!, 'number');
    await user.type(screen.getByRole('textbox', { name: 'Minimum' }), '10');
    await user.type(screen.getByRole('textbox', { name: 'Maximum' }), '2');
    await user.click(screen.getByRole('button', { name: 'Create agent' }));

    expect(await screen.findByText(CHATBOT_MESSAGES.choiceNeedsOptions)).toBeInTheDocument();
    expect(screen.getByText(CHATBOT_MESSAGES.minAboveMax)).toBeInTheDocument();
    expect(screen.getByText('Some fields need a change: they are marked in red.')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Add option' }));
    await user.type(screen.getByRole('textbox', { name: 'Option 2' }), 'Basic');
    await user.click(screen.getByRole('button', { name: 'Create agent' }));
    await waitFor(() =>
      expect(screen.queryByText(CHATBOT_MESSAGES.choiceNeedsOptions)).not.toBeInTheDocument(),
    );
  });

  it('puts the problems of a 400 on their fields', async () => {
    const user = userEvent.setup();
    stubAgentApi(() =>
      jsonResponse(400, {
        error: 'This name is taken',
        code: 'VALIDATION_ERROR',
        issues: [
          { path: 'body.name', message: 'This name is taken' },
          { path: 'body.variables.0.question', message: 'Ask one thing at a time' },
        ],
      }),
    );
    renderAt('/chatbots/create');
    const name = await screen.findByRole('textbox', { name: 'Name' });
    await user.type(name, 'Coach');
    await addVariable(user, 'goal');
    await user.click(screen.getByRole('button', { name: 'Create agent' }));

    expect(await screen.findByText('This name is taken')).toBeInTheDocument();
    expect(name).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByRole('textbox', { name: /Question/ })).toHaveAccessibleDescription(
      expect.stringContaining('Ask one thing at a time'),
    );
    expect(toast.error).not.toHaveBeenCalled();
  });

  it('says there are no course variables to store a variable in yet', async () => {
    const user = userEvent.setup();
    stubAgentApi(undefined, { variables: [] });
    renderAt('/chatbots/create');
    await user.type(await screen.findByRole('textbox', { name: 'Name' }), 'Coach');
    await addVariable(user, 'goal');
    expect(await screen.findByText(/No course variables yet/)).toBeInTheDocument();
    expect(screen.queryByRole('combobox', { name: PICKER })).not.toBeInTheDocument();
  });

  it('creates the agent and opens its page', async () => {
    const user = userEvent.setup();
    const posted: unknown[] = [];
    stubAgentApi((body) => {
      posted.push(body);
      return jsonResponse(201, { ...coach, name: 'Coach', variables: [] });
    });
    renderAt('/chatbots/create');
    await user.type(await screen.findByRole('textbox', { name: 'Name' }), 'Coach');
    await user.type(screen.getByRole('textbox', { name: 'Instructions' }), 'Be brief.');
    await user.type(screen.getByRole('textbox', { name: 'Avatar' }), '🧭');
    expect(screen.getAllByTestId('chat-preview')[0]).toHaveTextContent('🧭');
    await user.click(screen.getByRole('button', { name: 'Create agent' }));

    expect(await screen.findByRole('heading', { level: 1, name: /Coach/ })).toBeInTheDocument();
    expect(posted).toEqual([
      {
        name: 'Coach',
        description: null,
        instructions: 'Be brief.',
        welcomeMessage: null,
        knowledge: '',
        documents: [],
        variables: [],
        color: '#4f46e5',
        avatar: '🧭',
        active: true,
      },
    ]);
    expect(toast.success).toHaveBeenCalledWith('Agent “Coach” created');
  });

  it('adds the text of an uploaded file to the documents, and says which files it cannot read', async () => {
    const user = userEvent.setup({ applyAccept: false });
    const uploads: { headers: Record<string, string>; body: unknown }[] = [];
    stubFetch((url, init) => {
      if (url === '/api/chatbots/knowledge/extract') {
        uploads.push({ headers: init?.headers as Record<string, string>, body: init?.body });
        return jsonResponse(200, {
          title: 'Café guide',
          format: 'markdown',
          text: '# Menu\nCoffee and tea.',
        });
      }
      return jsonResponse(404, { error: 'Not found', code: 'NOT_FOUND' });
    });
    renderAt('/chatbots/create');
    const guide = new File(['# Menu\nCoffee and tea.'], 'Café guide.md', { type: '' });
    const slides = new File(['PK'], 'slides.pptx');
    await user.upload(await screen.findByLabelText('Upload files'), [guide, slides]);

    const documents = await screen.findByRole('list', { name: 'Documents' });
    expect(within(documents).getByText('Café guide')).toBeInTheDocument();
    expect(within(documents).getByText('22 characters')).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent(CHATBOT_MESSAGES.unsupportedFile('slides.pptx'));
    expect(uploads).toHaveLength(1);
    expect(uploads[0]?.headers).toMatchObject({
      'Content-Type': 'text/markdown',
      'X-File-Name': encodeURIComponent('Café guide.md'),
    });
    expect(uploads[0]?.body).toBe(guide);
    expect(screen.getByRole('meter', { name: 'Knowledge in all' })).toHaveAttribute('aria-valuenow', '22');

    await user.click(within(documents).getByRole('button', { name: 'Remove Café guide' }));
    expect(screen.queryByRole('list', { name: 'Documents' })).not.toBeInTheDocument();
  });
});

describe('EditChatbotPage', () => {
  it('fills the form with the saved agent and saves it whole', async () => {
    const user = userEvent.setup();
    const fetchMock = stubAgentApi(undefined, {
      put: () => jsonResponse(200, { ...coach, name: 'Coach two', updatedAt: '2026-01-03T00:00:00.000Z' }),
    });
    renderAt(`/chatbots/edit/${ID}`);
    expect(await screen.findByRole('heading', { level: 1, name: /Onboarding coach/ })).toBeInTheDocument();
    const name = screen.getAllByRole('textbox', { name: 'Name' })[0]!;
    expect(name).toHaveValue('Onboarding coach');
    expect(
      screen
        .getAllByRole('textbox', { name: 'Name' })
        .slice(1)
        .map((input) => (input as HTMLInputElement).value),
    ).toEqual(['team_size', 'has_manager', 'start_date']);
    await user.click(screen.getByRole('button', { name: 'Move variable 3 up' }));
    await user.clear(name);
    await user.type(name, 'Coach two');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));

    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Agent “Coach two” saved'));
    const put = fetchMock.mock.calls.find(([, init]) => init?.method === 'PUT');
    const body = JSON.parse(put?.[1]?.body as string) as { name: string; variables: { name: string }[] };
    expect(body.name).toBe('Coach two');
    expect(body.variables.map((item) => item.name)).toEqual(['team_size', 'start_date', 'has_manager']);
  });

  it('saves each variable’s course variables back unchanged when they were not touched', async () => {
    const user = userEvent.setup();
    const saved: unknown[] = [];
    stubAgentApi(undefined, {
      put: (body) => {
        saved.push(body);
        return jsonResponse(200, { ...coach, name: 'Coach two', updatedAt: '2026-01-03T00:00:00.000Z' });
      },
    });
    renderAt(`/chatbots/edit/${ID}`);
    const chosen = await screen.findByRole('list', { name: 'Chosen course variables' });
    // The chips name the course and the variable (its title when it has one), once the list is loaded.
    expect(
      await within(chosen).findByRole('button', { name: 'Remove Safety training · Final score' }),
    ).toBeInTheDocument();
    expect(within(chosen).getByRole('button', { name: 'Remove Onboarding · team_size' })).toBeInTheDocument();
    const name = screen.getAllByRole('textbox', { name: 'Name' })[0]!;
    await user.clear(name);
    await user.type(name, 'Coach two');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));

    await waitFor(() => expect(saved).toHaveLength(1));
    const body = saved[0] as { variables: { name: string; destinationVariableIds: string[] }[] };
    expect(body.variables.map(({ name, destinationVariableIds }) => [name, destinationVariableIds])).toEqual([
      ['team_size', [TEAM, SCORE]],
      ['has_manager', []],
      ['start_date', []],
    ]);
  });

  it('stores a variable in the course variable chosen for it, and no longer in one removed', async () => {
    const user = userEvent.setup();
    const saved: unknown[] = [];
    stubAgentApi(undefined, {
      put: (body) => {
        saved.push(body);
        return jsonResponse(200, coach);
      },
    });
    renderAt(`/chatbots/edit/${ID}`);
    await screen.findByRole('button', { name: 'Remove Safety training · Final score' });
    const pickers = screen.getAllByRole('combobox', { name: PICKER });
    expect(pickers).toHaveLength(3);
    expect(pickers[1]).toHaveAccessibleDescription(
      'Each value the agent captures is also stored in these course variables, on the same learner.',
    );

    // The variables already chosen are not offered again.
    await user.click(pickers[0]!);
    expect(
      within(screen.getByRole('listbox', { name: PICKER }))
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['Onboarding · Has a managerhas_manager · Yes / no']);
    await user.keyboard('{Escape}');

    await user.click(pickers[1]!);
    await user.type(pickers[1]!, 'manager');
    await user.click(screen.getByRole('option', { name: /Onboarding · Has a manager/ }));
    expect(screen.getByRole('button', { name: 'Remove Onboarding · Has a manager' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Remove Safety training · Final score' }));
    expect(pickers[0]).toHaveFocus();
    await user.click(screen.getByRole('button', { name: 'Save changes' }));

    await waitFor(() => expect(saved).toHaveLength(1));
    const body = saved[0] as { variables: { destinationVariableIds: string[] }[] };
    expect(body.variables.map((item) => item.destinationVariableIds)).toEqual([[TEAM], [MANAGER], []]);
  });

  it('shows the server’s refusal of a course variable under that variable’s picker', async () => {
    const user = userEvent.setup();
    stubAgentApi(undefined, {
      put: () =>
        jsonResponse(400, {
          error: CHATBOT_MESSAGES.destinationNotFound,
          code: 'VALIDATION_ERROR',
          issues: [
            {
              path: 'body.variables.0.destinationVariableIds',
              message: CHATBOT_MESSAGES.destinationNotFound,
            },
          ],
        }),
    });
    renderAt(`/chatbots/edit/${ID}`);
    await screen.findByRole('button', { name: 'Remove Safety training · Final score' });
    await user.click(screen.getByRole('button', { name: 'Save changes' }));

    expect(await screen.findByText(CHATBOT_MESSAGES.destinationNotFound)).toBeInTheDocument();
    const [picker, other] = screen.getAllByRole('combobox', { name: PICKER });
    expect(picker).toHaveAttribute('aria-invalid', 'true');
    expect(picker).toHaveAccessibleDescription(expect.stringContaining(CHATBOT_MESSAGES.destinationNotFound));
    expect(picker).toHaveFocus();
    expect(other).not.toHaveAttribute('aria-invalid');
    expect(screen.getAllByRole('textbox', { name: 'Name' })[1]).not.toHaveAttribute('aria-invalid');
    expect(toast.error).not.toHaveBeenCalled();
  });

  it('says so when the agent does not exist', async () => {
    stubFetch(() => jsonResponse(404, { error: CHATBOT_MESSAGES.notFound, code: 'NOT_FOUND' }));
    renderAt(`/chatbots/edit/${ID}`);
    expect(await screen.findByRole('heading', { name: 'Agent not found' })).toBeInTheDocument();
  });

  it('gives the embed snippets with the learner placeholder explained', async () => {
    stubAgentApi();
    renderAt(`/chatbots/edit/${ID}?tab=embed`);
    const iframe = await screen.findByLabelText('Inline chat snippet');
    expect(iframe).toHaveTextContent(`${window.location.origin}/chat/${ID}?email=LEARNER_EMAIL`);
    expect(screen.getByLabelText('Chat bubble snippet')).toHaveTextContent(`data-chatbot="${ID}"`);
    expect(screen.getByText(/with the learner’s e-mail address/)).toBeInTheDocument();
    expect(screen.getByRole('link', { current: 'page' })).toHaveTextContent('Embed');
  });

  it('lists conversations and opens one with its transcript, engines and sources', async () => {
    const user = userEvent.setup();
    const fetchMock = stubAgentApi();
    renderAt(`/chatbots/edit/${ID}?tab=conversations`);
    const table = await screen.findByRole('table', { name: 'Conversations' });
    await within(table).findByText('Anna Zimmer');
    const [, anna, ben] = within(table).getAllByRole('row');
    expect(within(anna!).getAllByText('Complete').length).toBeGreaterThan(0);
    expect(within(anna!).getByText('3 of 3 values')).toBeInTheDocument();
    expect(within(ben!).getAllByText('Values missing').length).toBeGreaterThan(0);
    expect(
      within(ben!).getByRole('button', { name: 'Open the conversation with ben@acme.test' }),
    ).toBeInTheDocument();

    await user.selectOptions(screen.getByRole('combobox', { name: 'Captured' }), 'false');
    await waitFor(() => expect(fetchedRequests(fetchMock).at(-1)?.url).toContain('captured=false'));

    await user.click(within(anna!).getByRole('button', { name: 'Open the conversation with Anna Zimmer' }));
    const sheet = await screen.findByRole('dialog', { name: 'Anna Zimmer' });
    const transcript = await within(sheet).findByRole('list');
    const messages = within(transcript).getAllByRole('listitem');
    expect(messages).toHaveLength(3);
    expect(within(messages[0]!).getByText('team').tagName).toBe('STRONG');
    expect(within(messages[0]!).getByText('Built-in assistant')).toBeInTheDocument();
    // A learner's text is shown as typed, never as markup.
    expect(messages[1]).toHaveTextContent('We are twelve. <b>When</b> is the desk open?');
    expect(within(messages[2]!).getByText('AI model')).toBeInTheDocument();
    expect(within(messages[2]!).getByText('From Knowledge — Opening hours')).toBeInTheDocument();
    expect(within(sheet).getByText('Team size').nextSibling).toHaveTextContent('12');
    expect(within(sheet).getByText('Has a manager').nextSibling).toHaveTextContent('No');
    expect(within(sheet).getByText('Start date').nextSibling).toHaveTextContent('Mar 1, 2026');
    expect(within(sheet).getByRole('link', { name: 'Open the learner' })).toHaveAttribute(
      'href',
      `/learner/${LEARNER}/variables`,
    );
  });

  it('shows the captured values one column per variable and exports them', async () => {
    const user = userEvent.setup();
    const fetchMock = stubAgentApi();
    renderAt(`/chatbots/edit/${ID}?tab=results`);
    const table = await screen.findByRole('table', { name: 'Captured values' });
    await within(table).findByText('Anna Zimmer');
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((header) => header.textContent);
    expect(headers).toEqual(['Learner', 'Started', 'Status', 'Team size', 'Has a manager', 'Start date']);
    const [, anna, ben] = within(table).getAllByRole('row');
    const annaCells = within(anna!)
      .getAllByRole('cell')
      .map((cell) => cell.textContent);
    expect(annaCells.slice(-3)).toEqual(['12', 'No', 'Mar 1, 2026']);
    expect(within(ben!).getAllByTitle('Not captured')).toHaveLength(3);

    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    await waitFor(() =>
      expect(downloadText).toHaveBeenCalledWith(
        'onboarding-coach-results.csv',
        'email,team_size\r\nanna@acme.test,12',
      ),
    );
    expect(fetchedRequests(fetchMock).map((request) => request.url)).toContain(
      `/api/chatbots/${ID}/results/export`,
    );
  });

  it('shows capture per variable with the one losing most learners, and the knowledge gaps', async () => {
    stubAgentApi();
    renderAt(`/chatbots/edit/${ID}?tab=insights`);
    const bars = await screen.findByRole('list', { name: 'Capture rate per variable' });
    const [teamSize, manager, start] = within(bars).getAllByRole('listitem');
    expect(teamSize).toHaveTextContent('80%');
    expect(teamSize).not.toHaveTextContent('Loses the most learners');
    expect(manager).toHaveTextContent('Loses the most learners');
    expect(manager).toHaveTextContent('Asked in 8 conversations, captured in 4');
    expect(start).toHaveTextContent('—');
    const gaps = within(screen.getByRole('list', { name: 'Knowledge gaps' })).getAllByRole('listitem');
    expect(gaps.map((gap) => gap.textContent)).toEqual([
      expect.stringMatching(/^Can I bring my dog\?.*3 times$/),
      expect.stringMatching(/^Is there parking\?.*1 time$/),
    ]);
  });
});
