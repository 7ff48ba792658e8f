import type { GeneratePipelineResponse } from '@courselens/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes, useParams } from 'react-router';
import { describe, expect, it, vi } from 'vitest';

import { sessionQueryKey } from '@/lib/auth';
import { createTestQueryClient, jsonResponse, renderWithQueryClient, stubFetch } from '@/testing/test-utils';

import { PipelineGeneratorPage } from './pipeline-generator-page';

vi.mock('@/lib/toast', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));

const me = {
  user: { id: 'u1', name: 'Ada Lovelace', email: 'ada@example.com' },
  organizations: [{ id: 'o1', name: 'Acme', subdomain: 'acme', role: 'owner', isPrimary: true }],
};

const SAFETY = '11111111-1111-4111-8111-111111111111';
const FIRE = '22222222-2222-4222-8222-222222222222';
const PROMPT = 'when a learner fails the safety quiz twice, e-mail their manager and set at_risk to true';

const drafted: GeneratePipelineResponse = {
  engine: 'builtin',
  model: null,
  draft: {
    name: 'When a learner fails the safety quiz twice',
    description: null,
    nodes: [
      {
        id: 'course-1',
        type: 'course',
        position: { x: 0, y: 0 },
        data: { label: 'Workplace Safety Essentials', courseId: SAFETY, events: ['course.failed'] },
      },
      {
        id: 'filter',
        type: 'filter',
        position: { x: 280, y: 0 },
        data: {
          label: 'Only if they failed it at least 2 times',
          match: 'all',
          conditions: [{ field: 'learner.count', eventType: 'course.failed', op: 'gte', value: 2 }],
        },
      },
      {
        id: 'action-1',
        type: 'action',
        position: { x: 560, y: 0 },
        data: {
          label: 'Email the team',
          proposedAction: {
            name: 'Email the team',
            type: 'email',
            config: { type: 'email', to: { kind: 'team' }, subject: 's', body: 'b' },
          },
        },
      },
      {
        id: 'action-2',
        type: 'action',
        position: { x: 560, y: 140 },
        data: {
          label: 'Webhook',
          proposedAction: {
            name: 'Webhook',
            type: 'webhook',
            config: { type: 'webhook', url: '', method: 'POST' },
          },
        },
      },
    ],
    edges: [
      { id: 'course-1->filter', source: 'course-1', target: 'filter' },
      { id: 'filter->action-1', source: 'filter', target: 'action-1' },
      { id: 'filter->action-2', source: 'filter', target: 'action-2' },
    ],
  },
  unmapped: ['their manager: CourseLens does not know learners’ managers; the e-mail goes to your team'],
  ambiguities: [],
  missingActions: [
    {
      nodeId: 'action-1',
      type: 'email',
      name: 'Email the team',
      description: 'A new e-mail to the team',
      config: { type: 'email', to: { kind: 'team' }, subject: 's', body: 'b' },
      missing: [],
    },
    {
      nodeId: 'action-2',
      type: 'webhook',
      name: 'Webhook',
      description: 'A new signed webhook: give the address it posts to',
      config: { type: 'webhook', url: '', method: 'POST' },
      missing: ['url'],
    },
  ],
  openSettings: [],
};

const asked: GeneratePipelineResponse = {
  ...drafted,
  draft: { ...drafted.draft, nodes: drafted.draft.nodes.slice(1), edges: [] },
  unmapped: [],
  missingActions: [],
  ambiguities: [
    {
      phrase: 'safety',
      kind: 'course',
      options: [
        { id: SAFETY, label: 'Workplace Safety Essentials' },
        { id: FIRE, label: 'Fire Safety Refresher' },
      ],
    },
  ],
};

function EditorStub() {
  return <p>Editor of {useParams().id}</p>;
}

function renderPage() {
  const queryClient = createTestQueryClient();
  queryClient.setQueryData(sessionQueryKey, me);
  renderWithQueryClient(
    <MemoryRouter initialEntries={['/pipelines/ai-generator']}>
      <Routes>
        <Route path="/pipelines/ai-generator" element={<PipelineGeneratorPage />} />
        <Route path="/pipeline/:id" element={<EditorStub />} />
      </Routes>
    </MemoryRouter>,
    { queryClient },
  );
}

type Sent = { url: string; body: unknown };

