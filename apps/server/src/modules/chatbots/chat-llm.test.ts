import type {
  Chatbot,
  LearnerChatbotVariablesResponse,
  SendChatMessageResponse,
} from '@courselens/contracts';
import { sql } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app';
import { signUpViaApi, type SignedUp } from '../../test/auth';
import { startLlmStub, type LlmStub, type StubRequest } from '../../test/llm-stub';
import { CAPTURE_TOOL } from './engine/llm-engine';

// The model-backed chat engine against a local OpenAI-compatible stub: it
// streams the model's words, captures values through the tool call (checked
// by the variables' schema and validation), records which engine answered,
// shows the model only this learner's conversation, and hands the turn to
// the built-in engine when the model fails.

let stub: LlmStub;
let testApp: TestApp;
let owner: SignedUp;
let agent: Chatbot;

const inject = (options: InjectOptions) => testApp.app.inject(options);

const KNOWLEDGE = `# Safety

## Evacuation
When the alarm sounds, leave by the nearest exit and gather at the assembly point in the north car park.`;

beforeAll(async () => {
  stub = await startLlmStub();
  testApp = await createTestApp(
    { llm: stub.config },
    { chat: { limits: { perMinute: 10_000, perHour: 10_000 } } },
  );
  owner = await signUpViaApi(testApp.app);
  const created = await inject({
    method: 'POST',
    url: '/api/chatbots',
    headers: owner.headers,
    payload: {
      name: 'Ada',
      instructions: 'You are Ada, a friendly safety coach.',
      knowledge: KNOWLEDGE,
      variables: [
        { name: 'team_size', type: 'number', validation: { min: 1, max: 500 } },
        { name: 'site', type: 'choice', options: ['Paris', 'Lyon'] },
      ],
    },
  });
  agent = created.json<Chatbot>();
});

afterAll(async () => {
  await testApp.close();
  await stub.close();
});

beforeEach(() => {
  stub.requests.length = 0;
});

/** A model that calls the capture tool once when the learner states values, then answers in words. */
function modelCapturing(values: Record<string, unknown>, words: string) {
  return (request: StubRequest) => {
    const calledAlready = request.messages.some((m) => m.role === 'tool');
    return calledAlready || Object.keys(values).length === 0
      ? words
      : { toolCalls: [{ name: CAPTURE_TOOL, arguments: values }] };
  };
}

describe('the LLM chat engine', () => {
  it('streams the model’s reply and captures values through its tool call', async () => {
    stub.reply(modelCapturing({ team_size: 12, site: 'Lyon' }, 'Thanks! I noted a team of 12 in Lyon.'));
    const response = await inject({
      method: 'POST',
      url: `/api/chat/${agent.id}/messages`,
      headers: { accept: 'text/event-stream' },
      payload: { message: 'We are twelve, in Lyon', learner: { email: 'lea@example.com' } },
    });
    expect(response.statusCode).toBe(200);
    const events = response.body
      .trim()
      .split('\n\n')
      .map((block) => ({
        event: block.split('\n')[0]?.slice('event: '.length),
        data: JSON.parse(block.split('\n')[1]?.slice('data: '.length) ?? '{}') as unknown,
      }));
    const deltas = events.filter((e) => e.event === 'delta').map((e) => (e.data as { text: string }).text);
    expect(deltas.join('')).toBe('Thanks! I noted a team of 12 in Lyon.');
    expect(deltas.length).toBeGreaterThan(2);
    const done = events.at(-1)?.data as SendChatMessageResponse;
    expect(done.reply).toMatchObject({ engine: 'llm', content: 'Thanks! I noted a team of 12 in Lyon.' });
    expect(done.captured).toEqual({ team_size: 12, site: 'Lyon' });
    expect(done.done).toBe(true);

    // The model was offered the capture tool, told the instructions, and asked to stream.
    const first = stub.requests[0];
    expect(first?.tools).toEqual([CAPTURE_TOOL]);
    expect(first?.stream).toBe(true);
    expect(first?.text).toContain('You are Ada, a friendly safety coach.');

    const learner = await testApp.database.db.execute<{ id: string }>(
      sql`select id from learners where organization_id = ${owner.organization.id} and email = 'lea@example.com'`,
    );
    const values = await inject({
      method: 'GET',
      url: `/api/learners/${learner.rows[0]?.id}/chatbot-variables`,
      headers: owner.headers,
    });
    expect(
      values
        .json<LearnerChatbotVariablesResponse>()
        .items.map((v) => [v.name, v.value])
        .sort(),
    ).toEqual([
      ['site', 'Lyon'],
      ['team_size', 12],
    ]);
    const stored = await testApp.database.db.execute<{ engine: string | null }>(
      sql`select engine from chat_messages where organization_id = ${owner.organization.id} and role = 'assistant'
        order by created_at desc limit 1`,
    );
    expect(stored.rows[0]?.engine).toBe('llm');
  });

  it('refuses a value that fails validation, as the built-in engine does', async () => {
    stub.reply(modelCapturing({ team_size: 9000 }, 'How many people are in your team?'));
    const response = await inject({
      method: 'POST',
      url: `/api/chat/${agent.id}/messages`,
      payload: { message: 'We are 9000', learner: { email: 'big@example.com' } },
    });
    expect(response.json<SendChatMessageResponse>().captured).toEqual({});
    // The tool's answer told the model why.
    const second = stub.requests.find((r) => r.messages.some((m) => m.role === 'tool'));
    expect(second?.messages.find((m) => m.role === 'tool')?.content).toContain('between 1 and 500');
  });

  it('shows the model the retrieved passages and only this learner’s conversation', async () => {
    stub.reply(() => 'At the assembly point in the north car park (Evacuation).');
    await inject({
      method: 'POST',
      url: `/api/chat/${agent.id}/messages`,
      payload: { message: 'My team size is 4', learner: { email: 'mia@example.com' } },
    });
    const first = await inject({
      method: 'POST',
      url: `/api/chat/${agent.id}/messages`,
      payload: { message: 'Where do we gather after an evacuation?', learner: { email: 'noa@example.com' } },
    });
    const body = first.json<SendChatMessageResponse>();
    expect(body.reply.citation).toMatchObject({ title: 'Evacuation' });
    const last = stub.requests.at(-1);
    expect(last?.text).toContain('north car park');
    expect(last?.text).not.toContain('mia@example.com');
    expect(last?.text).not.toContain('My team size is 4');
    expect(last?.text).not.toContain('lea@example.com');
  });

  it('lets the built-in engine answer when the model fails', async () => {
    stub.reply(() => ({ status: 500 }));
    const response = await inject({
      method: 'POST',
      url: `/api/chat/${agent.id}/messages`,
      payload: { message: '7', learner: { email: 'fallback@example.com' } },
    });
    expect(response.statusCode).toBe(200);
    const body = response.json<SendChatMessageResponse>();
    expect(body.reply.engine).toBe('builtin');
    expect(body.captured).toEqual({ team_size: 7 });
  });
});