describe('PipelineGeneratorPage', () => {
  it('reads the draft back as steps, asks for what is missing, then creates the actions and the pipeline, off', async () => {
    const user = userEvent.setup();
    const sent: Sent[] = [];
    let actionCount = 0;
    stubFetch((url, init) => {
      const body = init?.body ? (JSON.parse(init.body as string) as unknown) : null;
      sent.push({ url, body });
      if (url === '/api/pipelines/generate') return jsonResponse(200, drafted);
      if (url === '/api/actions') {
        actionCount += 1;
        const isWebhook = (body as { config: { type: string } }).config.type === 'webhook';
        return jsonResponse(201, {
          id: `aaaaaaaa-aaaa-4aaa-8aaa-00000000000${actionCount}`,
          name: (body as { name: string }).name,
          secret: isWebhook ? 'whsec_c2VjcmV0' : null,
        });
      }
      if (url === '/api/pipelines') return jsonResponse(201, { id: 'p-1', name: 'When a learner fails' });
      return jsonResponse(404, { error: 'Not found', code: 'NOT_FOUND' });
    });
    renderPage();

    await user.type(screen.getByRole('textbox', { name: 'Describe your pipeline' }), PROMPT);
    await user.click(screen.getByRole('button', { name: 'Generate draft' }));

    const steps = await screen.findByTestId('draft-steps');
    expect(steps).toHaveTextContent('When a learner fails Workplace Safety Essentials');
    expect(steps).toHaveTextContent('only if they failed it at least 2 times');
    expect(within(steps).getAllByText('new')).toHaveLength(2);
    expect(screen.getByTestId('unmapped')).toHaveTextContent('their manager');
    expect(screen.getByTestId('generator-engine')).toHaveTextContent('Built-in engine');

    // The webhook has no address yet: nothing is created.
    await user.click(screen.getByRole('button', { name: 'Create pipeline' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Fill in what the new actions need');
    expect(screen.getByRole('textbox', { name: 'Webhook URL' })).toHaveAccessibleDescription(
      'Webhook URL is required',
    );
    expect(sent.filter((request) => request.url !== '/api/pipelines/generate')).toEqual([]);

    await user.type(screen.getByRole('textbox', { name: 'Webhook URL' }), 'https://hooks.example.com/in');
    await user.click(screen.getByRole('button', { name: 'Create pipeline' }));

    // The webhook's signing secret is shown once before the editor opens.
    expect(await screen.findByText('whsec_c2VjcmV0')).toBeInTheDocument();
    const saves = sent.filter((request) => request.url !== '/api/pipelines/generate');
    expect(saves.map((request) => request.url)).toEqual(['/api/actions', '/api/actions', '/api/pipelines']);
    expect(saves[1]?.body).toEqual({
      name: 'Webhook',
      config: { type: 'webhook', url: 'https://hooks.example.com/in', method: 'POST' },
    });
    const pipeline = saves[2]?.body as {
      active: boolean;
      nodes: { id: string; data: Record<string, unknown> }[];
    };
    expect(pipeline.active).toBe(false);
    expect(pipeline.nodes.find((node) => node.id === 'action-1')?.data).toEqual({
      label: 'Email the team',
      actionId: 'aaaaaaaa-aaaa-4aaa-8aaa-000000000001',
    });
    expect(pipeline.nodes.find((node) => node.id === 'action-2')?.data.actionId).toBe(
      'aaaaaaaa-aaaa-4aaa-8aaa-000000000002',
    );

    await user.click(screen.getByRole('button', { name: 'Open the pipeline' }));
    expect(await screen.findByText('Editor of p-1')).toBeInTheDocument();
  });

  it('asks back when a name fits two courses, and re-sends the sentence with the answer', async () => {
    const user = userEvent.setup();
    const requests: unknown[] = [];
    stubFetch((url, init) => {
      if (url === '/api/pipelines/generate') {
        const body = JSON.parse(init?.body as string) as { choices: Record<string, string> };
        requests.push(body);
        return jsonResponse(
          200,
          Object.keys(body.choices).length === 0 ? asked : { ...drafted, missingActions: [] },
        );
      }
      return jsonResponse(404, { error: 'Not found', code: 'NOT_FOUND' });
    });
    renderPage();
    await user.type(screen.getByRole('textbox', { name: 'Describe your pipeline' }), PROMPT);
    await user.keyboard('{Tab}');
    await user.click(screen.getByRole('button', { name: 'Generate draft' }));

    const question = await screen.findByRole('group', {
      name: '“safety” fits 2 courses. Which one did you mean?',
    });
    expect(
      screen.getByText('Answer the question above: the draft starts from what you choose.'),
    ).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Create pipeline' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Answer the questions above to finish the draft',
    );

    await user.click(within(question).getByRole('button', { name: 'Fire Safety Refresher' }));
    await waitFor(() =>
      expect(requests).toEqual([
        { prompt: PROMPT, choices: {} },
        { prompt: PROMPT, choices: { safety: FIRE } },
      ]),
    );
    await waitFor(() => expect(screen.queryByTestId('ambiguities')).not.toBeInTheDocument());
  });

  it('says what to write when the box is empty', async () => {
    const user = userEvent.setup();
    const fetchMock = stubFetch(() => jsonResponse(200, drafted));
    renderPage();
    await user.click(screen.getByRole('button', { name: 'Generate draft' }));
    expect(await screen.findByText('Describe what the pipeline should do')).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
    await user.click(screen.getByRole('button', { name: 'Every Monday at 8am notify the team' }));
    expect(screen.getByRole('textbox', { name: 'Describe your pipeline' })).toHaveValue(
      'Every Monday at 8am notify the team',
    );
  });
});
